// The first requests after a start arrive while the latest release's index is being read
// from its snapshot: hierarchy lookups wait for that read (bounded by the cache's waitMs, INDEX_WAIT_MS)
// and answer from the index with no hierarchy SQL; a read that stalls, or an index being
// built from rows, is not waited for beyond the bound: SQL answers, with the same bytes.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import type { BlobChannel } from '../../src/db/blobs.ts';
import { TEST_ENV } from '../helpers/app.ts';
import { importRelease } from '../../src/importer/import.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { compose } from '../../src/compose.ts';
import { createApp } from '../../src/http/app.ts';
import { INDEX_WAIT_MS } from '../../src/domain/releaseIndex/indexCache.ts';
import { generateRelease, writeMedAscii } from '../../tools/synthetic/generate.ts';

const SUBTREE = `query($code: String!) {
  code(code: $code, version: "81.0") { code term
    children { relationshipType isPrimary code { code term level
      children { relationshipType code { code term level
        children { isPrimary code { code term level status
          children { code { code term status isPrimary } } } } } } } } } }`;

let db: TestDatabase;
const queries: string[] = [];
let releaseId: number;
let wideSoc: string;
let viaSql: string;
const closers: (() => Promise<void>)[] = [];

/**
 * A product of its own over the shared database: a new catalog, so no index is loaded yet.
 * `blobs`: the database's binary channel as the catalog gets it (by default the database's own).
 */
async function freshApp(blobs: BlobChannel = db.blobs) {
  const config = loadConfig(TEST_ENV);
  const composed = compose(config, { ...db, blobs }, createLogger('silent'), { catalogTtlMs: 600_000 });
  closers.push(composed.close);
  const app = createApp(composed.services, { ...composed.appOptions, responseCache: false, graphql: { ...composed.appOptions.graphql, resultCache: false } });
  const subtree = async () => {
    const res = await app.fetch(
      new Request('http://test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query: SUBTREE, variables: { code: wideSoc } }),
      }),
    );
    return res.text();
  };
  // The release list is read once here, so the statements counted below are the request's own.
  await composed.services.catalog.releases();
  return { indexes: composed.services.catalog.searchIndexes, subtree };
}

/**
 * The database, except that statements matching `held` wait for `open()`: through Prisma, and
 * through the binary channel (where the snapshot read goes; counted in `queries`).
 */
function gated(held: RegExp) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const read = {
    $queryRawUnsafe: (async (sql: string, ...args: unknown[]) => {
      if (held.test(sql)) await opened;
      return db.prisma.$queryRawUnsafe(sql, ...args);
    }) as TestDatabase['prisma']['$queryRawUnsafe'],
  };
  const blobs: BlobChannel = {
    copyOut: async (sql) => {
      if (held.test(sql)) await opened;
      queries.push(sql);
      return db.blobs.copyOut(sql);
    },
    copyIn: (steps, data) => db.blobs.copyIn(steps, data),
  };
  return { read, open, blobs };
}

const hierarchySql = () => queries.filter((q) => !/release_index_snapshot/.test(q));

async function until(check: () => boolean) {
  for (let i = 0; i < 2_000 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'syn-'));
  await writeMedAscii(generateRelease({ seed: 11, version: '81.0', scale: 0.02, withSmq: false }), path.join(dir, '81.0'));
  db = await createTestDatabase({ onQuery: (sql) => queries.push(sql) });
  await importRelease(db, path.join(dir, '81.0')); // writes the release's index snapshot
  const [r] = await db.prisma.$queryRawUnsafe<{ id: number }[]>(`SELECT id FROM release WHERE version = '81.0'`);
  releaseId = r!.id;
  const socs = (await db.prisma.$queryRawUnsafe<{ c: number }[]>(`SELECT p.soc_code AS c FROM release r, hierarchy_path_at(r.id) p WHERE r.version = '81.0' GROUP BY p.soc_code ORDER BY count(*) DESC LIMIT 1`));
  wideSoc = String(socs[0]!.c);
  // Nothing loading: the SQL path, as before.
  const { subtree } = await freshApp();
  queries.length = 0;
  viaSql = await subtree();
  expect(JSON.parse(viaSql).errors).toBeUndefined();
  expect(hierarchySql().length).toBeGreaterThan(0);
}, 180_000);

afterAll(async () => {
  for (const close of closers) await close();
  await db?.cleanup();
});

describe('hierarchy lookups while the index is read from its snapshot', () => {
  it('wait for the read and answer from the index, with no hierarchy SQL', async () => {
    const snapshot = gated(/release_index_snapshot/);
    const { indexes, subtree } = await freshApp(snapshot.blobs);
    // The request must reach the loaders while the read is in flight and within the wait: a
    // request's way there (parse, validate) alone can take longer than INDEX_WAIT_MS here.
    indexes.waitMs = 30_000;
    const waits = vi.spyOn(indexes, 'whenLoading');
    const loading = indexes.loadSnapshot(releaseId, snapshot.read);
    queries.length = 0;
    const answer = subtree();
    // The request reached the loaders and waits: not one statement while the read is held.
    await until(() => waits.mock.results.some((r) => r.value instanceof Promise));
    expect(hierarchySql()).toEqual([]);
    snapshot.open();
    expect(await answer).toBe(viaSql);
    expect(await loading).toBeDefined();
    expect(hierarchySql()).toEqual([]);
    expect(queries.filter((q) => /release_index_snapshot/.test(q))).toHaveLength(1);
  });

  it('wait for a read that does not settle at most INDEX_WAIT_MS after it started, then answer by SQL', async () => {
    const snapshot = gated(/release_index_snapshot/);
    const { indexes, subtree } = await freshApp(snapshot.blobs);
    try {
      void indexes.loadSnapshot(releaseId, snapshot.read);
      queries.length = 0;
      const t0 = performance.now();
      expect(await subtree()).toBe(viaSql);
      expect(performance.now() - t0).toBeLessThan(INDEX_WAIT_MS + 20_000);
      expect(hierarchySql().length).toBeGreaterThan(0);
      expect(indexes.peek(releaseId)).toBeUndefined();
      // Past the deadline, the next request does not wait at all: the read is still held.
      expect(indexes.whenLoading(releaseId, INDEX_WAIT_MS)).toBeUndefined();
      queries.length = 0;
      expect(await subtree()).toBe(viaSql);
      expect(hierarchySql().length).toBeGreaterThan(0);
    } finally {
      snapshot.open();
    }
  }, 60_000);

  it('do not wait for an index being built from rows', async () => {
    // No snapshot to read (the channel's read finds no row); the build's statements are held
    // until the end.
    const { indexes, subtree } = await freshApp({ copyOut: () => db.blobs.copyOut('SELECT NULL::bytea WHERE false'), copyIn: (steps, data) => db.blobs.copyIn(steps, data) });
    const build = gated(/./);
    const read = {
      $queryRawUnsafe: (async (sql: string, ...args: unknown[]) =>
        /release_index_snapshot/.test(sql) ? [] : build.read.$queryRawUnsafe(sql, ...args)) as TestDatabase['prisma']['$queryRawUnsafe'],
    };
    const building = indexes.get(releaseId, read);
    try {
      queries.length = 0;
      expect(await subtree()).toBe(viaSql);
      expect(hierarchySql().length).toBeGreaterThan(0);
      expect(indexes.whenLoading(releaseId, INDEX_WAIT_MS)).toBeUndefined();
    } finally {
      build.open();
      await building;
    }
  }, 60_000);
});
