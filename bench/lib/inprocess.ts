// In-process measurements, run as a child of the benchmark while no server holds the store:
//   - the widest SOC (most PT paths in hierarchy_path) and the number of SQL statements its
//     whole subtree down to LLTs costs through GraphQL (the server does not expose counts);
//   - the first computation of a full-size change set (as bench/changes.ts: delete the stored
//     set of the latest consecutive pair and compute it again), with its same-run baseline;
//   - an API key for the narrative endpoints.
//
//   node --import tsx bench/lib/inprocess.ts '{"databaseUrl":…,"dataDir":…,"from":"90.1","to":"90.2"}'
// Prints one line `RESULT {json}` on stdout.
import { openMigrated } from '../../src/db/open.ts';
import { createApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/logger.ts';
import { loadConfig } from '../../src/config.ts';
import { compose } from '../../src/compose.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';
import { ensureChangeSet } from '../../src/domain/changes/store.ts';
import { SUBTREE_QUERY } from './queries.ts';

export interface InProcessInput {
  databaseUrl?: string;
  dataDir: string;
  from: string;
  to: string;
  /** Skip the change-set recomputation (it is also measured through the CLI import). */
  skipChanges?: boolean;
  /** A narrative: the SQL statements of one warm POST /classify are counted. */
  narrative?: string;
}

export interface InProcessResult {
  apiKey: string;
  largestSoc: { code: string; ptPaths: number };
  subtree: { statements: number; sql: string[]; nodes: number; bytes: number; inProcessMs: number[] };
  changeSet?: { computeMs: number; baselineReadMs: number; counts: { added: number; updated: number; retired: number } };
  /** SQL statements of one POST /classify with a warm vocabulary (lexical engine). */
  classify?: { statements: number; sql: string[] };
}

interface TreeNode {
  children?: { code: TreeNode }[];
}
export function countNodes(node: TreeNode): number {
  return 1 + (node.children ?? []).reduce((n, c) => n + countNodes(c.code), 0);
}

async function main(input: InProcessInput): Promise<InProcessResult> {
  let counting = false;
  const sql: string[] = [];
  const db = await openMigrated({ databaseUrl: input.databaseUrl, dataDir: input.dataDir, poolSize: 4 }, { onQuery: (s) => counting && sql.push(s) });
  let closeServices: (() => Promise<void>) | undefined;
  try {
    const [from, to] = await Promise.all([input.from, input.to].map((v) => db.prisma.release.findUniqueOrThrow({ where: { version: v } })));
    const wide = await db.prisma.$queryRawUnsafe<{ soc: number; n: number }[]>(
      'SELECT p.soc_code AS soc, count(*)::int AS n FROM hierarchy_path_at($1) p GROUP BY p.soc_code ORDER BY n DESC, soc LIMIT 1',
      to!.id,
    );
    const largestSoc = { code: String(wide[0]!.soc), ptPaths: wide[0]!.n };

    // The app as the server composes it (same config loader and composition root), with a
    // long release-list TTL so only the query's own statements are counted; no per-IP limit
    // (in-process requests have no address) and the coding engine inline (one request at a time).
    const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', NLP_WORKERS: '0' });
    const composed = compose(config, db, createLogger(config.logLevel), { catalogTtlMs: 600_000 });
    closeServices = () => composed.close();
    const { fetch } = createApp(composed.services, composed.appOptions);
    const gql = async (query: string, variables: Record<string, unknown>) => {
      const res = await fetch(
        new Request('http://bench/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ query, variables }),
        }),
      );
      const text = await res.text();
      if (res.status !== 200) throw new Error(`GraphQL answered ${res.status}: ${text.slice(0, 300)}`);
      const body = JSON.parse(text) as { data?: { code: TreeNode }; errors?: unknown };
      if (body.errors) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors).slice(0, 300)}`);
      return { body, bytes: Buffer.byteLength(text) };
    };
    await gql('{ versions(first: 5) { totalCount } }', {}); // warm the release list
    const vars = { code: largestSoc.code, version: input.to };
    counting = true;
    const t0 = performance.now();
    const first = await gql(SUBTREE_QUERY, vars);
    const firstMs = performance.now() - t0;
    counting = false;
    const statements = [...sql];
    const inProcessMs = [Math.round(firstMs)];
    for (let i = 0; i < 2; i++) {
      const t = performance.now();
      await gql(SUBTREE_QUERY, vars);
      inProcessMs.push(Math.round(performance.now() - t));
    }
    const subtree = { statements: statements.length, sql: statements.map((s) => s.replace(/\s+/g, ' ').slice(0, 160)), nodes: countNodes(first.body.data!.code), bytes: first.bytes, inProcessMs };

    let changeSet: InProcessResult['changeSet'];
    if (!input.skipChanges) {
      // As bench/changes.ts: baseline = reading every concept row of both releases.
      const tb = performance.now();
      await db.prisma.$queryRawUnsafe('SELECT * FROM concept_at($1) UNION ALL SELECT * FROM concept_at($2)', from!.id, to!.id);
      const baselineReadMs = performance.now() - tb;
      await db.prisma.changeSet.deleteMany({ where: { fromReleaseId: from!.id, toReleaseId: to!.id } });
      await db.prisma.releaseChange.deleteMany({ where: { fromReleaseId: from!.id, toReleaseId: to!.id } });
      const tc = performance.now();
      const counts = await ensureChangeSet(db.prisma, from!, to!);
      changeSet = { computeMs: Math.round(performance.now() - tc), baselineReadMs: Math.round(baselineReadMs), counts };
    }

    const { key } = await createApiKey(db.prisma, 'bench');

    let classify: InProcessResult['classify'];
    if (input.narrative) {
      const post = async () => {
        const res = await fetch(
          new Request('http://bench/classify', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': key },
            body: JSON.stringify({ description: input.narrative, version: input.to }),
          }),
        );
        const text = await res.text();
        if (res.status !== 200) throw new Error(`POST /classify answered ${res.status}: ${text.slice(0, 300)}`);
      };
      await post(); // builds the release's vocabulary
      sql.length = 0;
      counting = true;
      await post();
      counting = false;
      classify = { statements: sql.length, sql: sql.map((s) => s.replace(/\s+/g, ' ').slice(0, 160)) };
    }
    return { apiKey: key, largestSoc, subtree, changeSet, classify };
  } finally {
    await closeServices?.();
    await db.close();
  }
}

const arg = process.argv[2];
if (arg) {
  main(JSON.parse(arg) as InProcessInput).then(
    (r) => {
      process.stdout.write(`RESULT ${JSON.stringify(r)}\n`);
    },
    (e: unknown) => {
      process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
