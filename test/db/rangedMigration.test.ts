// The migration to ranged storage (prisma/migrations/20261126200000_ranged_storage, docs/storage.md)
// converts a store in place: a store is built on the schema before it, with several releases and
// languages (the demo releases and a chain of synthetic ones, ordinals with gaps and a release
// deleted in the middle, one release's second language replaced), its answers recorded through the
// app, then migrated. Every answer of the sample is byte-identical after, every release holds the
// same rows, and each table holds one row per run of consecutive releases with equal content
// (counted here in JavaScript from the stored rows). A release imported afterwards writes rows in
// proportion to its changes.
//
// Change sets: the product always migrates before it serves (src/db/open.ts), so its engines never
// read a store on the schema before, and the boundary-row read (rangedDiff.ts, PostgreSQL) cannot:
// it reads the ranged columns themselves. The store before therefore holds every pair's change set
// stored by the reference engine (engine.ts over the read functions, as an import stores its
// neighbours'). After the migration the neighbours' stay (every store has them from its imports)
// and the others are dropped, so each of those answers after is computed on demand by the
// product's own engine from the migrated rows (on PostgreSQL the boundary rows) and compared with
// the reference's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../helpers/db.ts';
import { TEST_ENV } from '../helpers/app.ts';
import { migrate } from '../../src/db/migrate.ts';
import { migrationsDir } from '../../src/paths.ts';
import { bulkInsert } from '../../src/db/bulk.ts';
import { importRelease, loadRelease } from '../../src/importer/import.ts';
import { demoReleases } from '../../src/importer/demo.ts';
import type { ReleaseModel } from '../../src/importer/model.ts';
import { foldName } from '../../src/domain/languageNames.ts';
import { createApp } from '../../src/http/app.ts';
import { compose } from '../../src/compose.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { writeManyReleases } from '../../bench/lib/manyData.ts';
import { ALL_RANGED, OPEN } from '../../src/importer/ranges.ts';
import { computeChanges, diffReleases, type ChangeRecord } from '../../src/domain/changes/engine.ts';
import { computeChangesFromRanges, diffRanges } from '../../src/domain/changes/rangedDiff.ts';
import { computeChangesFromIndexes, diffIndexes } from '../../src/domain/changes/indexDiff.ts';
import { SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';

const RANGED_MIGRATION = '20261126200000_ranged_storage';

let db: TestDatabase;
/** Statements of the boundary-row read (rangedDiff.ts boundaryKeys) since the count was last reset. */
let boundaryReads = 0;
let work: string;
let chain: Awaited<ReturnType<typeof writeManyReleases>>;

type Q = <T = Record<string, unknown>>(sql: string, ...params: unknown[]) => Promise<T[]>;
const q: Q = (sql, ...params) => db.prisma.$queryRawUnsafe(sql, ...params);

/** A release written as the schema before ranges stored it: every row with its release_id. */
async function writePerRelease(m: ReleaseModel, version: string, ordinal: number, releaseDate: string | null): Promise<number> {
  const [{ id }] = await q<{ id: number }>(
    `INSERT INTO "release" (version, language, release_date, ordinal, source) VALUES ($1, $2, $3::date, $4, 'test') RETURNING id`,
    version, m.language, releaseDate, ordinal,
  ) as [{ id: number }];
  await q(`INSERT INTO release_language (release_id, language, msso_name, position) VALUES ($1, $2, $3, 0)`, id, m.languageTag, m.language);
  const f = { release_id: id };
  await bulkInsert(db.prisma, 'concept', f, [
    { name: 'level', type: 'text', cast: '"Level"', get: (r) => r.level }, { name: 'code', type: 'int', get: (r) => r.code },
    { name: 'name', type: 'text', get: (r) => r.name }, { name: 'name_norm', type: 'text', get: (r) => r.nameNorm },
    { name: 'current', type: 'boolean', get: (r) => r.current }, { name: 'pt_code', type: 'int', get: (r) => r.ptCode },
    { name: 'primary_soc_code', type: 'int', get: (r) => r.primarySocCode }, { name: 'soc_abbrev', type: 'text', get: (r) => r.socAbbrev },
    { name: 'intl_order', type: 'int', get: (r) => r.intlOrder },
  ], m.concepts);
  await bulkInsert(db.prisma, 'hierarchy_link', f, [
    { name: 'parent_level', type: 'text', cast: '"Level"', get: (r) => r.parentLevel }, { name: 'parent_code', type: 'int', get: (r) => r.parentCode },
    { name: 'child_level', type: 'text', cast: '"Level"', get: (r) => r.childLevel }, { name: 'child_code', type: 'int', get: (r) => r.childCode },
    { name: 'is_primary', type: 'boolean', get: (r) => r.isPrimary },
  ], m.links);
  await bulkInsert(db.prisma, 'hierarchy_path', f, [
    { name: 'pt_code', type: 'int', get: (r) => r.ptCode }, { name: 'hlt_code', type: 'int', get: (r) => r.hltCode },
    { name: 'hlgt_code', type: 'int', get: (r) => r.hlgtCode }, { name: 'soc_code', type: 'int', get: (r) => r.socCode },
    { name: 'is_primary', type: 'boolean', get: (r) => r.isPrimary },
  ], m.paths);
  await bulkInsert(db.prisma, 'grade_definition', f, [
    { name: 'code', type: 'int', get: (r) => r.code }, { name: 'grade', type: 'int', get: (r) => r.grade }, { name: 'definition', type: 'text', get: (r) => r.definition },
  ], m.grades);
  await bulkInsert(db.prisma, 'smq', f, [
    { name: 'code', type: 'int', get: (r) => r.code }, { name: 'name', type: 'text', get: (r) => r.name }, { name: 'level', type: 'int', get: (r) => r.level },
    { name: 'description', type: 'text', get: (r) => r.description }, { name: 'source', type: 'text', get: (r) => r.source },
    { name: 'note', type: 'text', get: (r) => r.note }, { name: 'version', type: 'text', get: (r) => r.version },
    { name: 'status', type: 'text', get: (r) => r.status }, { name: 'algorithm', type: 'text', get: (r) => r.algorithm },
  ], m.smqs);
  await bulkInsert(db.prisma, 'smq_term', f, [
    { name: 'smq_code', type: 'int', get: (r) => r.smqCode }, { name: 'term_code', type: 'int', get: (r) => r.termCode },
    { name: 'term_level', type: 'int', get: (r) => r.termLevel }, { name: 'term_scope', type: 'int', get: (r) => r.termScope },
    { name: 'term_category', type: 'text', get: (r) => r.termCategory }, { name: 'term_weight', type: 'int', get: (r) => r.termWeight },
    { name: 'term_status', type: 'text', get: (r) => r.termStatus }, { name: 'term_addition_version', type: 'text', get: (r) => r.termAdditionVersion },
    { name: 'term_last_modified_version', type: 'text', get: (r) => r.termLastModifiedVersion },
  ], m.smqTerms);
  return id;
}

async function writeNamesPerRelease(id: number, m: ReleaseModel, position: number): Promise<void> {
  const tag = m.languageTag;
  await q(`INSERT INTO release_language (release_id, language, msso_name, position) VALUES ($1, $2, $3, $4)`, id, tag, m.language, position);
  await bulkInsert(db.prisma, 'concept_name', { release_id: id }, [
    { name: 'language', type: 'text', get: () => tag }, { name: 'level', type: 'text', cast: '"Level"', get: (r) => r.level },
    { name: 'code', type: 'int', get: (r) => r.code }, { name: 'name', type: 'text', get: (r) => r.name },
    { name: 'name_norm', type: 'text', get: (r) => foldName(tag, r.name) },
  ], m.concepts);
  await bulkInsert(db.prisma, 'smq_name', { release_id: id }, [
    { name: 'language', type: 'text', get: () => tag }, { name: 'code', type: 'int', get: (r) => r.code },
    { name: 'name', type: 'text', get: (r) => r.name }, { name: 'description', type: 'text', get: (r) => r.description },
  ], m.smqs);
}

/**
 * Every pair's change set (older → newer, as the sample asks for them) computed by the reference
 * engine over the read functions, which exist on either schema, and stored as the product stores one.
 */
async function storeReferenceChangeSets(): Promise<void> {
  const releases = await q<{ id: number; version: string }>('SELECT id, version FROM "release" ORDER BY ordinal');
  for (const [j, to] of releases.entries()) {
    for (const from of releases.slice(0, j)) {
      const records = await computeChanges(db.prisma, from, to);
      await bulkInsert(db.prisma, 'release_change', { from_release_id: from.id, to_release_id: to.id }, [
        { name: 'level', type: 'text', cast: '"Level"', get: (r: ChangeRecord) => r.level }, { name: 'code', type: 'int', get: (r) => r.code },
        { name: 'change_type', type: 'text', cast: '"ChangeType"', get: (r) => r.changeType }, { name: 'term', type: 'text', get: (r) => r.term },
        { name: 'details', type: 'text', get: (r) => r.details }, { name: 'previous_term', type: 'text', get: (r) => r.previousTerm },
        { name: 'metadata', type: 'jsonb', get: (r) => r.metadata },
      ], records);
      const n = (t: string) => records.filter((r) => r.changeType === t).length;
      await q(`INSERT INTO change_set (from_release_id, to_release_id, added, updated, retired) VALUES ($1, $2, $3, $4, $5)`, from.id, to.id, n('added'), n('updated'), n('retired'));
    }
  }
}

/** Every release's rows of every ranged table, through the read functions (either schema). */
async function contents(): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const r of await q<{ id: number; version: string }>('SELECT id, version FROM "release" ORDER BY ordinal')) {
    for (const t of ALL_RANGED) {
      const rows = await q(`SELECT * FROM ${t.table}_at($1)`, r.id);
      out.set(`${r.version} ${t.table}`, rows.map((x) => JSON.stringify(x)).sort());
    }
  }
  return out;
}

