// The `terminology` command. Exit codes: 0 success, 1 failure, 2 usage error.
// Modules load when a command needs them: `--help` and a command answered by a running server
// (src/cli/control.ts) never start the database, the importer or the HTTP stack; `--help` does
// not even load the configuration (its validator, zod, is the largest module a command loads:
// about half of --help's start-up, bench/results.md › CLI start-up).
// runCli() is the command with its environment and streams passed in (main() gives it the
// process's), so the same code runs embedded, e.g. in tests that are not about the process.
import { Command, CommanderError } from 'commander';
import type { Config } from '../config.ts';
import type { Readable } from 'node:stream';
import type { Database, StoreUpgrade } from '../db/client.ts';
import type { ProgressStream } from './progress.ts';
import { addDataCommands, CliError, DATA_COMMANDS, processIo, type CommandIo } from './commands.ts';

/** The process's streams, and its stderr for the import's progress (a bar on a terminal). */
const processCliIo: CliIo = { ...processIo, progress: process.stderr };

export interface CliIo extends CommandIo {
  /** Where the import reports progress (src/cli/progress.ts): a bar when it is a terminal. */
  progress: ProgressStream;
}

async function withDb<T>(config: Config, fn: (db: Database) => Promise<T>, note: (s: string) => void): Promise<T> {
  const { openMigrated } = await import('../db/open.ts');
  // An embedded store of an older PGlite is copied to the installed one on open (src/db/storeUpgrade.ts): say so, it takes a while.
  const db = await openMigrated(config, { onUpgradeProgress: note });
  if (db.upgraded) note(upgradeSummary(db.upgraded));
  try {
    return await fn(db);
  } finally {
    const { closeStore } = await import('../services/closeStore.ts');
    await closeStore(db, config.dataDir);
  }
}

/** One line for the person who ran the command: what the upgrade did and what to do with the old copy. */
function upgradeSummary(u: StoreUpgrade): string {
  return `upgraded the store from PostgreSQL ${u.fromMajor} to ${u.toMajor} (${u.tables} tables, ${u.rows} rows, ${(u.ms / 1000).toFixed(1)} s); the old copy is kept at ${u.backup}: delete it once the store has been checked`;
}

function program(config: () => Config, io: CliIo): Command {
  const out = (s: string) => io.out(`${s}\n`);
  const err = (s: string) => io.err(`${s}\n`);
  const withStore = <T>(fn: (db: Database) => Promise<T>) => withDb(config(), fn, err);
  const p = new Command('terminology')
    .description('Terminology Explorer: host, browse, compare and code into releases of a MedDRA-shaped terminology.')
    .exitOverride()
    .configureOutput({ writeOut: (s) => void io.out(s), writeErr: (s) => io.err(s) })
    .showHelpAfterError();

  p.command('serve')
    .description('start the HTTP server (GraphQL at /graphql, REST, /docs); imports the demo releases into an empty store')
    .action(async () => {
      const [{ startServer }, { dataCommands }] = await Promise.all([import('../server.ts'), import('./control.ts')]);
      const c = config();
      await startServer(c, { controlCommands: (db) => dataCommands(c, db) });
    });

  p.command('migrate')
    .description('apply pending database migrations and exit')
    .action(async () => {
      const c = config();
      const [{ openDatabase }, { migrate }, { loadSeed }, { upgradeStoreIfNeeded }] = await Promise.all([import('../db/client.ts'), import('../db/migrate.ts'), import('../db/seedStore.ts'), import('../db/storeUpgrade.ts')]);
      // A new embedded store starts from the shipped empty cluster, as `serve` makes one (initdb is seconds).
      const db = await openDatabase({ databaseUrl: c.databaseUrl, dataDir: c.dataDir, newStore: () => loadSeed(undefined), upgrade: (dir) => upgradeStoreIfNeeded(dir, err) });
      try {
        if (db.upgraded) err(upgradeSummary(db.upgraded));
        if (db.created) out(db.created.from === 'archive' ? 'created a new store from the shipped empty store' : `created a new store (initdb: ${db.created.reason ?? 'no shipped empty store'})`);
        const r = await migrate(db);
        for (const m of r.applied) out(`applied ${m}`);
        for (const m of r.modified) err(`warning: migration ${m} was modified after it was applied`);
        out(r.applied.length ? `${r.applied.length} migration(s) applied` : 'database is up to date');
      } finally {
        await db.close();
      }
    });

  p.command('import')
    .description('import a MedAscii release folder (all-or-nothing)')
    .argument('<dir>', 'the MedAscii folder of the release (e.g. …/MedAscii)')
    .option('--version <version>', 'release identifier (default: read from meddra_release.asc)')
    .option('--release-date <date>', 'release date, YYYY-MM-DD')
    .option('--replace', 'replace the release (or, in a release hosting several languages, this language) if it is already imported', false)
    .option('--language <tag>', 'BCP 47 tag of the folder\'s language (default: read from meddra_release.asc); a hosted version in a new language adds the language')
    .action(async (dir: string, o: { version?: string; releaseDate?: string; replace: boolean; language?: string }) => {
      const [{ importRelease }, { progressReporter }] = await Promise.all([import('../importer/import.ts'), import('./progress.ts')]);
      await withStore(async (db) => {
        const progress = progressReporter('import', io.progress);
        try {
          const s = await importRelease(db, dir, {
            version: o.version,
            releaseDate: o.releaseDate,
            replace: o.replace,
            language: o.language,
            onProgress: (x) => progress.update(x),
          });
          const counts = Object.entries(s.counts).map(([k, v]) => `${k} ${v}`).join(', ');
          if (s.kind === 'language') {
            await out(`${s.replaced ? 'replaced' : 'added'} language ${s.languageTag} (${s.language}) in release ${s.version}: ${counts} names; languages ${s.languages.join(', ')} in ${(s.millis / 1000).toFixed(1)} s`);
            return;
          }
          const peakMb = Math.round(process.resourceUsage().maxRSS / 1024);
          await out(`${s.replaced ? 'replaced' : 'imported'} release ${s.version} (${s.language}): ${counts}; ${s.links} links, ${s.paths} paths in ${(s.millis / 1000).toFixed(1)} s (peak memory ${peakMb} MB)`);
          for (const c of s.changes) {
            await out(`changes ${c.from} → ${c.to}: ${c.counts.added} added, ${c.counts.updated} updated, ${c.counts.retired} retired`);
          }
        } finally {
          progress.stop();
        }
      });
    });

  addDataCommands(p, { config, withDb: withStore, io });
  // A write of the store like import, not a data command: never run by a server for the CLI (its
  // caches hold the release), refused while one owns the embedded store.
  p.commands
    .find((c) => c.name() === 'releases')!
    .command('delete')
    .description('delete a hosted release: its content, languages, change sets and index snapshot (other releases stay as they are)')
    .argument('<version>', 'the release to delete (as `terminology releases` lists it)')
    .action(async (version: string) => {
      const { deleteRelease } = await import('../importer/releases.ts');
      const d = await withStore((db) => deleteRelease(db, version));
      const moved = d.snapshotsRestored ? `; ${d.snapshotsRestored} other release index snapshot(s) that depended on its snapshot stored again` : '';
      await out(`deleted release ${d.version} (${d.languages.join(', ')}): ${d.rows.deleted} content rows removed, ${d.rows.updated} shared with its neighbours cut or extended${moved}`);
    });
  return p;
}

