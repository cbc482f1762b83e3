// A non-primary language's search index persisted like the release's (issue 28): the first
// use builds it from concept_name and writes its snapshot; a restart (a new cache over the same
// database) loads it from there and answers exactly as the built one; a damaged snapshot is
// ignored with a warning and rewritten; `import --replace` of the language deletes its snapshot
// with its names, in the same transaction. PGlite, and PostgreSQL with TEST_DATABASE_URL.
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { importRelease } from '../../src/importer/import.ts';
import { generateRelease, writeMedAscii } from '../../tools/synthetic/generate.ts';
import { writeLanguageFolder } from '../../tools/synthetic/language.ts';
import { SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { searchConcepts } from '../../src/domain/releaseIndex/search.ts';
import { searchLanguage } from '../../src/services/language.ts';
import type { ReleaseInfo } from '../../src/domain/releases.ts';
import { rowsAt } from '../helpers/releaseRows.ts';

let db: TestDatabase;
let dir: string;
let releaseId: number;
const release = { languages: ['en', 'de', 'ja'] } as unknown as ReleaseInfo;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(path.join(tmpdir(), 'te-lang-snapshot-'));
  const en = path.join(dir, '79.0');
  await writeMedAscii(generateRelease({ seed: 3, version: '79.0', scale: 0.02, withSmq: false }), en);
  writeLanguageFolder(en, path.join(dir, '79.0-de'), 'de');
  writeLanguageFolder(en, path.join(dir, '79.0-ja'), 'ja');
  for (const d of ['79.0', '79.0-de', '79.0-ja']) await importRelease(db, path.join(dir, d));
  releaseId = (await db.prisma.release.findUniqueOrThrow({ where: { version: '79.0' } })).id;
}, 240_000);
afterAll(async () => {
  await db?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Load = { source: string; language: string | undefined };
function cacheWithLog(): { cache: SearchIndexCache; loads: Load[]; warnings: string[] } {
  const loads: Load[] = [];
  const warnings: string[] = [];
  const cache = new SearchIndexCache(2, db.prisma, db.blobs, {
    onLoaded: (_r, source, _ms, language) => loads.push({ source, language }),
    onWarning: (message) => warnings.push(message),
  });
  return { cache, loads, warnings };
}

const stored = async () =>
  (await db.prisma.releaseLanguageIndexSnapshot.findMany({ where: { releaseId }, select: { language: true, variant: true }, orderBy: [{ language: 'asc' }, { variant: 'asc' }] })).map(
    (s) => `${s.language}/${s.variant}`,
  );

/** Some names of the language, cut into queries (whole, prefix, inner). */
async function queries(language: string): Promise<string[]> {
  const names = await rowsAt<{ name: string }>(db.prisma, 'concept_name', releaseId, 't.language = $2 ORDER BY t.level, t.code LIMIT 400', language);
  return names.filter((_, i) => i % 20 === 0).flatMap((n) => [n.name, n.name.slice(0, 3), n.name.slice(2, 6)]);
}

async function answers(cache: SearchIndexCache, tag: string, qs: string[]) {
  const src = { db: db.prisma, indexes: cache };
  const out = [];
  for (const q of qs) {
    const p = await searchConcepts(src, releaseId, q, {}, 0, 50, searchLanguage(release, tag));
    out.push([q, p.total, p.hits.map((h) => [h.concept.code, h.concept.name, h.match?.type, h.match?.score, h.match?.term])]);
  }
  return out;
}

describe('language index snapshots', () => {
  it('the first use builds from rows and writes them; a restart loads them and answers the same', async () => {
    expect(await stored()).toEqual([]);
    const first = cacheWithLog();
    const qs = { ja: await queries('ja'), de: await queries('de') };
    const built = { ja: await answers(first.cache, 'ja', qs.ja), de: await answers(first.cache, 'de', qs.de) };
    await first.cache.flushed();
    expect(first.loads.filter((l) => l.language)).toEqual([
      { source: 'rows', language: 'ja' },
      { source: 'rows', language: 'de' },
      { source: 'rows', language: 'de' },
    ]);
    // German has two keys per name (umlauts transliterated), each an index of its own.
    expect(await stored()).toEqual(['de/0', 'de/1', 'ja/0']);

    const restart = cacheWithLog();
    expect(await answers(restart.cache, 'ja', qs.ja)).toEqual(built.ja);
    expect(await answers(restart.cache, 'de', qs.de)).toEqual(built.de);
    expect(restart.loads.filter((l) => l.language)).toEqual([
      { source: 'snapshot', language: 'ja' },
      { source: 'snapshot', language: 'de' },
      { source: 'snapshot', language: 'de' },
    ]);
    expect(restart.warnings).toEqual([]);
    const a = await first.cache.getLanguage(releaseId, 'ja', db.prisma);
    const b = await restart.cache.getLanguage(releaseId, 'ja', db.prisma);
    expect(b.name).toEqual(a.name);
    expect(b.norm).toEqual(a.norm);
  }, 120_000);

  it('a damaged snapshot is ignored with a warning, the index built from rows and the snapshot rewritten', async () => {
    await db.prisma.$executeRawUnsafe(
      `UPDATE release_language_index_snapshot SET data = overlay(data placing '\\xffff'::bytea from 200 for 2) WHERE release_id = $1 AND language = 'ja'`,
      releaseId,
    );
    const c = cacheWithLog();
    const qs = await queries('ja');
    const got = await answers(c.cache, 'ja', qs);
    expect(c.warnings).toEqual(['ja index snapshot not usable; building the index from rows']);
    expect(c.loads.filter((l) => l.language)).toEqual([{ source: 'rows', language: 'ja' }]);
    await c.cache.flushed();
    const again = cacheWithLog();
    expect(await answers(again.cache, 'ja', qs)).toEqual(got);
    expect(again.loads.filter((l) => l.language)).toEqual([{ source: 'snapshot', language: 'ja' }]);
  }, 120_000);

  it('import --replace of a language deletes its snapshots with its names, and only its own', async () => {
    expect(await stored()).toEqual(['de/0', 'de/1', 'ja/0']);
    await importRelease(db, path.join(dir, '79.0-ja'), { replace: true });
    expect(await stored()).toEqual(['de/0', 'de/1']);
  }, 120_000);
});
