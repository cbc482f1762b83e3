// Issue 32: an uncached code page costs the same whatever the number of releases and languages
// hosted — no SQL statement once the server is warm, on the newest release, on older ones (their
// views) and in the second language; before, `names` sent one statement per page (every release
// but a search-indexed language's), and a term in the second language one per tree level. A chain
// of synthetic releases in two languages (bench/lib/manyData.ts); PGlite and PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { TEST_ENV } from '../helpers/app.ts';
import { importRelease } from '../../src/importer/import.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { compose, type Composition } from '../../src/compose.ts';
import { createApp, type App } from '../../src/http/app.ts';
import { pseudoGerman, writeManyReleases, type ManyData } from '../../bench/lib/manyData.ts';

let db: TestDatabase;
let dir: string;
let data: ManyData;
let composed: Composition;
let app: App;
let statements: string[] = [];

const get = async (p: string) => {
  const res = await app.fetch(new Request(`http://test${p}`));
  return { status: res.status, body: (await res.json()) as any };
};
/** A page's answer and the statements it sent. */
const counted = async (p: string) => {
  statements = [];
  const r = await get(p);
  return { ...r, statements: [...statements] };
};

beforeAll(async () => {
  db = await createTestDatabase({ onQuery: (s) => statements.push(s) });
  dir = mkdtempSync(path.join(tmpdir(), 'code-page-sql-'));
  data = await writeManyReleases(dir, 3, { scale: 0.01, languages: 2, seed: 5 });
  for (const d of data.dirs) {
    await importRelease(db, d.en);
    await importRelease(db, d.de!);
  }
  composed = compose(loadConfig(TEST_ENV), db, createLogger('silent'), { catalogTtlMs: 600_000 });
  app = createApp(composed.services, { ...composed.appOptions, responseCache: false, graphql: { ...composed.appOptions.graphql, resultCache: false } });
}, 300_000);

afterAll(async () => {
  await composed?.close();
  await db?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Codes held by every release (PTs and LLTs of the oldest still in the newest). */
const sharedCodes = () => {
  const newest = new Set(data.latest.pts.map((p) => p.code));
  return data.oldest.pts.map((p) => p.code).filter((c) => newest.has(c));
};

describe('an uncached code page sends no SQL once warm, whatever the release and language', () => {
  it('newest, middle and oldest release, primary and second language: 0 statements per page, the names as stored', async () => {
    const { catalog } = composed.services;
    const [newest, middle, oldest] = data.versions.slice().reverse();
    // As the server's warm-up: the newest's index (the older releases answer through views over it).
    catalog.searchIndexes.waitMs = 60_000;
    const list = await catalog.releases();
    await catalog.searchIndexes.get(list[0]!.id, db.prisma);
    const codes = sharedCodes();
    expect(codes.length).toBeGreaterThan(12);
    // One page per release and language first: views made, change sets ensured, the names read.
    for (const v of [newest, middle, oldest]) for (const lang of ['en', 'de']) expect((await get(`/codes/${codes[0]}?version=${v}&lang=${lang}`)).status).toBe(200);
    await catalog.languageNames.settled();
    expect(catalog.languageNames.bytes()).toBeGreaterThan(0);
    let i = 1;
    for (const v of [newest, middle, oldest]) {
      for (let k = 0; k < 3; k++) {
        const code = codes[i++]!;
        const [en, de] = [await counted(`/codes/${code}?version=${v}&lang=en`), await counted(`/codes/${code}?version=${v}&lang=de`)];
        for (const r of [en, de]) {
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          expect(r.statements, `${v} ${r.body.language} ${code}`).toEqual([]);
        }
        expect(en.body.names).toEqual([{ language: 'en', name: en.body.term }, { language: 'de', name: pseudoGerman(en.body.term) }]);
        expect(de.body.names).toEqual(en.body.names);
        expect(de.body.term).toBe(pseudoGerman(en.body.term));
        // Parents and children in the request's language too (the name loader reads the same names).
        expect(de.body.parents.map((p: any) => p.term)).toEqual(en.body.parents.map((p: any) => pseudoGerman(p.term)));
        expect(de.body.children.map((p: any) => p.term)).toEqual(en.body.children.map((p: any) => pseudoGerman(p.term)));
      }
    }
    // Each page's names are the store's (concept_name_at), not only well-formed.
    const rel = list.find((r) => r.version === oldest)!;
    const code = codes[1]!;
    const stored = await db.prisma.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM concept_name_at($1) WHERE language = 'de' AND level = 'PT' AND code = $2`, rel.id, code);
    expect((await get(`/codes/${code}?version=${oldest}`)).body.names[1].name).toBe(stored[0]!.name);
  }, 120_000);

  it('a release imported after the names were read answers by SQL, then starts a new read and answers from it', async () => {
    const { catalog } = composed.services;
    const reads = catalog.languageNames.reads;
    const more = await writeManyReleases(path.join(dir, 'more'), 4, { scale: 0.01, languages: 2, seed: 5 });
    const last = more.dirs.at(-1)!;
    await importRelease(db, last.en);
    await importRelease(db, last.de!);
    catalog.invalidate();
    await catalog.releases();
    const code = sharedCodes()[2]!;
    const first = await counted(`/codes/${code}?version=${last.version}`);
    expect(first.status).toBe(200);
    expect(first.body.names[1]).toEqual({ language: 'de', name: pseudoGerman(first.body.names[0].name) });
    expect(first.statements.some((s) => /concept_name_at/.test(s)), 'the new release\'s names by SQL').toBe(true);
    await catalog.languageNames.settled();
    expect(catalog.languageNames.reads).toBe(reads + 1);
    const again = await counted(`/codes/${sharedCodes()[3]!}?version=${last.version}&lang=de`);
    expect(again.statements.filter((s) => /concept_name/.test(s))).toEqual([]);
    expect(again.body.names[1].name).toBe(again.body.term);
  }, 120_000);
});
