// The `terminology` command. Exit codes: 0 success, 1 failure, 2 usage error.
import { Command, CommanderError } from 'commander';
import { loadConfig, ConfigError, type Config } from '../config.ts';
import { openMigrated } from '../db/open.ts';
import { migrate } from '../db/migrate.ts';
import { openDatabase } from '../db/client.ts';
import { DataDirLockedError } from '../db/lock.ts';
import { importRelease } from '../importer/import.ts';
import { ImportRefusedError, ImportValidationError } from '../importer/errors.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../domain/apiKeys.ts';
import { listReleases } from '../domain/releases.ts';
import { progressReporter } from './progress.ts';
import { runImpact } from './impact.ts';
import { DomainError } from '../domain/errors.ts';

/** A failure whose message is the whole story (no "error:" prefix needed). */
class CliError extends Error {}

const out = (s: string) => process.stdout.write(`${s}\n`);
const err = (s: string) => process.stderr.write(`${s}\n`);

async function withDb<T>(config: Config, fn: (db: Awaited<ReturnType<typeof openMigrated>>) => Promise<T>): Promise<T> {
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
    .option('--replace', 'replace the release if it is already imported', false)
    .action(async (dir: string, o: { version?: string; releaseDate?: string; replace: boolean }) => {
      await withDb(config(), async (db) => {
        const progress = progressReporter('import');
        try {
          const s = await importRelease(db, dir, {
            version: o.version,
            releaseDate: o.releaseDate,
            replace: o.replace,
            onProgress: (x) => progress.update(x),
          });
          const counts = Object.entries(s.counts).map(([k, v]) => `${k} ${v}`).join(', ');
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

  p.command('releases')
    .description('list the hosted releases, latest first')
    .option('--json', 'print JSON', false)
    .action(async (o: { json: boolean }) => {
      await withDb(config(), async (db) => {
        const list = await listReleases(db.prisma);
        if (o.json) return out(JSON.stringify(list, null, 2));
        if (list.length === 0) return out('no releases');
        for (const r of list) {
          out(`${r.version}\t${r.releaseDate ?? '-'}\t${r.language}\t${r.isLatest ? 'latest' : ''}`.trimEnd());
        }
      });
    });

  p.command('impact')
    .description('impact of a release upgrade on coded data: a CSV file of rowId,code,term rows (- for stdin); the report goes to stdout')
    .argument('<file>', 'CSV file with a header row rowId,code[,term]')
    .requiredOption('--from <version>', 'release the rows were coded with')
    .requiredOption('--to <version>', 'release to upgrade to')
    .option('--format <format>', 'csv (one line per row and impact) or json (the report with its summary)', 'csv')
    .option('--validate-only', 'only check the rows: print the bad ones', false)
    .option('--impacted-only', 'JSON: only the rows with an impact', false)
    .action(async (file: string, o: { from: string; to: string; format: string; validateOnly: boolean; impactedOnly: boolean }) => {
      if (o.format !== 'csv' && o.format !== 'json') throw new CliError('--format must be csv or json');
      await withDb(config(), (db) =>
        runImpact(config(), db, file, { ...o, format: o.format as 'csv' | 'json' }).catch((e: unknown) => {
          // The client's mistakes (a bad file, an unknown release) are the whole story.
          throw e instanceof DomainError ? new CliError(e.message) : e;
        }),
      );
    });

  const keys = p.command('keys').description('manage API keys for the narrative endpoints');
  keys
    .command('create')
    .description('create a key; prints only the new sk-… key (store it now: it cannot be shown again)')
    .requiredOption('--name <name>', 'who or what the key is for')
    .action(async (o: { name: string }) => {
      await withDb(config(), async (db) => {
        const { key, info } = await createApiKey(db.prisma, o.name);
        out(key);
        err(`created key ${info.id} (${info.name})`);
      });
    });
  keys
    .command('list')
    .description('list keys (never the secret itself)')
    .option('--json', 'print JSON', false)
    .action(async (o: { json: boolean }) => {
      await withDb(config(), async (db) => {
        const list = await listApiKeys(db.prisma);
        if (o.json) return out(JSON.stringify(list, null, 2));
        if (list.length === 0) return out('no keys');
        for (const k of list) {
          // Usage columns: last use, then family=count pairs (written in batches by the servers, so up to ~10 s behind).
          const usage = k.usage.map((u) => `${u.family}=${u.count}`).join(',') || '-';
          out([k.id, k.name, `${k.prefix}…`, k.createdAt.toISOString(), k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active', k.lastUsedAt?.toISOString() ?? '-', usage].join('\t'));
        }
      });
    });
  keys
    .command('revoke')
    .description('revoke a key by id')
    .argument('<id>', 'key id from `keys list`')
    .action(async (id: string) => {
      await withDb(config(), async (db) => {
        // Thrown, not process.exitCode: closing PGlite resets the exit code.
        if (!(await revokeApiKey(db.prisma, id))) throw new CliError(`no key with id ${id}`);
        out(`revoked ${id}`);
      });
    });
  return p;
}

export async function main(argv = process.argv): Promise<void> {
  let cached: Config | undefined;
  const config = () => (cached ??= loadConfig());
  try {
    await program(config).parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      process.exitCode = e.exitCode === 0 ? 0 : 2;
      return;
    }
    if (e instanceof CliError || e instanceof ConfigError || e instanceof ImportValidationError || e instanceof ImportRefusedError || e instanceof DataDirLockedError) {
      err(e.message);
    } else {
      err(`error: ${(e as Error).message}`);
    }
    process.exitCode = 1;
  }
}