/** Rows each table should hold: per key, a run of consecutive hosted releases with equal content is one row. */
async function expectedRuns(): Promise<Record<string, number>> {
  const releases = await q<{ id: number }>('SELECT id FROM "release" ORDER BY ordinal');
  const position = new Map(releases.map((r, i) => [r.id, i]));
  const out: Record<string, number> = {};
  for (const t of ALL_RANGED) {
    const rows = await q<Record<string, unknown>>(`SELECT * FROM "${t.table}"`);
    const last = new Map<string, { pos: number; content: string }>();
    let runs = 0;
    for (const row of rows.sort((a, b) => position.get(a.release_id as number)! - position.get(b.release_id as number)!)) {
      const key = JSON.stringify(t.key.map((k) => row[k]));
      const content = JSON.stringify(t.content.map((c) => row[c]));
      const pos = position.get(row.release_id as number)!;
      const prev = last.get(key);
      if (!prev || prev.pos !== pos - 1 || prev.content !== content) runs++;
      last.set(key, { pos, content });
    }
    out[t.table] = runs;
  }
  return out;
}

/** REST answers of a sample: per release and language code pages, searches, subtrees, SMQs, FHIR; changes for every pair. */
async function answers(): Promise<Map<string, string>> {
  const config = loadConfig({ ...TEST_ENV });
  const composed = compose(config, db, createLogger('silent'), { catalogTtlMs: 0 });
  const app = createApp(composed.services, composed.appOptions);
  const out = new Map<string, string>();
  const get = async (p: string) => {
    const res = await app.fetch(new Request(`http://test${p}`));
    out.set(p, `${res.status} ${await res.text()}`);
  };
  try {
    await get('/versions?limit=100');
    const releases = await q<{ id: number; version: string; languages: string[] }>(
      `SELECT r.id, r.version, array_agg(l.language ORDER BY l.position) AS languages FROM "release" r JOIN release_language l ON l.release_id = r.id GROUP BY r.id, r.version, r.ordinal ORDER BY r.ordinal`,
    );
    for (const r of releases) {
      const v = encodeURIComponent(r.version);
      const sample = await q<{ code: number; level: string; name: string }>(
        `SELECT code, level::text AS level, name FROM concept_at($1) WHERE level IN ('SOC', 'PT', 'LLT') ORDER BY md5(code::text || level::text) LIMIT 4`, r.id,
      );
      const [soc] = await q<{ code: number }>(`SELECT code FROM concept_at($1) WHERE level = 'SOC' ORDER BY code LIMIT 1`, r.id);
      for (const lang of r.languages) {
        for (const c of sample) await get(`/codes/${c.code}?version=${v}&lang=${lang}&synonymsLimit=50`);
        await get(`/codes?q=${encodeURIComponent(sample[0]!.name.split(' ')[0]!)}&version=${v}&lang=${lang}&limit=20`);
        await get(`/codes?soc=${soc!.code}&version=${v}&lang=${lang}&limit=100`);
      }
      await get(`/codes?q=${encodeURIComponent(sample[1]!.name.slice(0, 5))}&version=${v}&limit=20`);
      await get(`/smqs?version=${v}&limit=50`);
      const [smq] = await q<{ code: number }>('SELECT code FROM smq_at($1) ORDER BY code LIMIT 1', r.id);
      if (smq) await get(`/smqs/${smq.code}?version=${v}&termsLimit=50`);
      await get(`/fhir/CodeSystem/$lookup?system=${encodeURIComponent('https://www.meddra.org')}&code=${sample[0]!.code}&version=${v}&property=parent&property=child&property=primarySOC`);
      // Every pair (a change list goes from an older release to a newer one).
      for (const from of releases.slice(0, releases.indexOf(r))) {
        await get(`/versions/${v}/changes?fromVersionId=${encodeURIComponent(from.version)}&limit=100`);
      }
    }
  } finally {
    await composed.close();
  }
  return out;
}

