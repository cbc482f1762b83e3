// Changes between releases far apart (issue 32): over a chain of generated releases, the first
// → last change set computed from the two releases' in-memory indexes (indexDiff.ts) equals the
// SQL engine's (engine.ts, the reference) for every pair; a pair computed on demand answers its
// pages from memory (listing.ts) exactly as listChanges() answers them from the stored rows once
// they are written in the background; and the memory says what it holds. On PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { importRelease } from '../../src/importer/import.ts';
import { generateRelease, writeMedAscii, type SyntheticRelease } from '../../tools/synthetic/generate.ts';
import { computeChanges, diffReleases } from '../../src/domain/changes/engine.ts';
import { computeChangesFromIndexes, diffIndexes, diffOverBase, sharedBase } from '../../src/domain/changes/indexDiff.ts';
import { ReleaseIndex } from '../../src/domain/releaseIndex/releaseIndex.ts';
import { ensureChangeSet, listChanges, type ChangeFilters } from '../../src/domain/changes/store.ts';
import { ChangeListing, inJsonbOrder } from '../../src/domain/changes/listing.ts';
import { pageFromMemory } from '../../src/domain/changes/pages.ts';
import { ChangeSetMemory } from '../../src/domain/changes/memory.ts';
import { SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { memoryGauges, type MemoryGauge } from '../../src/observability/signals.ts';

let db: TestDatabase;
let releases: { id: number; version: string }[] = [];
const queries: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ template: 'migrated', onQuery: (sql) => queries.push(sql) });
  const dir = mkdtempSync(path.join(tmpdir(), 'chain-'));
  let prev: SyntheticRelease | undefined;
  for (const version of ['84.0', '84.1', '84.2', '84.3']) {
    const r = generateRelease({ seed: 7, version, scale: 0.02, withSmq: false, changesFrom: prev });
    await writeMedAscii(r, path.join(dir, version));
    const { releaseId } = await importRelease(db, path.join(dir, version));
    releases.push({ id: releaseId, version });
    prev = r;
  }
}, 240_000);

afterAll(async () => {
  await db?.cleanup();
});

const json = (v: unknown) => JSON.stringify(v);

