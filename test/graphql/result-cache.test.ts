// Whole GraphQL results are replayed for repeated catalog queries (releases are
// immutable) — never for the AI fields, and never across a change of latest release.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { miniSpec, writeFixture } from '../helpers/medascii.ts';
import { importRelease } from '../../src/importer/import.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ fixtures: [miniSpec('1.0')] });
}, 120_000);
afterAll(async () => {
  await t?.cleanup();
});

const TREE = `query Tree($code: String!) { code(code: $code) { term children { code { term children { code { term children { code { term } } } } } } } }`;

describe('GraphQL result cache', () => {
  it('answers a repeated query without SQL, same body and release header; other variables run', async () => {
    const first = await t.graphql(TREE, { code: '10017947' });
    expect(first.body.errors).toBeUndefined();
    expect(first.headers.get('x-terminology-version')).toBe('1.0');
    t.queries.length = 0;
    const again = await t.graphql(TREE, { code: '10017947' });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('x-terminology-version')).toBe('1.0');
    expect(t.queries.filter((q) => !q.includes('"release"'))).toEqual([]);
    // No internal extension leaks into the body.
    expect(JSON.stringify(again.body)).not.toContain('X-Terminology-Version');
    const other = await t.graphql(TREE, { code: '10029205' });
    expect(other.body.data.code.term).toBe('Nervous system disorders');
    expect(t.queries.some((q) => q.includes('concept'))).toBe(true);
  });

  it('never caches errors or the AI fields', async () => {
    const bad = await t.graphql(TREE, { code: '99999999' });
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('CODE_NOT_FOUND');
    t.queries.length = 0;
    await t.graphql(TREE, { code: '99999999' });
    expect(t.queries.some((q) => q.includes('concept'))).toBe(true);

    const { key } = await createApiKey(t.db.prisma, 'cache-test');
    const q = '{ classify(input: { description: "nausea and vomiting" }) { requestId } }';
    const a = await t.graphql(q, undefined, { 'X-API-Key': key });
    const b = await t.graphql(q, undefined, { 'X-API-Key': key });
    expect(a.body.errors).toBeUndefined();
    expect(b.body.data.classify.requestId).not.toBe(a.body.data.classify.requestId);
    // Both calls were authenticated and audited.
    await t.flushAudit();
    const audited = await t.db.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM audit_record WHERE request_id IN ($1, $2)`, a.body.data.classify.requestId, b.body.data.classify.requestId);
    expect(audited[0]!.n).toBe(2);
    // Without the key the cached path is never reached either.
    expect((await t.graphql(q)).body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
  });

  it('a newly imported latest release is never hidden by a cached result', async () => {
    const q = '{ code(code: "10047700") { term } }';
    expect((await t.graphql(q)).body.data.code.term).toBe('Vomiting');
    const spec = miniSpec('2.0');
    spec.pts[0]![1] = 'Vomiting (renamed)';
    await importRelease(t.db, writeFixture(spec));
    const after = await t.graphql(q);
    expect(after.body.data.code.term).toBe('Vomiting (renamed)');
    expect(after.headers.get('x-terminology-version')).toBe('2.0');
    // The header selects a release: part of the key.
    expect((await t.graphql(q, undefined, { 'X-Terminology-Version': '1.0' })).body.data.code.term).toBe('Vomiting');
  });
});
