// Contract tests of the change endpoints against the demo releases (CTCAE 4.03 → 5.0 real,
// 5.0 → 5.0.1 made up with every kind of change), through real HTTP.
import { describe, expect, it } from 'vitest';
import { serveTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let base: string;
serveTestApp((app, url) => {
  t = app;
  base = url;
});

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

describe('GET /versions/{toVersionId}/changes', () => {
  it('defaults the baseline to the previous release and counts every type', async () => {
    const r = await get('/versions/5.0.1/changes');
    expect(r.status).toBe(200);
    expect(r.body.versions).toEqual({ from: '5.0', to: '5.0.1' });
    expect(r.body.changes).toEqual({ added: 19, updated: 31, retired: 3 });
    expect(r.body.results.meta).toEqual({ page: 1, limit: 50, total: 53, next: '?page=2&limit=50', previous: null });
    const item = r.body.results.results[0];
    expect(Object.keys(item).sort()).toEqual(['changeType', 'code', 'details', 'level', 'metadata', 'previousTerm', 'term']);
  });

  it('shows every kind of change of the demo 5.0.1 release', async () => {
    const all = (await get('/versions/5.0.1/changes?limit=200')).body.results.results as any[];
    const kinds = new Set(all.flatMap((c) => c.metadata.kinds));
    for (const k of ['added', 'renamed', 'made_non_current', 'currency_restored', 'primary_soc_changed', 'parents_added', 'parents_removed', 'llt_moved', 'promoted', 'demoted']) {
      expect(kinds, k).toContain(k);
    }
    expect(all.find((c) => c.code === '10027787' && c.level === 'PT')).toMatchObject({
      changeType: 'updated',
      term: 'Mobitz type I atrioventricular block',
      previousTerm: 'Mobitz type I',
    });
    expect(all.find((c) => c.code === '90300310')).toMatchObject({ changeType: 'retired', term: 'Runs', details: 'Made non-current.' });
  });

  it('4.03 → 5.0 shows the real CTCAE changes, and any older baseline can be given', async () => {
    const r = await get('/versions/5.0/changes?level=PT&changeType=added&limit=200');
    expect(r.body.versions).toEqual({ from: '4.03', to: '5.0' });
    expect(r.body.results.meta.total).toBe(60);
    const wide = await get('/versions/5.0.1/changes?fromVersionId=4.03&level=PT&changeType=retired');
    expect(wide.body.versions).toEqual({ from: '4.03', to: '5.0.1' });
    expect(wide.body.results.results.every((c: any) => c.changeType === 'retired' && c.level === 'PT')).toBe(true);
  });

  it('filters by level, changeType (any case) and hierarchy; counts ignore only changeType', async () => {
    const r = await get('/versions/5.0.1/changes?level=LLT&changeType=RETIRED');
    expect(r.body.results.results.map((c: any) => c.term).sort()).toEqual(['Cold', 'Hypo', 'Runs']);
    expect(r.body.changes.retired).toBe(3);
    expect(r.body.changes.added).toBeGreaterThan(0);
    const gi = await get('/versions/5.0.1/changes?soc=10017947&limit=200');
    const codes = gi.body.results.results.map((c: any) => c.code);
    expect(codes).toContain('10025476'); // Malabsorption re-linked
    expect(codes).not.toContain('90400003'); // COVID-19 is an infection
    const byLlt = await get('/versions/5.0.1/changes?llt=90300310');
    expect(byLlt.body.results.results.map((c: any) => c.code)).toEqual(['90300310']);
  });

  it('counts a filter once: later pages read only their rows, with the same totals', async () => {
    const first = await get('/versions/5.0.1/changes?level=PT&limit=3');
    t.queries.length = 0;
    const later = await get('/versions/5.0.1/changes?level=PT&limit=3&page=2');
    expect(later.body.results.results.length).toBeGreaterThan(0);
    expect(later.body.changes).toEqual(first.body.changes);
    expect(later.body.results.meta.total).toBeGreaterThan(3);
    expect(later.body.results.meta.total).toBe(first.body.results.meta.total);
    expect(first.body.changes.added + first.body.changes.updated + first.body.changes.retired).toBe(first.body.results.meta.total);
    const changeQueries = t.queries.filter((q) => q.includes('release_change'));
    expect(changeQueries.length).toBeGreaterThan(0);
    expect(changeQueries.filter((q) => q.includes('count(*)'))).toEqual([]);
    // changeType narrows the total, not the counts.
    const added = await get('/versions/5.0.1/changes?level=PT&limit=3&changeType=added&page=2');
    expect(added.body.changes).toEqual(first.body.changes);
  });

  it('pages, keeping the other parameters', async () => {
    const p1 = await get('/versions/5.0.1/changes?level=LLT&limit=5');
    expect(p1.body.results.meta.next).toBe('?level=LLT&page=2&limit=5');
    const p2 = await get(`/versions/5.0.1/changes${p1.body.results.meta.next}`);
    expect(p2.body.results.results[0]).not.toEqual(p1.body.results.results[0]);
    expect(p2.body.results.meta.previous).toBe('?level=LLT&page=1&limit=5');
  });

  it.each([
    ['/versions/5.0.1/changes?limit=0', 'limit'],
    ['/versions/5.0.1/changes?limit=201', 'limit'],
    ['/versions/5.0.1/changes?page=0', 'page'],
    ['/versions/5.0.1/changes?level=XYZ', 'level'],
    ['/versions/5.0.1/changes?changeType=deleted', 'changeType'],
    ['/versions/5.0.1/changes?soc=abc', 'soc'],
    ['/versions/5.0.1/changes?from=5.0', 'from'],
    ['/versions/5.0/changes?fromVersionId=5.0.1', 'fromVersionId'],
    ['/versions/5.0/changes?fromVersionId=5.0', 'fromVersionId'],
    ['/versions/4.03/changes', 'fromVersionId'],
  ])('%s is a VALIDATION_ERROR on %s', async (path, field) => {
    const r = await get(path);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_ERROR');
    expect(r.body.errors[field]).toBeDefined();
  });

  it('the oldest release has no default baseline: fromVersionId is required there, and the message says why (the contract: VALIDATION_ERROR for a missing required field)', async () => {
    const r = await get('/versions/4.03/changes');
    expect(r.body).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', errors: { fromVersionId: ['release 4.03 is the oldest hosted release: there is no previous release to compare with'] } });
    // GET /versions agrees: the oldest release carries no change counts.
    expect((await get('/versions')).body.results.at(-1)).toMatchObject({ version: '4.03', changes: null });
  });

  it('unknown releases and filter nodes', async () => {
    expect((await get('/versions/9.9/changes')).body.code).toBe('VERSION_NOT_FOUND');
    expect((await get('/versions/5.0.1/changes?fromVersionId=1.0')).body.code).toBe('VERSION_NOT_FOUND');
    expect((await get('/versions/5.0.1/changes?hlt=10047700')).body.code).toBe('CODE_NOT_FOUND');
  });
});

describe('GET /codes/{code}/changes', () => {
  it('compares a renamed PT: snapshots and readable differences', async () => {
    const r = await get('/codes/10027787/changes?against=5.0');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-terminology-version')).toBe('5.0.1');
    expect(r.body).toEqual({
      code: '10027787',
      versions: { from: '5.0', to: '5.0.1' },
      snapshots: {
        from: { exists: true, code: '10027787', term: 'Mobitz type I', level: 'PT', status: 'current', primarySocCode: '10007541' },
        to: { exists: true, code: '10027787', term: 'Mobitz type I atrioventricular block', level: 'PT', status: 'current', primarySocCode: '10007541' },
      },
      differences: [
        "PT: Renamed from 'Mobitz type I' to 'Mobitz type I atrioventricular block'.",
        "LLT: Renamed from 'Mobitz type I' to 'Mobitz type I atrioventricular block'.",
      ],
    });
  });

  it('a code absent from the baseline has exists: false', async () => {
    const r = await get('/codes/90400003/changes?against=5.0');
    expect(r.body.snapshots.from).toEqual({ exists: false, code: '90400003', term: null, level: null, status: null, primarySocCode: null });
    expect(r.body.differences[0]).toMatch(/New PT in 5\.0\.1/);
  });

  it('version, else the header, picks the target release; the parameter wins', async () => {
    const hdr = await get('/codes/90300310/changes?against=4.03', { 'X-Terminology-Version': '5.0' });
    expect(hdr.body.versions).toEqual({ from: '4.03', to: '5.0' });
    expect(hdr.body.differences).toEqual([]);
    const both = await get('/codes/90300310/changes?against=4.03&version=5.0.1', { 'X-Terminology-Version': '5.0', 'X-API-Version': '1' });
    expect(both.body.versions).toEqual({ from: '4.03', to: '5.0.1' });
    expect(both.body.snapshots.to.status).toBe('non-current');
    expect(both.body.differences).toEqual(['Made non-current.']);
  });

  it('validates against, version and the code', async () => {
    const missing = await get('/codes/10027787/changes');
    expect(missing.status).toBe(400);
    expect(missing.body.errors.against).toEqual(['against is required']);
    expect((await get('/codes/10027787/changes?against=7.7')).body.code).toBe('VERSION_NOT_FOUND');
    expect((await get('/codes/10027787/changes?against=5.0&version=7.7')).body.code).toBe('VERSION_NOT_FOUND');
    expect((await get('/codes/12345678/changes?against=5.0')).body.code).toBe('CODE_NOT_FOUND');
    expect((await get('/codes/abc/changes?against=5.0')).status).toBe(400);
    expect((await get('/codes/10027787/changes?against=5.0', { 'X-API-Version': '3' })).status).toBe(400);
  });
});

describe('changes on the catalog endpoints', () => {
  it('GET /versions carries change counts against the predecessor', async () => {
    const r = await get('/versions');
    expect(r.body.results.map((v: any) => v.changes)).toEqual([
      { added: 19, updated: 31, retired: 3 },
      expect.objectContaining({ added: 261 }),
      null,
    ]);
  });

  it('GET /codes/{code} has a change object only for changed concepts', async () => {
    expect((await get('/codes/10027787')).body.change).toEqual({
      changeType: 'UPDATED',
      details: "Renamed from 'Mobitz type I' to 'Mobitz type I atrioventricular block'.",
      previousTerm: 'Mobitz type I',
    });
    expect((await get('/codes/90400003')).body.change).toMatchObject({ changeType: 'ADDED' });
    expect((await get('/codes/90300310')).body.change).toEqual({ changeType: 'RETIRED', details: 'Made non-current.' });
    expect((await get('/codes/10047700')).body.change).toBeUndefined();
    expect((await get('/codes/90300310?version=4.03')).body.change).toBeUndefined();
  });

  it('GET /codes?changeType filters the release delta', async () => {
    const added = await get('/codes?changeType=ADDED&level=PT');
    expect(added.body.results.map((c: any) => c.term).sort()).toEqual(['COVID-19', 'Hemophagocytic lymphohistiocytosis', 'Immune effector cell-associated neurotoxicity syndrome']);
    const retired = await get('/codes?changeType=RETIRED&level=LLT');
    expect(retired.body.results.map((c: any) => c.term).sort()).toEqual(['Cold', 'Hypo', 'Runs']);
    const q = await get('/codes?changeType=UPDATED&q=mobitz');
    expect(q.body.results.map((c: any) => c.code)).toEqual(['10027787']);
    expect((await get('/codes?changeType=ADDED&version=4.03')).body.meta.total).toBe(0);
    expect((await get('/codes?changeType=NEW')).status).toBe(400);
  });
});

describe('GraphQL: history and comparison', () => {
  it('Code.history tells what changed when, across every release, in one query', async () => {
    const r = await t.graphql(`{ code(code: "10010783") { term level history {
      version { version } snapshot { exists level status term } changes { changeType level kinds details } } } }`);
    expect(r.body.errors).toBeUndefined();
    const h = r.body.data.code.history;
    expect(h.map((e: any) => [e.version.version, e.snapshot.level, e.snapshot.status])).toEqual([
      ['4.03', 'PT', 'current'],
      ['5.0', 'LLT', 'non-current'],
      ['5.0.1', 'PT', 'current'],
    ]);
    expect(h[0].changes).toEqual([]);
    expect(h[2].changes.map((c: any) => c.kinds[0])).toContain('promoted');
  });

  it('Code.compare and Version.changes give the same answers as REST', async () => {
    const g = await t.graphql(`{ code(code: "10027787") { compare(against: "5.0") { differences fromSnapshot { term } toSnapshot { term } } } }`);
    const rest = (await get('/codes/10027787/changes?against=5.0')).body;
    expect(g.body.data.code.compare.differences).toEqual(rest.differences);
    const v = await t.graphql(`{ version(version: "5.0.1") { changeCounts { added updated retired } changes(level: LLT, changeType: RETIRED, first: 10) { totalCount counts { retired } edges { node { code term changeType } } } } }`);
    expect(v.body.data.version.changeCounts).toEqual({ added: 19, updated: 31, retired: 3 });
    expect(v.body.data.version.changes.edges.map((e: any) => e.node.term).sort()).toEqual(['Cold', 'Hypo', 'Runs']);
  });
});
