// A far pair read through two bases in memory (issue 32, helper farpair): after a start on a store
// with an older snapshot group, the oldest release's view is over its group's keyframe (kept as the
// base of its views) and the newest's index is whole, so the two share no base. They are compared
// where either view differs from its base or the two bases differ (indexDiff.ts twoBases()), with
// the SQL engine's rows and records for every pair and both directions, and a far pair's page is
// answered that way on the embedded store (no ranged read, no worker, no index loaded for it); on
// PostgreSQL the worker's ranged read stays (measured at full size: bench/results.md, farpair).
// PGlite and PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSyntheticChain } from '../helpers/syntheticChain.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import type { ReleaseInfo } from '../../src/domain/releases.ts';
import { computeChanges, diffReleases } from '../../src/domain/changes/engine.ts';
import { computeChangesFromIndexes, diffOverBase, sharedBase, twoBases, type DiffIndex } from '../../src/domain/changes/indexDiff.ts';
import { ensureChangeSet, listChanges } from '../../src/domain/changes/store.ts';
import { pageFromMemory } from '../../src/domain/changes/pages.ts';
import { ChangeSetMemory } from '../../src/domain/changes/memory.ts';
import { offThreadStats } from '../../src/domain/changes/offThread.ts';

let db: TestDatabase;
let dir: string;
const queries: string[] = [];
/** Oldest first: 96.0 and 96.1 deltas over 96.2 (an older keyframe), 96.3 over the newest 96.4. */
let list: { id: number; version: string }[];

beforeAll(async () => {
  db = await createTestDatabase({ onQuery: (sql) => void queries.push(sql) });
  dir = mkdtempSync(path.join(tmpdir(), 'two-bases-'));
  await importSyntheticChain(db, dir, ['96.0', '96.1', '96.2', '96.3', '96.4'], { seed: 23, scale: 0.02, keyframeEvery: 3 });
  list = await db.prisma.$queryRawUnsafe<{ id: number; version: string }[]>('SELECT id, version FROM release ORDER BY ordinal');
}, 300_000);

afterAll(async () => {
  await db?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const json = (v: unknown) => JSON.stringify(v);

/** A cache as after a start: the newest's index, told which release is the newest. */
async function started(): Promise<SearchIndexCache> {
  const cache = new SearchIndexCache(4, undefined, db.blobs);
  cache.sync([...list].reverse().map((r) => ({ id: r.id, version: r.version, languages: [] }) as unknown as ReleaseInfo));
  cache.waitMs = 60_000; // a loaded host: a view's read is not cut short
  await cache.get(list.at(-1)!.id, db.prisma);
  return cache;
}

describe('changes through two bases in memory', () => {
  it('equal the SQL engine\'s rows and records for every pair read through different bases, both ways', async () => {
    const cache = await started();
    const [k, newest] = [list[2]!, list[4]!];
    const sides = new Map<number, DiffIndex>();
    for (const r of list) sides.set(r.id, r.id === newest.id ? cache.peek(r.id)! : r.id === k.id ? undefined! : (await cache.view(r.id, db.prisma))!);
    // The keyframe, loaded as its group's base by its views: read as its whole index.
    sides.set(k.id, cache.peek(k.id)!);
    expect(sides.get(list[0]!.id)!.constructor.name).toBe('OverlayView');
    let bridged = 0;
    for (const from of list) {
      for (const to of list) {
        if (from.id === to.id) continue;
        const [a, b] = [sides.get(from.id)!, sides.get(to.id)!];
        if (sharedBase(a, b) || !twoBases(a, b)) continue;
        bridged++;
        const label = `${from.version} → ${to.version}`;
        expect(json(await diffOverBase(a, b)), label).toBe(json(await diffReleases(db.prisma, from.id, to.id)));
        const records = await computeChangesFromIndexes({ version: from.version, index: a }, { version: to.version, index: b });
        expect(json(records), label).toBe(json(await computeChanges(db.prisma, from, to)));
      }
    }
    // 96.0 and 96.1 (over 96.2) against 96.3 (over 96.4) and 96.4, both ways; 96.2 against 96.3, both ways.
    expect(bridged).toBe(10);
  }, 120_000);

  it('answers first → last through both bases on the embedded store (no ranged read, no worker), by the ranged read on PostgreSQL: the stored rows\' pages', async () => {
    const [first, last] = [list[0]!, list[4]!];
    for (const fallbacks of ['one', 'each'] as const) {
      await db.prisma.changeSet.deleteMany({ where: { fromReleaseId: first.id, toReleaseId: last.id } });
      await db.prisma.releaseChange.deleteMany({ where: { fromReleaseId: first.id, toReleaseId: last.id } });
      const cache = await started();
      cache.sqlFallbacks = fallbacks;
      // The oldest's view made (as a code page on it after a start does): its keyframe loaded as the group's base.
      await cache.view(first.id, db.prisma);
      expect(cache.peek(list[2]!.id)).toBeDefined();
      const worker = offThreadStats.worker + offThreadStats.inThread;
      queries.length = 0;
      const page = await pageFromMemory(db.prisma, new ChangeSetMemory(), first, last, {}, 0, 20, cache);
      expect(page, fallbacks).not.toBeNull();
      if (fallbacks === 'one') {
        expect(queries.filter((q) => /FULL JOIN|FROM concept|_at\(/.test(q)), fallbacks).toEqual([]);
        expect(offThreadStats.worker + offThreadStats.inThread, 'not the ranged read').toBe(worker);
      } else {
        // On PostgreSQL the ranged read, on the changes worker (measured cheaper for the serving thread at full size).
        expect(offThreadStats.worker + offThreadStats.inThread, 'the ranged read').toBe(worker + 1);
      }
      expect(cache.peek(first.id), 'the oldest\'s own index not loaded').toBeUndefined();
      await ensureChangeSet(db.prisma, first, last, cache);
      for (const [offset, limit] of [[0, 20], [20, 50], [137, 9]] as const) {
        const p = await pageFromMemory(db.prisma, new ChangeSetMemory(), first, last, {}, offset, limit, cache);
        expect(json(p ?? (await listChanges(db.prisma, first.id, last.id, {}, offset, limit))), `${fallbacks} ${offset}`).toBe(json(await listChanges(db.prisma, first.id, last.id, {}, offset, limit)));
      }
      expect(json(page), fallbacks).toBe(json(await listChanges(db.prisma, first.id, last.id, {}, 0, 20)));
    }
  }, 120_000);
});
