// The coding engine's vocabulary source read from a release's built index (issue 27 defect 5:
// the store's statement of every PT and LLT ran on the serving thread, seconds at full size)
// is the very source the store gives: same terms in the same order, same grades — so the
// engine's answers do not change with where the names came from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDemoDatabase, type TestDatabase } from '../helpers/db.ts';
import { SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { loadVocabularySource, vocabularySourceFromIndex } from '../../src/assessment/loadVocabulary.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await sharedDemoDatabase();
}, 300_000);
afterAll(async () => {
  await db?.cleanup();
});

describe('vocabulary source from the release index', () => {
  it('equals the store\'s, term for term and grade for grade, for every demo release', async () => {
    const releases = await db.prisma.release.findMany({ select: { id: true } });
    expect(releases.length).toBeGreaterThanOrEqual(3);
    const indexes = new SearchIndexCache(10);
    for (const { id } of releases) {
      const fromStore = await loadVocabularySource(db.prisma, id);
      const fromIndex = await vocabularySourceFromIndex(db.prisma, await indexes.get(id, db.prisma));
      expect(fromStore.terms.length).toBeGreaterThan(100);
      expect(fromIndex.terms).toEqual(fromStore.terms);
      expect([...fromIndex.grades]).toEqual([...fromStore.grades]);
    }
  });

  it('reads the index in slices: other work runs while a source is made', async () => {
    const [release] = await db.prisma.release.findMany({ select: { id: true }, take: 1 });
    const ix = await new SearchIndexCache().get(release!.id, db.prisma);
    let turns = 0;
    let done = false;
    const spin = () => {
      turns++;
      if (!done) setImmediate(spin);
    };
    setImmediate(spin);
    await vocabularySourceFromIndex(db.prisma, ix);
    done = true;
    expect(turns).toBeGreaterThanOrEqual(2);
  });
});
