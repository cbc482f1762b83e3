// The narrative endpoints through real HTTP against the demo releases: keys, validation,
// shapes, negation, multiple events, lay language, seriousness, severity, labels, audit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, serveTestApp, type TestApp } from '../helpers/app.ts';
import { createApiKey, revokeApiKey } from '../../src/domain/apiKeys.ts';
import { AI_NOTICE } from '../../src/assessment/notice.ts';

let t: TestApp;
let base: string;
let key: string;

serveTestApp(async (app, url) => {
  t = app;
  base = url;
  key = (await createApiKey(t.db.prisma, 'tests')).key;
});

async function post(path: string, body: unknown, headers: Record<string, string> = { 'X-API-Key': key }) {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

describe('identify: where each event is named', () => {
  it('GraphQL EventStatement.mentions are the matched words, every mention merged into the event, as offsets into the narrative; REST /identify is unchanged', async () => {
    const text = 'Two days after the second dose the patient vomited repeatedly; no rash. The next morning she vomited again and complained of a pounding headache.';
    const g = await t.graphql('query($d: String!) { identify(description: $d) { events(first: 10) { edges { node { description reasons mentions { start end text } } } } } }', { d: text }, { 'X-API-Key': key });
    expect(g.body.errors).toBeUndefined();
    const events = g.body.data.identify.events.edges.map((e: any) => e.node);
    expect(events.map((e: any) => e.mentions.map((m: any) => m.text))).toEqual([['vomited', 'vomited'], ['headache']]);
    for (const e of events) for (const m of e.mentions) expect(text.slice(m.start, m.end)).toBe(m.text);
    expect(events[0].mentions[1].start).toBeGreaterThan(events[0].mentions[0].end);
    // The clause is still quoted among the reasons: the mentions are the narrower evidence.
    expect(events[1].reasons.some((r: string) => r.length > 'headache'.length && r.includes('headache'))).toBe(true);
    const rest = await post('/identify', { description: text });
    expect(rest.status).toBe(200);
    expect(Object.keys(rest.body.results[0]).sort()).toEqual(['confidence', 'description', 'reasons']);
  });
});

describe('API keys', () => {
  it.each(['/identify', '/classify', '/labels/classify'])('%s needs a valid key: 401 with the error object', async (path) => {
    const none = await post(path, { description: 'nausea' }, {});
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: 'UNAUTHORIZED', status: 401, type: '/problems/unauthorized' });
    expect(none.body.requestId).toBe(none.headers.get('x-request-id'));
    // Authentication comes before validation: a keyless caller learns nothing about payload rules.
    expect((await post(path, { bogus: true }, {})).status).toBe(401);
    expect((await post(path, { description: 'nausea' }, { 'X-API-Key': 'sk-wrongwrongwrongwrongwrongwrong' })).status).toBe(401);
    expect((await post(path, { description: 'nausea' }, { 'X-API-Key': 'not-a-key' })).status).toBe(401);
  });

  it('a revoked key stops working; GraphQL fields need the key too', async () => {
    const { key: k, info } = await createApiKey(t.db.prisma, 'short-lived');
    expect((await post('/classify', { description: 'nausea' }, { 'X-API-Key': k })).status).toBe(200);
    await revokeApiKey(t.db.prisma, info.id);
    expect((await post('/classify', { description: 'nausea' }, { 'X-API-Key': k })).status).toBe(401);
    const g = await t.graphql('{ classify(input: { description: "nausea" }) { version } }');
    expect(g.body.errors[0].extensions.code).toBe('UNAUTHORIZED');
    const ok = await t.graphql('{ classify(input: { description: "nausea" }) { version notice terminologyCodes { code { term } } } }', undefined, { 'X-API-Key': key });
    expect(ok.body.data.classify.terminologyCodes[0].code.term).toBe('Nausea');
  });
});

