// The `terminology` command. Exit codes: 0 success, 1 failure, 2 usage error.
// Modules load when a command needs them: `--help` and a command answered by a running server
// (src/cli/control.ts) never start the database, the importer or the HTTP stack; `--help` does
// not even load the configuration (its validator, zod, is the largest module a command loads:
// about half of --help's start-up, bench/results.md › CLI start-up).
import { Command, CommanderError } from 'commander';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { addDataCommands, CliError, DATA_COMMANDS, processIo } from './commands.ts';

const out = (s: string) => process.stdout.write(`${s}\n`);
const err = (s: string) => process.stderr.write(`${s}\n`);

async function withDb<T>(config: Config, fn: (db: Database) => Promise<T>): Promise<T> {
  const { openMigrated } = await import('../db/open.ts');
  const db = await openMigrated(config);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

function program(config: () => Config): Command {
  const p = new Command('terminology')
    .description('Terminology Explorer: host, browse, compare and code into releases of a MedDRA-shaped terminology.')
    .exitOverride()
    .showHelpAfterError();

  p.command('serve')
    .description('start the HTTP server (GraphQL at /graphql, REST, /docs); imports the demo releases into an empty store')
    .action(async () => {
      const { startServer } = await import('../server.ts');
      await startServer(config());
    });

  p.command('migrate')
    .description('apply pending database migrations and exit')
    .action(async () => {
      const c = config();
      const [{ openDatabase }, { migrate }] = await Promise.all([import('../db/client.ts'), import('../db/migrate.ts')]);
      const db = await openDatabase({ databaseUrl: c.databaseUrl, dataDir: c.dataDir });
      try {
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
      await withDb(config(), async (db) => {
        const progress = progressReporter('import');
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
            out(`${s.replaced ? 'replaced' : 'added'} language ${s.languageTag} (${s.language}) in release ${s.version}: ${counts} names; languages ${s.languages.join(', ')} in ${(s.millis / 1000).toFixed(1)} s`);
            return;
          }
          const peakMb = Math.round(process.resourceUsage().maxRSS / 1024);
          out(`${s.replaced ? 'replaced' : 'imported'} release ${s.version} (${s.language}): ${counts}; ${s.links} links, ${s.paths} paths in ${(s.millis / 1000).toFixed(1)} s (peak memory ${peakMb} MB)`);
          for (const c of s.changes) {
            out(`changes ${c.from} → ${c.to}: ${c.counts.added} added, ${c.counts.updated} updated, ${c.counts.retired} retired`);
          }
        } finally {
          progress.stop();
        }
      });
    });

  addDataCommands(p, { config, withDb: (fn) => withDb(config(), fn), io: processIo });
  return p;
}

async function readStdin(): Promise<string> {
  let s = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) s += chunk as string;
  return s;
}

/**
 * Embedded store owned by a running server: a data command goes to that server through its
 * control socket. Returns true when the server answered (its output printed, exit code set).
 */
async function viaRunningServer(args: string[], config: () => Config): Promise<boolean> {
  if (!DATA_COMMANDS.has(args[0] ?? '')) return false;
  let c: Config;
  try {
    c = config();
  } catch {
    return false; // the local run reports the configuration problem
  }
  if (c.databaseUrl || !c.dataDir || c.dataDir.startsWith('memory://')) return false;
  const { askRunningServer, controlChannelExists } = await import('./control.ts');
  if (!controlChannelExists(c.dataDir)) return false;
  // The server reads a file argument relative to this cwd; stdin travels in the request.
  const stdin = args[0] === 'impact' && args.includes('-') ? await readStdin() : undefined;
  const answer = await askRunningServer(c.dataDir, args, process.cwd(), stdin);
  if (!answer) return false;
  process.stdout.write(answer.stdout);
  process.stderr.write(answer.stderr);
  process.exitCode = answer.code;
  return true;
}

/** Help (or no command at all): commander answers it from the command definitions alone. */
export const answersWithoutConfig = (args: readonly string[]): boolean =>
  args.length === 0 || args[0] === 'help' || args.includes('--help') || args.includes('-h');

export async function main(argv = process.argv): Promise<void> {
  const args = argv.slice(2);
  const configModule = answersWithoutConfig(args) ? undefined : await import('../config.ts');
  let cached: Config | undefined;
  const config = () => {
    if (!configModule) throw new Error('the configuration is not loaded for help');
    return (cached ??= configModule.loadConfig());
  };
  try {
    if (await viaRunningServer(args, config)) return;
    await program(config).parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      process.exitCode = e.exitCode === 0 ? 0 : 2;
      return;
    }
    const { DataDirLockedError } = await import('../db/lock.ts');
    const { ImportRefusedError, ImportValidationError } = await import('../importer/errors.ts');
    if (e instanceof DataDirLockedError) {
      // Name what was refused: the lock's message is about the store, not the command.
      err(`terminology ${args.filter((a) => !a.startsWith('-')).slice(0, args[0] === 'keys' ? 2 : 1).join(' ')} was refused: ${e.message}`);
    } else if (e instanceof CliError || (configModule && e instanceof configModule.ConfigError) || e instanceof ImportValidationError || e instanceof ImportRefusedError) {
      err(e.message);
    } else {
      err(`error: ${(e as Error).message}`);
    }
    process.exitCode = 1;
  }
}