describe('changes between any two releases, from the release indexes', () => {
  it('equal the SQL engine\'s rows and records for every pair of the chain, neighbours or not', async () => {
    const indexes = new SearchIndexCache(4, db.prisma);
    let farthest = 0;
    for (let i = 0; i < releases.length; i++) {
      for (let j = i + 1; j < releases.length; j++) {
        const [from, to] = [releases[i]!, releases[j]!];
        const [a, b] = await Promise.all([indexes.get(from.id, db.prisma), indexes.get(to.id, db.prisma)]);
        expect(json(await diffIndexes(a, b)), `${from.version} → ${to.version}`).toBe(json(await diffReleases(db.prisma, from.id, to.id)));
        const records = await computeChangesFromIndexes({ version: from.version, index: a }, { version: to.version, index: b });
        expect(json(records), `${from.version} → ${to.version}`).toBe(json(await computeChanges(db.prisma, from, to)));
        if (j - i === 3) farthest = records.length;
      }
    }
    // First → last differs by more than any neighbour pair: the chain really moves.
    expect(farthest).toBeGreaterThan(100);
    expect(new Set((await computeChanges(db.prisma, releases[0]!, releases[3]!)).map((r) => r.metadata.kinds[0])).size).toBeGreaterThan(3);
  });

  it('answers first → last from memory at once, then the same pages as the stored rows written in the background', async () => {
    const [first, last] = [releases[0]!, releases[3]!];
    const memory = new ChangeSetMemory();
    const indexes = new SearchIndexCache(4, db.prisma);
    indexes.sqlFallbacks = 'each'; // as on PostgreSQL (compose.ts): a missing index is not loaded for a diff
    queries.length = 0;
    const page = await pageFromMemory(db.prisma, memory, first, last, {}, 0, 20, indexes);
    expect(page).not.toBeNull();
    // Neither index was in memory: the diff read the rows with a range boundary between the two
    // (rangedDiff.ts), no statement over a whole release, and loaded no index for it.
    expect(queries.filter((q) => /FULL JOIN/.test(q) && /_at\(/.test(q))).toEqual([]);
    expect(indexes.peek(first.id) ?? indexes.peek(last.id)).toBeUndefined();
    const counts = await ensureChangeSet(db.prisma, first, last, indexes); // waits for the background store
    expect(counts).toEqual(page!.counts);
    expect(memory.peekListing(first.id, last.id)).toBeDefined();
    expect(memory.bytes()).toBeGreaterThan(0);
    const filters: ChangeFilters[] = [{}, { level: 'PT' }, { level: 'LLT' }, { changeType: 'added' }, { changeType: 'retired' }, { level: 'LLT', changeType: 'updated' }, { level: 'SOC' }];
    for (const f of filters) {
      for (const [offset, limit] of [[0, 20], [7, 13], [counts.added + counts.updated - 3, 50], [10_000, 5]] as const) {
        const mem = await pageFromMemory(db.prisma, memory, first, last, f, offset, limit, indexes);
        expect(json(mem), `${json(f)} ${offset}`).toBe(json(await listChanges(db.prisma, first.id, last.id, f, offset, limit)));
      }
    }
    // A hierarchy filter is answered by SQL over the stored rows.
    expect(await pageFromMemory(db.prisma, memory, first, last, { soc: 1 }, 0, 10, indexes)).toBeNull();
    // The stored rows are the reference engine's records.
    const stored = await db.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM release_change WHERE from_release_id = $1 AND to_release_id = $2`, first.id, last.id);
    expect(stored[0]!.n).toBe((await computeChanges(db.prisma, first, last)).length);
  });

  it('a pair already stored is read from the store, not recomputed; a stored pair with no listing is not listed from memory', async () => {
    const memory = new ChangeSetMemory();
    const [from, to] = [releases[1]!, releases[2]!]; // neighbours: stored at import
    queries.length = 0;
    expect(await pageFromMemory(db.prisma, memory, from, to, {}, 0, 10, new SearchIndexCache(2, db.prisma))).toBeNull();
    expect(queries.filter((q) => /release_change|FROM concept/.test(q))).toEqual([]);
    expect(memory.isStored(from.id, to.id)).toBe(true);
    queries.length = 0;
    expect(await pageFromMemory(db.prisma, memory, from, to, {}, 0, 10)).toBeNull();
    expect(queries).toEqual([]); // remembered
  });

  it('a store stopped half way (rows, no change_set row) is completed by the next computation, the rows already there kept', async () => {
    const [from, to] = [releases[1]!, releases[3]!];
    const reference = await computeChanges(db.prisma, from, to);
    // Half of the rows, as a process stopped before its last statements (and its change_set row) would leave them.
    const half = reference.slice(0, Math.floor(reference.length / 2));
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO release_change (from_release_id, to_release_id, level, code, change_type, term, details, previous_term, metadata)
       SELECT $1, $2, x.level::"Level", x.code, x.change_type::"ChangeType", x.term, x.details, x.previous_term, x.metadata
       FROM json_to_recordset($3::json) AS x(level text, code int, change_type text, term text, details text, previous_term text, metadata jsonb)`,
      from.id, to.id, JSON.stringify(half.map((r) => ({ level: r.level, code: r.code, change_type: r.changeType, term: r.term, details: r.details, previous_term: r.previousTerm, metadata: r.metadata }))),
    );
    // Not stored: nothing reads those rows as a change set.
    expect(await db.prisma.changeSet.findUnique({ where: { fromReleaseId_toReleaseId: { fromReleaseId: from.id, toReleaseId: to.id } } })).toBeNull();
    const counts = await ensureChangeSet(db.prisma, from, to, new SearchIndexCache(4, db.prisma));
    expect(counts.added + counts.updated + counts.retired).toBe(reference.length);
    const all = await listChanges(db.prisma, from.id, to.id, {}, 0, 10_000);
    expect(all.total).toBe(reference.length);
    expect(all.items.map((r) => `${r.level}:${r.code}`).sort()).toEqual(reference.map((r) => `${r.level}:${r.code}`).sort());
  });

  it('keeps listings within its byte share: one larger than the share is answered but not kept', async () => {
    const [from, to] = [releases[0]!, releases[2]!];
    const records = await computeChanges(db.prisma, from, to);
    const listing = await ChangeListing.of(db.prisma, records);
    expect(listing.size).toBe(records.length);
    expect(listing.bytes).toBeGreaterThan(records.length * 200);
    const tiny = new ChangeSetMemory(8, Math.floor(listing.bytes / 2));
    await tiny.listing(from.id, to.id, async () => listing);
    expect(tiny.peekListing(from.id, to.id)).toBeUndefined();
    expect(tiny.bytes()).toBe(0);
    const roomy = ChangeSetMemory.forApp(listing.bytes * 3);
    await roomy.listing(from.id, to.id, async () => listing);
    expect(roomy.peekListing(from.id, to.id)).toBe(listing);
    expect(roomy.bytes()).toBe(listing.bytes);
    // The app's change-set memory is one of the budget's gauges (memory_cache_bytes{cache="changeSets"}).
    const gauge = (memoryGauges as Record<string, MemoryGauge | undefined>).changeSets;
    expect(gauge?.budget).toBe(listing.bytes * 3);
    expect(gauge?.bytes()).toBe(listing.bytes);
  });

  it('holds a listing larger than the share until its rows are stored (pages until then are slices), then lets it go', async () => {
    const [from, to] = [releases[0]!, releases[2]!];
    const listing = await ChangeListing.of(db.prisma, await computeChanges(db.prisma, from, to));
    const tiny = new ChangeSetMemory(8, Math.floor(listing.bytes / 2));
    let stored!: () => void;
    const storing = new Promise<void>((resolve) => (stored = resolve));
    await tiny.listing(from.id, to.id, async () => listing, storing);
    expect(tiny.peekListing(from.id, to.id)).toBe(listing);
    expect(tiny.bytes()).toBe(listing.bytes);
    // Asked again while the rows are being stored: the same listing, not built again.
    let builtAgain = false;
    expect(await tiny.listing(from.id, to.id, async () => ((builtAgain = true), listing), storing)).toBe(listing);
    expect(builtAgain).toBe(false);
    stored();
    await storing;
    await new Promise((r) => setImmediate(r));
    expect(tiny.peekListing(from.id, to.id)).toBeUndefined();
    expect(tiny.bytes()).toBe(0);
  });

  it('diffs from the indexes when both releases\' are in memory, with no statement over concepts', async () => {
    const [first, last] = [releases[0]!, releases[3]!];
    const indexes = new SearchIndexCache(4, db.prisma);
    await Promise.all([indexes.get(first.id, db.prisma), indexes.get(last.id, db.prisma)]);
    await db.prisma.changeSet.deleteMany({ where: { fromReleaseId: first.id, toReleaseId: last.id } });
    await db.prisma.releaseChange.deleteMany({ where: { fromReleaseId: first.id, toReleaseId: last.id } });
    queries.length = 0;
    const page = await pageFromMemory(db.prisma, new ChangeSetMemory(), first, last, {}, 0, 20, indexes);
    await ensureChangeSet(db.prisma, first, last, indexes);
    expect(queries.filter((q) => /FULL JOIN|FROM concept/.test(q))).toEqual([]);
    expect(json(page)).toBe(json(await listChanges(db.prisma, first.id, last.id, {}, 0, 20)));
  });

  it('compares releases read through views over the newest\'s index only where they differ from it: the engine\'s rows for every pair', async () => {
    const newest = releases.at(-1)!;
    const indexes = new SearchIndexCache(4, undefined, db.blobs);
    indexes.waitMs = 60_000; // a loaded host: a view's read is not cut short
    const base = await indexes.get(newest.id, db.prisma);
    const sideOf = async (r: { id: number }) => (r.id === newest.id ? base : (await indexes.view(r.id, db.prisma))!);
    for (let i = 0; i < releases.length; i++) {
      for (let j = i + 1; j < releases.length; j++) {
        const [from, to] = [releases[i]!, releases[j]!];
        const [a, b] = [await sideOf(from), await sideOf(to)];
        expect(sharedBase(a, b), `${from.version} → ${to.version}`).toBe(base);
        // Both ways: a later release against an earlier one reads retirements as additions.
        expect(json(await diffOverBase(a, b)), `${from.version} → ${to.version}`).toBe(json(await diffReleases(db.prisma, from.id, to.id)));
        expect(json(await diffOverBase(b, a)), `${to.version} → ${from.version}`).toBe(json(await diffReleases(db.prisma, to.id, from.id)));
        const records = await computeChangesFromIndexes({ version: from.version, index: a }, { version: to.version, index: b });
        expect(json(records), `${from.version} → ${to.version}`).toBe(json(await computeChanges(db.prisma, from, to)));
      }
    }
    // Work in proportion to the differences: the oldest's view lists a share of the release's entries.
    const oldest = (await indexes.view(releases[0]!.id, db.prisma))!;
    expect(oldest.differingEntries().length).toBeLessThan(base.size / 2);
    expect(indexes.peek(releases[0]!.id), 'no older release\'s index was loaded').toBeUndefined();
    // Two views over different indexes, or two whole indexes, are not "one base".
    const whole = await ReleaseIndex.load(db.prisma, releases[0]!.id);
    expect(sharedBase(whole, base)).toBeUndefined();
    expect(sharedBase(whole, oldest)).toBeUndefined();
  });

  it('answers first → last through the views when the newest\'s index is in memory, as after a start: no release read whole, no index loaded', async () => {
    const [first, last] = [releases[0]!, releases[3]!];
    await db.prisma.changeSet.deleteMany({ where: { fromReleaseId: first.id, toReleaseId: last.id } });
    await db.prisma.releaseChange.deleteMany({ where: { fromReleaseId: first.id, toReleaseId: last.id } });
    for (const fallbacks of ['one', 'each'] as const) {
      const indexes = new SearchIndexCache(4, undefined, db.blobs);
      indexes.sqlFallbacks = fallbacks;
      indexes.waitMs = 60_000;
      await indexes.get(last.id, db.prisma);
      queries.length = 0;
      const page = await pageFromMemory(db.prisma, new ChangeSetMemory(), first, last, {}, 0, 20, indexes);
      expect(page, fallbacks).not.toBeNull();
      // Neither the ranged read (rangedDiff.ts: `_at(` lookups) nor a statement over a release's concepts; one delta row read.
      expect(queries.filter((q) => /FULL JOIN|FROM concept|_at\(/.test(q)), fallbacks).toEqual([]);
      expect(indexes.peek(first.id), fallbacks).toBeUndefined();
      expect(indexes.peekView(first.id), fallbacks).toBeDefined();
      await ensureChangeSet(db.prisma, first, last, indexes);
      expect(json(page), fallbacks).toBe(json(await listChanges(db.prisma, first.id, last.id, {}, 0, 20)));
      await db.prisma.changeSet.deleteMany({ where: { fromReleaseId: first.id, toReleaseId: last.id } });
      await db.prisma.releaseChange.deleteMany({ where: { fromReleaseId: first.id, toReleaseId: last.id } });
    }
  });

  it('orders metadata keys as jsonb returns them', async () => {
    const value = { kinds: ['renamed'], before: { term: 'a', ptCode: '1', status: 'x', parents: ['2'] }, after: { é: 1, z: 2, ab: 3 } };
    const [row] = await db.prisma.$queryRawUnsafe<{ v: unknown }[]>(`SELECT $1::jsonb AS v`, JSON.stringify(value));
    expect(json(inJsonbOrder(value))).toBe(json(row!.v));
  });
});