async function readStdin(input: Readable): Promise<string> {
  let s = '';
  input.setEncoding('utf8');
  for await (const chunk of input) s += chunk as string;
  return s;
}

/**
 * Embedded store owned by a running server: a data command goes to that server through its
 * control socket. Resolves to the exit code when the server answered (its output written to `io`).
 */
async function viaRunningServer(args: string[], config: () => Config, io: CommandIo): Promise<number | undefined> {
  if (!DATA_COMMANDS.has(args[0] ?? '') || (args[0] === 'releases' && args[1] === 'delete')) return undefined;
  let c: Config;
  try {
    c = config();
  } catch {
    return undefined; // the local run reports the configuration problem
  }
  if (c.databaseUrl || !c.dataDir || c.dataDir.startsWith('memory://')) return undefined;
  const { askRunningServer, controlChannelExists } = await import('./control.ts');
  if (!controlChannelExists(c.dataDir)) return undefined;
  // The server reads a file argument relative to this cwd; stdin travels in the request.
  const stdin = args[0] === 'impact' && args.includes('-') ? await readStdin(io.input('-')) : undefined;
  const answer = await askRunningServer(c.dataDir, args, io.cwd, stdin);
  if (!answer) return undefined;
  await io.out(answer.stdout);
  io.err(answer.stderr);
  return answer.code;
}

/** Help (or no command at all): commander answers it from the command definitions alone. */
export const answersWithoutConfig = (args: readonly string[]): boolean =>
  args.length === 0 || args[0] === 'help' || args.includes('--help') || args.includes('-h');

/** Runs `terminology <args>` with this environment and these streams; resolves to the exit code. */
export async function runCli(args: string[], opts: { env?: NodeJS.ProcessEnv; io?: CliIo } = {}): Promise<number> {
  const io = opts.io ?? processCliIo;
  const err = (s: string) => io.err(`${s}
`);
  const configModule = answersWithoutConfig(args) ? undefined : await import('../config.ts');
  let cached: Config | undefined;
  const config = () => {
    if (!configModule) throw new Error('the configuration is not loaded for help');
    return (cached ??= configModule.loadConfig(opts.env ?? process.env));
  };
  try {
    const answered = await viaRunningServer(args, config, io);
    if (answered !== undefined) return answered;
    await program(config, io).parseAsync(args, { from: 'user' });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    const { DataDirLockedError } = await import('../db/lock.ts');
    const { ImportRefusedError, ImportValidationError } = await import('../importer/errors.ts');
    if (e instanceof DataDirLockedError) {
      // Name what was refused: the lock's message is about the store, not the command.
      err(`terminology ${args.filter((a) => !a.startsWith('-')).slice(0, args[0] === 'keys' || args[0] === 'releases' ? 2 : 1).join(' ')} was refused: ${e.message}`);
    } else if (e instanceof CliError || (configModule && e instanceof configModule.ConfigError) || e instanceof ImportValidationError || e instanceof ImportRefusedError) {
      err(e.message);
    } else {
      err(`error: ${(e as Error).message}`);
    }
    return 1;
  }
}

export async function main(argv = process.argv): Promise<void> {
  const code = await runCli(argv.slice(2));
  // Only a failure is set: a server started by `serve` is still running when this returns.
  if (code !== 0) process.exitCode = code;
}
