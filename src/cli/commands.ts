// The commands that read or write the store without owning it: `releases`, `keys …` and
// `impact`. The CLI runs them on the database it opens; while a server owns the embedded
// store, the server runs them for the CLI on its own database (src/cli/control.ts). So
// each writes through `io`, never to the process's own streams.
import type { Readable } from 'node:stream';
import { createReadStream } from 'node:fs';
import type { Command } from 'commander';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { ReleaseInfo } from '../domain/releases.ts';

// The commands' modules load when a command runs (`--help` and the control channel's client stay light).
const apiKeys = () => import('../domain/apiKeys.ts');

/**
 * The embedded store's releases as recorded at its last clean close, when nothing opened it since
 * (src/db/storeManifest.ts): no PGlite start-up. Undefined: ask the database.
 */
async function recordedReleases(config: Config): Promise<Pick<ReleaseInfo, 'version' | 'releaseDate' | 'language' | 'isLatest'>[] | undefined> {
  if (config.databaseUrl) return undefined;
  const { embeddedStoreRoot, readStoreManifest } = await import('../db/storeManifest.ts');
  const root = embeddedStoreRoot(config.dataDir);
  return root ? readStoreManifest<{ releases: ReleaseInfo[] }>(root)?.releases : undefined;
}

/** A failure whose message is the whole story (no "error:" prefix needed). */
export class CliError extends Error {}

export interface CommandIo {
  out(s: string): Promise<void> | void;
  err(s: string): void;
  /** The command's input: a file (relative to `cwd`), or `-` for stdin. */
  input(file: string): Readable;
  cwd: string;
}

export interface CommandContext {
  config(): Config;
  withDb<T>(fn: (db: Database) => Promise<T>): Promise<T>;
  io: CommandIo;
}

/** The names of the commands below, as the control channel accepts them. */
export const DATA_COMMANDS = new Set(['releases', 'impact', 'keys']);

export function addDataCommands(p: Command, ctx: CommandContext): void {
  const { io } = ctx;
  const line = (s: string) => io.out(`${s}\n`);
  p.command('releases')
    .description('list the hosted releases, latest first')
    .option('--json', 'print JSON', false)
    .action(async (o: { json: boolean }) => {
      const list = (await recordedReleases(ctx.config())) ?? (await ctx.withDb(async (db) => (await import('../domain/releases.ts')).listReleases(db.prisma)));
      if (o.json) return line(JSON.stringify(list, null, 2));
      if (list.length === 0) return line('no releases');
      for (const r of list) await line(`${r.version}\t${r.releaseDate ?? '-'}\t${r.language}\t${r.isLatest ? 'latest' : ''}`.trimEnd());
    });

  p.command('impact')
    .description('impact of a release upgrade on coded data: a CSV file of rowId,code,term rows (- for stdin); the report goes to stdout')
    .argument('<file>', 'CSV file with a header row rowId,code[,term]')
    .requiredOption('--from <version>', 'release the rows were coded with')
    .requiredOption('--to <version>', 'release to upgrade to')
    .option('--format <format>', 'csv (one line per row and impact) or json (the report with its summary)', 'csv')
    .option('--validate-only', 'only check the rows: print the bad ones', false)
    .option('--impacted-only', 'JSON: only the rows with an impact', false)
    .option('--language <tag>', "BCP 47 tag of the names (hosted by both releases; default the target's primary): a name changed in it only is TRANSLATION_CHANGED")
    .action(async (file: string, o: { from: string; to: string; format: string; validateOnly: boolean; impactedOnly: boolean; language?: string }) => {
      if (o.format !== 'csv' && o.format !== 'json') throw new CliError('--format must be csv or json');
      const [{ runImpact }, { DomainError }] = await Promise.all([import('./impact.ts'), import('../domain/errors.ts')]);
      await ctx.withDb((db) =>
        runImpact(ctx.config(), db, io.input(file), { ...o, format: o.format as 'csv' | 'json' }, io).catch((e: unknown) => {
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
      const { createApiKey } = await apiKeys();
      const { key, info } = await ctx.withDb((db) => createApiKey(db.prisma, o.name));
      await line(key);
      io.err(`created key ${info.id} (${info.name})\n`);
    });
  keys
    .command('list')
    .description('list keys (never the secret itself)')
    .option('--json', 'print JSON', false)
    .action(async (o: { json: boolean }) => {
      const { listApiKeys } = await apiKeys();
      const list = await ctx.withDb((db) => listApiKeys(db.prisma));
      if (o.json) return line(JSON.stringify(list, null, 2));
      if (list.length === 0) return line('no keys');
      for (const k of list) {
        // Usage columns: last use, then family=count pairs (written in batches by the servers, so up to ~10 s behind).
        const usage = k.usage.map((u) => `${u.family}=${u.count}`).join(',') || '-';
        await line([k.id, k.name, `${k.prefix}…`, k.createdAt.toISOString(), k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active', k.lastUsedAt?.toISOString() ?? '-', usage].join('\t'));
      }
    });
  keys
    .command('revoke')
    .description('revoke a key by id')
    .argument('<id>', 'key id from `keys list`')
    .action(async (id: string) => {
      // Thrown, not process.exitCode: closing PGlite resets the exit code.
      const { revokeApiKey } = await apiKeys();
      if (!(await ctx.withDb((db) => revokeApiKey(db.prisma, id)))) throw new CliError(`no key with id ${id}`);
      await line(`revoked ${id}`);
    });
}

/** The local process's io. */
export const processIo: CommandIo = {
  out: (s) => (process.stdout.write(s) ? undefined : new Promise<void>((r) => process.stdout.once('drain', () => r()))),
  err: (s) => void process.stderr.write(s),
  input: (file) => (file === '-' ? process.stdin : createReadStream(file)),
  cwd: process.cwd(),
};
