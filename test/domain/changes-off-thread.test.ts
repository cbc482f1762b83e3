// A change set computed on demand from the boundary rows runs on the changes worker (offThread.ts,
// issue 32: a far pair held the serving thread's event loop for 0.25–0.87 s at a time): its pages
// and its stored rows are those of the records computed in the thread, byte for byte, whether it
// was computed for a page (listing order, encoded) or only to be stored; and on PostgreSQL, where
// the server takes this path, other requests are answered while a far pair is being computed.
// On PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { usingPostgres } from '../helpers/db.ts';
import { generateRelease, writeMedAscii, type SyntheticRelease } from '../../tools/synthetic/generate.ts';
import { computeChangesFromRanges } from '../../src/domain/changes/rangedDiff.ts';
import { changeComputation, ensureChangeSet, listChanges, storeHooks, type ChangeFilters } from '../../src/domain/changes/store.ts';
import { ChangeListing } from '../../src/domain/changes/listing.ts';
import { pageFromMemory } from '../../src/domain/changes/pages.ts';
import { ChangeSetMemory } from '../../src/domain/changes/memory.ts';
import { offThreadHooks, offThreadStats } from '../../src/domain/changes/offThread.ts';
import { turnsWhile } from '../helpers/turns.ts';

let t: TestApp;
let releases: { id: number; version: string }[] = [];

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'off-thread-'));
  const dirs: string[] = [];
  let prev: SyntheticRelease | undefined;
  for (const version of ['87.0', '87.1', '87.2', '87.3']) {
    const r = generateRelease({ seed: 21, version, scale: 0.02, changesFrom: prev });
    await writeMedAscii(r, path.join(dir, version));
    dirs.push(path.join(dir, version));
    prev = r;
  }
  t = await createTestApp({ dirs });
  releases = (await t.db.prisma.release.findMany({ orderBy: { ordinal: 'asc' } })).map((r) => ({ id: r.id, version: r.version }));
}, 300_000);

afterAll(async () => {
  await t?.cleanup();
});

const json = (v: unknown) => JSON.stringify(v);
const FILTERS: ChangeFilters[] = [{}, { level: 'PT' }, { level: 'LLT' }, { changeType: 'added' }, { changeType: 'retired' }, { level: 'LLT', changeType: 'updated' }, { level: 'SOC' }];

describe('change sets computed off the serving thread', () => {
  it('lists a pair asked for a page from the worker: every page and the stored rows as the records computed in the thread', async () => {
    const prisma = t.db.prisma;
    const [from, to] = [releases[0]!, releases[2]!];
    const reference = await ChangeListing.of(prisma, await computeChangesFromRanges(prisma, from, to));
    const before = { ...offThreadStats };
    const memory = new ChangeSetMemory();
    const first = await pageFromMemory(prisma, memory, from, to, {}, 0, 20);
    expect(offThreadStats.worker).toBe(before.worker + 1);
    expect(offThreadStats.inThread).toBe(before.inThread);
    expect(json(first)).toBe(json(reference.page({}, 0, 20)));
    const all = reference.page({}, 0, 1_000_000);
    expect(all.items.length).toBeGreaterThan(100);
    for (const f of FILTERS) {
      for (const [offset, limit] of [[0, 20], [7, 13], [all.counts.added - 3, 50], [10_000, 5]] as const) {
        expect(json(await pageFromMemory(prisma, memory, from, to, f, offset, limit)), `${json(f)} ${offset}`).toBe(json(reference.page(f, offset, limit)));
      }
    }
    await ensureChangeSet(prisma, from, to);
    // The rows stored from the worker's text: the whole set as the thread's listing, read back by SQL.
    expect(json(await listChanges(prisma, from.id, to.id, {}, 0, 1_000_000))).toBe(json(all));
  });

  it('stores a pair computed only to be stored (level, then code: no listing order) as the thread would', async () => {
    const prisma = t.db.prisma;
    const [from, to] = [releases[1]!, releases[3]!];
    const reference = (await ChangeListing.of(prisma, await computeChangesFromRanges(prisma, from, to))).page({}, 0, 1_000_000);
    const c = (await changeComputation(prisma, from, to))!;
    const computed = await c.computed;
    expect(computed.encoded?.start).toBeNull();
    expect(computed.records).toBeUndefined();
    expect(computed.counts).toEqual(reference.counts);
    await c.stored;
    expect(json(await listChanges(prisma, from.id, to.id, {}, 0, 1_000_000))).toBe(json(reference));
  });

  it('stores a computed pair in short statements with a turn of the event loop for others between them', async () => {
    const prisma = t.db.prisma;
    // Newest to oldest: no other test of the file stores this pair.
    const [from, to] = [releases[3]!, releases[0]!];
    // Statements of 50 rows (the product's 1,000 at this scale would be one).
    storeHooks.chunk = 50;
    const c = (await changeComputation(prisma, from, to))!;
    const { size } = await c.computed;
    // Turns of the loop while the rows are written: PGlite answers a statement in promise
    // callbacks, so a loop of awaited statements alone let none run (issue 32: 12–19 s at full size).
    let turns: number;
    try {
      ({ turns } = await turnsWhile(c.stored));
    } finally {
      storeHooks.chunk = 1_000;
    }
    const statements = Math.ceil(size / 50);
    expect(statements, 'the pair is written in several statements').toBeGreaterThanOrEqual(3);
    expect(turns).toBeGreaterThanOrEqual(statements - 1);
    // Stored whole: the rows read back are the pair's.
    expect((await listChanges(prisma, from.id, to.id, {}, 0, 1)).total).toBe(size);
  });

  // The server computes a far pair this way on PostgreSQL (compose.ts: sqlFallbacks 'each'); on the
  // embedded store it compares the releases' indexes in the thread.
  it.runIf(usingPostgres)('answers other requests while a far pair is being computed on the worker', async () => {
    const [from, to] = [releases[0]!, releases[3]!];
    let held: (() => void) | undefined;
    const holding = new Promise<void>((resolve) => {
      offThreadHooks.statement = (sql) => {
        // The worker's first boundary step: held until the other requests are answered.
        if (!held && /valid_to > \$1::bigint/.test(sql)) return new Promise<void>((go) => ((held = go), resolve()));
      };
    });
    try {
      const before = offThreadStats.worker;
      let done = false;
      const far = t.request(`/versions/${to.version}/changes?fromVersionId=${from.version}&limit=5`).then((r) => ((done = true), r));
      await holding;
      for (const p of ['/health/live', '/versions', `/versions/${to.version}/changes?limit=3`]) {
        const r = await t.request(p);
        expect(r.status, p).toBe(200);
      }
      expect(done).toBe(false);
      held!();
      const res = await far;
      expect(res.status).toBe(200);
      expect(offThreadStats.worker).toBe(before + 1);
      const body = await res.json();
      await ensureChangeSet(t.db.prisma, from, to);
      // The page from the worker's listing is the stored rows' page.
      const again = await (await t.request(`/versions/${to.version}/changes?fromVersionId=${from.version}&limit=5`)).json();
      expect(json(body)).toBe(json(again));
    } finally {
      offThreadHooks.statement = undefined;
      held?.();
    }
  });
});