let before: { answers: Map<string, string>; contents: Map<string, string[]>; runs: Record<string, number>; perRelease: Record<string, number> };

beforeAll(async () => {
  db = await createTestDatabase({ template: 'none', migrate: false, onQuery: (sql) => void (/valid_from > \$1::bigint AND valid_from <= \$2::bigint/.test(sql) && boundaryReads++) });
  work = mkdtempSync(path.join(tmpdir(), 'te-ranged-migration-'));
  // The schema before ranges: every migration but the ranged one.
  const oldDir = path.join(work, 'migrations');
  cpSync(migrationsDir, oldDir, { recursive: true, filter: (src) => !src.includes(RANGED_MIGRATION) });
  expect(readdirSync(oldDir)).not.toContain(RANGED_MIGRATION);
  await migrate(db, oldDir);

  let ordinal = 0;
  for (const r of demoReleases()) {
    const id = await writePerRelease(loadRelease(r.path), r.version, ++ordinal, r.releaseDate);
    for (const [i, l] of r.languagePaths.entries()) await writeNamesPerRelease(id, loadRelease(l.path, l.language), i + 1);
  }
  chain = await writeManyReleases(path.join(work, 'chain'), 5, { scale: 0.01, languages: 2 });
  ordinal += 1; // a gap, as a deleted release leaves
  const ids: number[] = [];
  for (const d of chain.dirs.slice(0, 4)) {
    const id = await writePerRelease(loadRelease(d.en), d.version, ++ordinal, null);
    await writeNamesPerRelease(id, loadRelease(d.de!), 1);
    ids.push(id);
  }
  // A release deleted in the middle of the chain (the schema before ranges cascaded on release_id):
  // its neighbours are consecutive hosted releases with an ordinal gap between them.
  await q('DELETE FROM "release" WHERE id = $1', ids[2]);
  // A language replaced: some German names of one release differ from both neighbours'.
  await q(`UPDATE concept_name SET name = name || ' (neu)', name_norm = name_norm || ' (neu)' WHERE release_id = $1 AND code % 5 = 0`, ids[1]);
  await storeReferenceChangeSets();
  await q('ANALYZE');
  const perRelease: Record<string, number> = {};
  for (const t of ALL_RANGED) perRelease[t.table] = Number((await q<{ n: bigint }>(`SELECT count(*) AS n FROM "${t.table}"`))[0]!.n);
  before = { answers: await answers(), contents: await contents(), runs: await expectedRuns(), perRelease };
  const m = await migrate(db);
  expect(m.applied).toEqual([RANGED_MIGRATION]);
  // Only the neighbours' change sets stay (see the header); the product's engine computes the others.
  const neighbours = `SELECT r.id AS from_id, lead(r.id) OVER (ORDER BY r.ordinal) AS to_id FROM "release" r`;
  await q(`DELETE FROM release_change rc WHERE (rc.from_release_id, rc.to_release_id) NOT IN (SELECT from_id, to_id FROM (${neighbours}) n WHERE to_id IS NOT NULL)`);
  await q(`DELETE FROM change_set cs WHERE (cs.from_release_id, cs.to_release_id) NOT IN (SELECT from_id, to_id FROM (${neighbours}) n WHERE to_id IS NOT NULL)`);
  const [kept] = await q<{ n: bigint }>('SELECT count(*) AS n FROM change_set');
  expect(Number(kept!.n)).toBe(5);
}, 600_000);

