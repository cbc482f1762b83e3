// The same question asked over REST and over GraphQL gives the same answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ readOnly: true });
});
afterAll(async () => {
  await t?.cleanup();
});

describe('GraphQL/REST parity', () => {
  it('GET /versions = versions', async () => {
    const rest = (await t.json('/versions')).body;
    const gql = (await t.graphql('{ versions(first: 20) { totalCount edges { node { version releaseDate isLatest counts { pt llt } } } } }')).body.data;
    expect(rest.meta.total).toBe(gql.versions.totalCount);
    expect(rest.results.map((v: any) => [v.version, v.releaseDate, v.isLatest, v.counts.PT, v.counts.LLT])).toEqual(
      gql.versions.edges.map(({ node: n }: any) => [n.version, n.releaseDate, n.isLatest, n.counts.pt, n.counts.llt]),
    );
  });

  it.each([['10047700', '5.0'], ['10017947', '5.0.1'], ['90301296', '5.0.1'], ['10001723', '4.03']])('GET /codes/%s?version=%s = code', async (code, version) => {
    const rest = (await t.json(`/codes/${code}?version=${version}`)).body;
    const gql = (
      await t.graphql(
        `query($code: String!, $version: String) { code(code: $code, version: $version) {
          code term level status isPrimary primarySocCode
          synonyms(first: 20) { totalCount edges { node { term isPrimary } } }
          parents { relationshipType isPrimary code { code term level } }
          children { relationshipType isPrimary code { code term level } } } }`,
        { code, version },
      )
    ).body.data.code;
    expect(rest).toMatchObject({ code: gql.code, term: gql.term, level: gql.level, status: gql.status, isPrimary: gql.isPrimary, primarySocCode: gql.primarySocCode });
    expect(rest.synonyms.meta.total).toBe(gql.synonyms.totalCount);
    expect(rest.synonyms.results).toEqual(gql.synonyms.edges.map(({ node: n }: any) => ({ name: n.term, isPrimary: n.isPrimary })));
    const items = (list: any[]) => list.map((i) => [i.relationshipType, i.isPrimary, i.code.code, i.code.term, i.code.level]);
    expect(rest.parents.map((i: any) => [i.relationshipType, i.isPrimary, i.code, i.term, i.level])).toEqual(items(gql.parents));
    expect(rest.children.map((i: any) => [i.relationshipType, i.isPrimary, i.code, i.term, i.level])).toEqual(items(gql.children));
  });

  it.each(['q=headache', 'q=diarhea&level=PT', 'q=pain&soc=10017947', 'level=HLT&page=2&limit=5'])('GET /codes?%s = codes', async (qs) => {
    const rest = (await t.json(`/codes?${qs}`)).body;
    const p = new URLSearchParams(qs);
    const limit = Number(p.get('limit') ?? 20);
    const page = Number(p.get('page') ?? 1);
    const all = (
      await t.graphql(
        `query($q: String, $level: Level, $soc: String, $first: Int) { codes(q: $q, level: $level, soc: $soc, first: $first) {
          totalCount edges { node { code { code term level } match { term type } } } } }`,
        { q: p.get('q'), level: p.get('level'), soc: p.get('soc'), first: page * limit },
      )
    ).body.data.codes;
    expect(rest.meta.total).toBe(all.totalCount);
    expect(rest.results.map((r: any) => [r.code, r.term, r.level, r.match?.term ?? null, r.match?.type ?? null])).toEqual(
      all.edges.slice((page - 1) * limit).map(({ node: n }: any) => [n.code.code, n.code.term, n.code.level, n.match?.term ?? null, n.match?.type ?? null]),
    );
  });

  it('errors carry the same code both ways', async () => {
    const rest = (await t.json('/codes/12345678')).body;
    const gql = (await t.graphql('{ code(code: "12345678") { term } }')).body;
    expect(rest.code).toBe('CODE_NOT_FOUND');
    expect(gql.errors[0].extensions.code).toBe('CODE_NOT_FOUND');
    expect(gql.errors[0].message).toBe(rest.detail);
    const v = (await t.graphql('{ code(code: "10047700", version: "0.1") { term } }')).body;
    expect(v.errors[0].extensions.code).toBe('VERSION_NOT_FOUND');
    const syntax = await t.graphql('{ code(code: ');
    expect(syntax.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    const unknown = await t.graphql('{ nope }');
    expect(unknown.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
  });

  it('GraphQL refuses queries over the depth or complexity limit', async () => {
    const deep = `{ code(code: "10017947") { ${'children { code { '.repeat(8)} code ${'} } '.repeat(8)} } }`;
    const r = await t.graphql(deep);
    expect(r.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(r.body.errors[0].message).toMatch(/depth|complexity/i);
    const wide = await t.graphql('{ codes(first: 200) { edges { node { code { synonyms(first: 200) { edges { node { children { code { code } } } } } } } } } }');
    expect(wide.body.errors[0].message).toMatch(/complexity .* exceeds/);
  });

  it('relay global ids resolve through node()', async () => {
    const r = await t.graphql('{ code(code: "10047700", version: "5.0") { id term } version(version: "4.03") { id } }');
    const { id, term } = r.body.data.code;
    const n = await t.graphql('query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Code { term level release { version } } ... on Version { version } } }', { ids: [id, r.body.data.version.id] });
    expect(n.body.data.nodes).toEqual([
      { id, term, level: 'PT', release: { version: '5.0' } },
      { id: r.body.data.version.id, version: '4.03' },
    ]);
  });

  it('GraphQL responses name the release they read', async () => {
    const r = await t.graphql('{ code(code: "10047700") { term } }', undefined, { 'X-Terminology-Version': '4.03' });
    expect(r.headers.get('x-terminology-version')).toBe('4.03');
  });
});