describe('POST /identify', () => {
  it('splits a narrative into events, excludes negated findings, quotes evidence, never returns codes', async () => {
    const r = await post('/identify', {
      description: 'Two days after the second dose the patient vomited repeatedly and was admitted overnight; no rash. She also complained of a pounding headache the next morning. History of migraine.',
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ai-notice')).toBe(AI_NOTICE);
    expect(r.body).toMatchObject({ version: '5.0.1', notice: AI_NOTICE, provider: 'lexical', requestId: r.headers.get('x-request-id') });
    const events = r.body.results as { description: string; reasons: string[]; confidence: number }[];
    const text = events.map((e) => e.description.toLowerCase()).join(' | ');
    expect(text).toContain('vomit');
    expect(text).toContain('headache');
    expect(text).not.toContain('rash');
    expect(text).not.toContain('migraine');
    for (const e of events) {
      expect(e.confidence).toBeGreaterThan(0);
      expect(e.confidence).toBeLessThanOrEqual(1);
      expect(e.reasons.length).toBeGreaterThan(0);
    }
    expect(JSON.stringify(r.body.results)).not.toMatch(/\b\d{8}\b/);
    expect(r.body.meta).toMatchObject({ page: 1, limit: 20, total: events.length });
  });

  it('pages with options.page/limit and validates them', async () => {
    const description = 'Fever on day 1. Vomiting on day 2. Diarrhoea on day 3. Rash on day 4.';
    const all = await post('/identify', { description });
    expect(all.body.results.length).toBeGreaterThanOrEqual(3);
    const p2 = await post('/identify', { description, options: { page: 2, limit: 1 } });
    expect(p2.body.results).toEqual([all.body.results[1]]);
    expect(p2.body.meta).toMatchObject({ page: 2, limit: 1, previous: '?page=1&limit=1' });
    for (const options of [{ page: 0 }, { limit: 0 }, { limit: 101 }, { page: 1.5 }, { size: 3 }]) {
      const bad = await post('/identify', { description, options });
      expect(bad.status, JSON.stringify(options)).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('meta.next and meta.previous are links a client follows: the same body POSTed to them gives the next page', async () => {
    const description = 'Fever on day 1. Vomiting on day 2. Diarrhoea on day 3. Rash on day 4.';
    const all = await post('/identify', { description });
    const first = await post('/identify', { description, options: { limit: 1 } });
    expect(first.body.meta.next).toBe('?page=2&limit=1');
    const second = await post(`/identify${first.body.meta.next}`, { description, options: { limit: 1 } });
    expect(second.status).toBe(200);
    expect(second.body.results).toEqual([all.body.results[1]]);
    const back = await post(`/identify${second.body.meta.previous}`, { description });
    expect(back.body.results).toEqual([all.body.results[0]]);
    for (const q of ['?page=0', '?limit=101', '?foo=1']) {
      const bad = await post(`/identify${q}`, { description });
      expect(bad.status, q).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_ERROR');
    }
    for (const path of ['/classify?foo=1', '/labels/classify?foo=1']) {
      const bad = await post(path, { description });
      expect(bad.status, path).toBe(400);
      expect(bad.body.errors).toHaveProperty('foo');
    }
  });

  it.each([
    [{}, 'description'],
    [{ description: '' }, 'description'],
    [{ description: 42 }, 'description'],
    [{ description: 'x', extra: 1 }, 'extra'],
    [{ description: 'x'.repeat(100_001) }, 'description'],
  ])('rejects %j', async (body, field) => {
    const r = await post('/identify', body);
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.errors)).toContain(field);
  });

  it('malformed JSON is a VALIDATION_ERROR', async () => {
    const r = await post('/identify', '{"description": ');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('POST /classify', () => {
  it('codes lay language to the right PT, with the matched LLT, confidence, reasons and hierarchy', async () => {
    const r = await post('/classify', { description: 'The patient kept throwing up all night' });
    expect(r.status).toBe(200);
    const top = r.body.results.terminologyCodes[0];
    expect(top.value).toEqual({ code: '10047700', term: 'Vomiting', level: 'PT' });
    expect(top.matchedTerm).toMatchObject({ term: 'Throwing up', level: 'LLT' });
    expect(top.confidence).toBeGreaterThan(0.5);
    expect(top.reasons.length).toBeGreaterThan(0);
    expect(top.hierarchy.map((n: any) => n.level)).toEqual(['SOC', 'HLGT', 'HLT', 'PT']);
    expect(r.body.results.seriousness).toBeUndefined();
    expect(r.body.results.severity).toBeUndefined();
  });

  it('tolerates typos and ignores negated findings', async () => {
    expect((await post('/classify', { description: 'severe diarhea' })).body.results.terminologyCodes[0].value.term).toBe('Diarrhea');
    const neg = await post('/classify', { description: 'Denies chest pain; complains of nausea' });
    const terms = neg.body.results.terminologyCodes.map((c: any) => c.value.term);
    expect(terms[0]).toBe('Nausea');
    expect(terms).not.toContain('Chest pain - cardiac');
  });

  it('terminology can be disabled', async () => {
    const r = await post('/classify', { description: 'nausea', assessments: { terminology: { enabled: false }, seriousness: { enabled: true } } });
    expect(r.body.results.terminologyCodes).toEqual([]);
    expect(r.body.results.seriousness).toBeDefined();
  });

  it.each([
    ['The patient died of sepsis two days later.', 'death'],
    ['This was a life-threatening anaphylactic reaction.', 'life_threatening'],
    ['She was hospitalised for three days with dehydration.', 'hospitalization'],
    ['The stroke left him with permanent disability and unable to work.', 'disability'],
    ['The infant was born with a congenital heart defect after in utero exposure.', 'congenital_anomaly'],
    ['Required emergency treatment to prevent a seizure; considered medically important.', 'medically_important'],
  ])('seriousness: %s → %s', async (description, criterion) => {
    const r = await post('/classify', { description, assessments: { seriousness: { enabled: true } } });
    const s = r.body.results.seriousness;
    expect(s.serious).toBe(true);
    expect(s.criteria[criterion].met).toBe(true);
    expect(s.criteria[criterion].reasons.length).toBeGreaterThan(0);
    expect(Object.keys(s.criteria).sort()).toEqual(['congenital_anomaly', 'death', 'disability', 'hospitalization', 'life_threatening', 'medically_important']);
  });

  it('a non-serious event meets no criterion', async () => {
    const s = (await post('/classify', { description: 'Mild headache that resolved without treatment.', assessments: { seriousness: { enabled: true } } })).body.results.seriousness;
    expect(s.serious).toBe(false);
    expect(Object.values(s.criteria).every((c: any) => c.met === false)).toBe(true);
  });

  it.each([
    ['grade 3 diarrhoea', 3, 'severe'],
    ['mild nausea', 1, 'mild'],
    ['moderate headache', 2, 'moderate'],
    ['severe vomiting', 3, 'severe'],
    ['vomiting that required IV fluids', 2, null],
    ['hospitalised for vomiting', 3, 'severe'],
    ['life-threatening anaphylaxis', 4, 'severe'],
    ['the patient died of respiratory failure', 5, 'severe'],
  ])('severity cue: %s → CTCAE grade %i', async (description, grade, simple) => {
    const r = await post('/classify', { description, assessments: { severity: { enabled: true, systems: ['5-level', '3-level'] } } });
    const sev = r.body.results.severity;
    expect(sev.ctcae.value.grade).toBe(grade);
    expect(sev.ctcae.value.label).toEqual(expect.any(String));
    expect(sev.ctcae.reasons.length).toBeGreaterThan(0);
    if (simple) expect(sev.simple.value.grade).toBe(simple);
  });

  it('only the requested severity systems are assessed; unknown systems are rejected', async () => {
    const five = await post('/classify', { description: 'severe nausea', assessments: { severity: { enabled: true, systems: ['5-level'] } } });
    expect(Object.keys(five.body.results.severity)).toEqual(['ctcae']);
    const three = await post('/classify', { description: 'severe nausea', assessments: { severity: { enabled: true, systems: ['3-level'] } } });
    expect(Object.keys(three.body.results.severity)).toEqual(['simple']);
    const bad = await post('/classify', { description: 'x', assessments: { severity: { enabled: true, systems: ['4-level'] } } });
    expect(bad.status).toBe(400);
    expect((await post('/classify', { description: 'x', assessments: { mood: {} } })).status).toBe(400);
  });

  it('release selection: version beats assessments.terminology.version beats the header', async () => {
    expect((await post('/classify', { description: 'nausea', version: '4.03', assessments: { terminology: { version: '5.0' } } })).body.version).toBe('4.03');
    expect((await post('/classify', { description: 'nausea', assessments: { terminology: { version: '5.0' } } }, { 'X-API-Key': key, 'X-Terminology-Version': '4.03' })).body.version).toBe('5.0');
    expect((await post('/classify', { description: 'nausea' }, { 'X-API-Key': key, 'X-Terminology-Version': '4.03' })).body.version).toBe('4.03');
    const unknown = await post('/classify', { description: 'nausea', version: '9.9' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('VERSION_NOT_FOUND');
  });
});

describe('POST /labels/classify', () => {
  const label = [
    'BOXED WARNING: HEPATOTOXICITY',
    'Severe liver injury has occurred.',
    '',
    '5 WARNINGS AND PRECAUTIONS',
    '5.1 Neutropenia',
    'Febrile neutropenia occurred in 3% of patients.',
    '',
    '6 ADVERSE REACTIONS',
    'The most common adverse reactions (>10%) were nausea, vomiting, diarrhea and fatigue.',
    '  * Headache (12%)',
    '  * Rash maculo-papular (5%)',
    'No cases of pancreatitis were reported.',
  ].join('\n');

  it('codes every listed reaction with exact snippet offsets and sections; skips negated ones', async () => {
    const r = await post('/labels/classify', { description: label, minConfidence: 0 });
    expect(r.status).toBe(200);
    const codes = r.body.results.terminologyCodes as any[];
    const terms = codes.map((c) => c.value.term);
    for (const t of ['Nausea', 'Vomiting', 'Diarrhea', 'Fatigue', 'Headache', 'Febrile neutropenia']) expect(terms, t).toContain(t);
    expect(terms).not.toContain('Pancreatitis');
    for (const c of codes) {
      expect(c.rawScore).toEqual(expect.any(Number));
      expect(c.supportingSnippets.length).toBeGreaterThan(0);
      for (const s of c.supportingSnippets) {
        expect(label.slice(s.start, s.end)).toBe(s.text);
        expect(s.section).toEqual(expect.any(String));
      }
    }
    const fn = codes.find((c) => c.value.term === 'Febrile neutropenia');
    expect(fn.supportingSnippets[0].section).toMatch(/WARNINGS AND PRECAUTIONS/);
  });

  it('honours maxResults and minConfidence, and validates them', async () => {
    const one = await post('/labels/classify', { description: label, maxResults: 1, minConfidence: 0 });
    expect(one.body.results.terminologyCodes).toHaveLength(1);
    const strict = await post('/labels/classify', { description: label, minConfidence: 0.99 });
    expect(strict.body.results.terminologyCodes.every((c: any) => c.confidence >= 0.99)).toBe(true);
    for (const body of [{ description: label, maxResults: 0 }, { description: label, maxResults: 101 }, { description: label, minConfidence: 1.5 }, { description: '' }, { description: label, maxResults: 'ten' }]) {
      expect((await post('/labels/classify', body)).status, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
  });

  it('each snippet shows its context and evidence span; dropped candidates are listed on request', async () => {
    const text = 'EXAMPLAR is indicated for the treatment of hypertension. Nausea occurred in 5% of patients. In rats, seizures were seen.';
    const r = await post('/labels/classify', { description: text, minConfidence: 0, includeExcluded: true });
    expect(r.status).toBe(200);
    const codes = r.body.results.terminologyCodes as any[];
    expect(codes.map((c) => c.value.term)).toEqual(['Nausea']);
    const s = codes[0].supportingSnippets[0];
    expect(s.context).toBe('adverse_event');
    expect(text.slice(s.mention.start, s.mention.end)).toBe(s.mention.text);
    expect(r.body.results.sectionType).toBe('indications');
    expect(r.body.results.sectionTypeSource).toBe('text');
    const excluded = Object.fromEntries((r.body.results.excluded as any[]).map((e) => [e.mention.text.toLowerCase(), e.context]));
    expect(excluded).toMatchObject({ hypertension: 'indication', seizures: 'animal' });
    // Without includeExcluded nothing is listed; asking for indications codes the treated condition.
    const plain = await post('/labels/classify', { description: text, minConfidence: 0 });
    expect(plain.body.results.excluded).toEqual([]);
    const asked = await post('/labels/classify', { description: text, minConfidence: 0, contexts: ['adverse_event', 'indication'] });
    const hyp = (asked.body.results.terminologyCodes as any[]).find((c) => c.value.term === 'Hypertension');
    expect(hyp.supportingSnippets[0].context).toBe('indication');
  });

  it('takes an optional sectionType and reports where the type came from; bad values are a 400 with a clear message', async () => {
    const typed = await post('/labels/classify', { description: 'Nausea occurred in 5% of patients.', sectionType: 'clinical_studies', minConfidence: 0 });
    expect(typed.status).toBe(200);
    expect(typed.body.results).toMatchObject({ sectionType: 'clinical_studies', sectionTypeSource: 'request' });
    expect(typed.body.results.terminologyCodes[0].supportingSnippets[0].section).toBe('CLINICAL STUDIES');
    const headed = await post('/labels/classify', { description: label, minConfidence: 0 });
    expect(headed.body.results).toMatchObject({ sectionType: 'boxed_warning', sectionTypeSource: 'heading' });
    const bad = await post('/labels/classify', { description: label, sectionType: 'pharmacology' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/problem\+json|json/);
    expect(JSON.stringify(bad.body)).toMatch(/sectionType must be one of adverse_reactions/);
    const badCtx = await post('/labels/classify', { description: label, contexts: ['adverse_event', 'rumour'] });
    expect(badCtx.status).toBe(400);
    expect(JSON.stringify(badCtx.body)).toMatch(/contexts must be among/);
    const g = await t.graphql(
      `query($d: String!) { classifyLabel(input: { description: $d, sectionType: OVERDOSAGE, contexts: [ADVERSE_EVENT, OVERDOSE], includeExcluded: true, minConfidence: 0 }) {
        sectionType sectionTypeSource terminologyCodes { code { term } supportingSnippets { context mention { text start end } } } excluded { ptCode context } } }`,
      { d: 'Overdosage may cause dizziness.' },
      { 'X-API-Key': key },
    );
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.classifyLabel).toMatchObject({ sectionType: 'OVERDOSAGE', sectionTypeSource: 'request' });
    expect(g.body.data.classifyLabel.terminologyCodes[0]).toMatchObject({ code: { term: 'Dizziness' }, supportingSnippets: [{ context: 'OVERDOSE', mention: { text: 'dizziness' } }] });
    const gEmpty = await t.graphql('{ classifyLabel(input: { description: "nausea", contexts: [] }) { version } }', undefined, { 'X-API-Key': key });
    expect(gEmpty.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    const none = await post('/labels/classify', { description: label, contexts: [] });
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toMatch(/at least one context/);
  });
});

describe('audit', () => {
  it('records every narrative request without its text by default', async () => {
    const r = await post('/classify', { description: 'zanzibar sentinel nausea' });
    await t.flushAudit();
    const rec = await t.db.prisma.auditRecord.findFirst({ where: { requestId: r.body.requestId } });
    expect(rec).toMatchObject({ endpoint: 'classify', release: '5.0.1', provider: 'lexical', status: 200, text: null });
    expect(rec!.latencyMs).toBeGreaterThanOrEqual(0);
    expect(rec!.apiKeyId).toEqual(expect.any(String));
  });
});

// One app with both operator settings, over the file's database (an app is a coding engine of its
// own to build, a database of its own would be another PGlite start). The audit opt-in goes first and through POST /labels/classify: the limit counts per field
// (classifyLabel is not one the limit test uses), and in-process requests share one client.
describe('operator settings: the per-field AI rate limit, the audit opt-in', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ over: t, env: { AI_RATE_LIMIT_PER_MINUTE: '2', AUDIT_STORE_TEXT: 'true' } });
  });
  afterAll(async () => {
    await limited?.cleanup();
  });

  it('stores the narrative only when the operator opts in (AUDIT_STORE_TEXT)', async () => {
    const k = (await createApiKey(limited.db.prisma, 'audit')).key;
    const res = await limited.request('/labels/classify', { method: 'POST', headers: { 'content-type': 'application/json', 'X-API-Key': k }, body: JSON.stringify({ description: 'The patient vomited twice.' }) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    await limited.flushAudit();
    const rec = await limited.db.prisma.auditRecord.findFirst({ where: { requestId: body.requestId } });
    expect(rec).toMatchObject({ status: 200, text: 'The patient vomited twice.' });
  });

  it('limits the AI fields per client on top of the global limit, with the documented error', async () => {
    const k = (await createApiKey(limited.db.prisma, 'rl')).key;
    const call = () =>
      limited.request('/classify', { method: 'POST', headers: { 'content-type': 'application/json', 'X-API-Key': k }, body: JSON.stringify({ description: 'nausea' }) });
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200);
    const third = await call();
    expect(third.status).toBe(429);
    const body = (await third.json()) as any;
    expect(body).toMatchObject({ code: 'RATE_LIMITED', limit: 2, retryAfter: 60 });
    expect(third.headers.get('retry-after')).toBe('60');
    // Catalog reads are not affected.
    expect((await limited.request('/versions')).status).toBe(200);
    // The GraphQL field over its limit: the same documented code, not an internal error.
    const query = '{ identify(description: "vomit", version: "5.0.1") { provider } }';
    expect((await limited.graphql(query, undefined, { 'X-API-Key': k })).body.data.identify.provider).toBe('lexical');
    expect((await limited.graphql(query, undefined, { 'X-API-Key': k })).body.errors).toBeUndefined();
    const over = await limited.graphql(query, undefined, { 'X-API-Key': k });
    expect(over.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', status: 429, limit: 2, retryAfter: 60 });
    // Behind an alias inside a fragment it is the same field and the same limit (the plugin
    // runs only for documents naming a limited field: src/graphql/narrativeRateLimit.ts).
    const hidden = '{ ...F } fragment F on Query { a: identify(description: "vomit", version: "5.0.1") { provider } }';
    expect((await limited.graphql(hidden, undefined, { 'X-API-Key': k })).body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED' });
  });
});