afterAll(async () => {
  await db?.cleanup();
});

describe('migrating a store with several releases and languages to ranged storage', () => {
  it('every release holds exactly the rows it held before', async () => {
    const after = await contents();
    expect([...after.keys()]).toEqual([...before.contents.keys()]);
    for (const [k, rows] of before.contents) expect(after.get(k), k).toEqual(rows);
  });

  it('each table holds one row per run of consecutive releases with equal content', async () => {
    const counts: Record<string, number> = {};
    for (const t of ALL_RANGED) counts[t.table] = Number((await q<{ n: bigint }>(`SELECT count(*) AS n FROM "${t.table}"`))[0]!.n);
    expect(counts).toEqual(before.runs);
    // Sharing happened: the chain's releases are ~90 % the same.
    expect(counts.concept).toBeLessThan(before.perRelease.concept! * 0.7);
    // An unchanged record is one row: most of the chain's concepts are one row each spanning 90.0 to 90.3.
    const [spanning] = await q<{ n: bigint }>(
      `SELECT count(*) AS n FROM concept c, "release" a, "release" b WHERE a.version = '90.0' AND b.version = '90.3' AND c.valid_from <= a.seq AND c.valid_to > b.seq`,
    );
    const [first] = await q<{ n: bigint }>(`SELECT count(*) AS n FROM "release" r, concept_at(r.id) c WHERE r.version = '90.0'`);
    expect(Number(spanning!.n)).toBeGreaterThan(Number(first!.n) * 0.6);
    // Ordinals had gaps (1, 2, 3, 5, 6, 8): seqs follow the hosted releases' order.
    const rel = await q<{ version: string; seq: string }>('SELECT version, seq::text AS seq FROM "release" ORDER BY ordinal');
    expect(rel.map((r) => r.version)).toEqual(['4.03', '5.0', '5.0.1', '90.0', '90.1', '90.3']);
    expect(rel.map((r) => BigInt(r.seq)).every((s, i, a) => i === 0 || s > a[i - 1]!)).toBe(true);
  });

  it('the change engines answer every ordered pair of the migrated store as the reference engine', async () => {
    // Boundary rows (rangedDiff.ts) and release indexes (indexDiff.ts) against the statement over
    // both whole releases (engine.ts), on rows the migration wrote rather than the importer.
    const releases = await q<{ id: number; version: string }>('SELECT id, version FROM "release" ORDER BY ordinal');
    const indexes = new SearchIndexCache(releases.length, db.prisma);
    const json = (v: unknown) => JSON.stringify(v);
    let pairs = 0;
    for (const from of releases) {
      for (const to of releases) {
        if (from.id === to.id) continue;
        const label = `${from.version} → ${to.version}`;
        const [referenceRows, reference] = [json(await diffReleases(db.prisma, from.id, to.id)), await computeChanges(db.prisma, from, to)];
        expect(json(await diffRanges(db.prisma, from.id, to.id)), label).toBe(referenceRows);
        expect(json(await computeChangesFromRanges(db.prisma, from, to)), label).toBe(json(reference));
        const [a, b] = await Promise.all([indexes.get(from.id, db.prisma), indexes.get(to.id, db.prisma)]);
        expect(json(await diffIndexes(a, b)), label).toBe(referenceRows);
        expect(json(await computeChangesFromIndexes({ version: from.version, index: a }, { version: to.version, index: b })), label).toBe(json(reference));
        pairs++;
      }
    }
    expect(pairs).toBe(releases.length * (releases.length - 1));
  }, 300_000);

  it('every REST answer of the sample is byte-identical', async () => {
    boundaryReads = 0;
    const after = await answers();
    // The pairs dropped were computed again (and are stored again once their background writes
    // end): on PostgreSQL from the boundary rows, on the embedded store from the release indexes.
    await expect.poll(async () => Number((await q<{ n: bigint }>('SELECT count(*) AS n FROM change_set'))[0]!.n), { timeout: 60_000 }).toBe(15);
    if (usingPostgres) expect(boundaryReads).toBeGreaterThan(0);
    else expect(boundaryReads).toBe(0);
    expect(before.answers.size).toBeGreaterThan(100);
    // First: an answer that failed before would otherwise show only as a difference.
    expect([...before.answers].filter(([, b]) => !b.startsWith('200 ')).map(([p, b]) => `${p} ${b.slice(0, 120)}`)).toEqual([]);
    expect([...after.keys()]).toEqual([...before.answers.keys()]);
    const differ = [...before.answers].filter(([p, body]) => after.get(p) !== body).map(([p]) => p);
    expect(differ).toEqual([]);
  }, 300_000);

  it('the next release imported after the migration writes its differences, not its size', async () => {
    const next = chain.dirs[4]!;
    const s = await importRelease(db, next.en);
    const model = loadRelease(next.en);
    const size = model.concepts.length + model.links.length + model.paths.length + model.grades.length + model.smqs.length + model.smqTerms.length;
    expect(s.written).toBeDefined();
    // The generator changes ~5-10 % of a release; writes (new rows plus ranges closed) stay well under a third.
    expect(s.written!.inserted + s.written!.updated).toBeLessThan(size / 3);
    expect(s.written!.inserted).toBeGreaterThan(0);
    // And the release holds exactly its folder's content.
    const concepts = await q<{ k: string }>(
      `SELECT level::text || '/' || code || '/' || name || '/' || current || '/' || coalesce(pt_code, 0) AS k FROM concept_at($1)`, s.releaseId,
    );
    expect(concepts.map((c) => c.k).sort()).toEqual(model.concepts.map((c) => `${c.level}/${c.code}/${c.name}/${c.current}/${c.ptCode ?? 0}`).sort());
    const [open] = await q<{ n: bigint }>(`SELECT count(*) AS n FROM concept WHERE valid_to = ${OPEN}`);
    expect(Number(open!.n)).toBe(model.concepts.length);
  }, 300_000);
});
