// The narrative endpoints' SQL on a warm release: the API-key check on the caller's path and
// the audit insert behind the response, nothing else. Predictions' concepts and primary paths
// come from the release's in-memory index, which the first classify request starts building;
// the answers are the same as when they come from the database.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { TEST_ENV } from '../helpers/app.ts';
import { createApp, type App } from '../../src/http/app.ts';
import { createLogger } from '../../src/logger.ts';
import { loadConfig } from '../../src/config.ts';
import { compose, type Composition } from '../../src/compose.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';
import { AssessmentService } from '../../src/assessment/service.ts';
import { AuditLog } from '../../src/assessment/audit.ts';
import { InlineEngine, type CodingEngine } from '../../src/assessment/engine.ts';
import { VocabularyCache } from '../../src/assessment/vocabularyCache.ts';
import type { EngineTask } from '../../src/assessment/engineTasks.ts';

let db: TestDatabase;
let composed: Composition;
let app: App;
let key: string;
const queries: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ onQuery: (sql) => queries.push(sql), template: 'demo' });
  const config = loadConfig(TEST_ENV);
  composed = compose(config, db, createLogger(config.logLevel), { catalogTtlMs: 600_000 });
  app = createApp(composed.services, composed.appOptions);
  key = (await createApiKey(db.prisma, 'hot path')).key;
});
afterAll(async () => {
  await composed?.close();
  await db?.cleanup();
});

async function post(path: string, body: unknown) {
  const res = await app.fetch(new Request(`http://test${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(body) }));
  const json = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(json)).toBe(200);
  // requestId differs per request; everything else is the answer.
  const { requestId: _id, ...rest } = json;
  return rest;
}

/** The statements one request runs: before its response, and behind it (the audit write). */
async function statementsOf(f: () => Promise<unknown>): Promise<{ answer: unknown; before: string[]; behind: string[] }> {
  await composed.services.assessment.flush();
  queries.length = 0;
  const answer = await f();
  const before = [...queries];
  await composed.services.assessment.flush();
  return { answer, before, behind: queries.slice(before.length) };
}

const classifyBody = { description: 'The patient developed severe nausea and a skin rash after the second dose; she was hospitalised.', assessments: { seriousness: { enabled: true }, severity: { enabled: true } } };
const identifyBody = { description: 'Two days after starting the drug she had a headache. Later she vomited twice and was dizzy.' };

describe('narrative hot path', () => {
  it('the first request starts building the release index; then nothing but the key lookup runs before the answer, the audit insert behind it, and the answer is unchanged', async () => {
    const latest = (await composed.services.catalog.latest())!;
    const indexes = composed.services.catalog.searchIndexes;
    expect(indexes.peek(latest.id)).toBeUndefined();

    const cold = await statementsOf(() => post('/classify', classifyBody));
    // Built in the background by the first classify request, without any search.
    await vi.waitFor(() => expect(indexes.peek(latest.id)).toBeDefined(), { timeout: 20_000, interval: 20 });

    const warm = await statementsOf(() => post('/classify', classifyBody));
    expect(warm.answer).toEqual(cold.answer);
    expect((warm.answer as { results: { terminologyCodes: unknown[] } }).results.terminologyCodes.length).toBeGreaterThan(0);
    // Nothing but the API-key lookup (which the key cache may already answer: src/domain/apiKeys.ts).
    expect(warm.before.filter((s) => !/api_key/.test(s))).toEqual([]);
    expect(warm.behind).toHaveLength(1);
    expect(warm.behind[0]).toMatch(/^INSERT INTO "public"\."audit_record"/);

    const identify = await statementsOf(() => post('/identify', identifyBody));
    expect(identify.before.filter((s) => !/api_key/.test(s))).toEqual([]);
    expect(identify.behind).toHaveLength(1);
  });

  it('GraphQL classify on a warm release reads no concept or hierarchy rows either', async () => {
    const query = 'query($d: String!) { classify(input: { description: $d }) { version terminologyCodes { confidence code { code term primaryPath { nodes { code term } } } matchedTerm { code term } } } }';
    const run = async () => {
      const res = await app.fetch(
        new Request('http://test/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': key }, body: JSON.stringify({ query, variables: { d: classifyBody.description } }) }),
      );
      const body = (await res.json()) as { data?: unknown; errors?: unknown };
      expect(body.errors).toBeUndefined();
      return body.data;
    };
    const { answer, before } = await statementsOf(run);
    expect((answer as { classify: { terminologyCodes: unknown[] } }).classify.terminologyCodes.length).toBeGreaterThan(0);
    expect(before.filter((s) => !/api_key/.test(s))).toEqual([]);
  });

  it('without a model the engine scores only the codes asked for, and they are the top of the longer list', async () => {
    const inline = new InlineEngine(new VocabularyCache(db.prisma));
    const tasks: EngineTask[] = [];
    const recording: CodingEngine = { run: (id, task) => (tasks.push(task), inline.run(id, task)), close: async () => {} };
    const service = new AssessmentService(new VocabularyCache(db.prisma), new AuditLog(db.prisma, false, createLogger('silent')), null, recording);
    const release = (await composed.services.catalog.latest())!;
    const info = { requestId: 'limit', endpoint: 'classify', apiKeyId: null, release, text: classifyBody.description };
    const three = await service.classify(info, { terminology: true, seriousness: true, severity: ['5-level'], limit: 3 });
    expect(tasks).toMatchObject([{ op: 'classify', limit: 3 }]);
    const long = await inline.run(release.id, { op: 'classify', text: info.text, limit: 15, seriousness: true, severity: ['5-level'] });
    expect(long.codes.length).toBeGreaterThan(3);
    expect(three.value.terminologyCodes).toEqual(long.codes.slice(0, 3));
    expect(three.value.severity).toEqual(long.severity);
    expect(three.value.seriousness).toEqual(long.seriousness);
    await service.flush();
  });
});
