// The `openai` provider against a local OpenAI-compatible server started by the test:
// request shape, grounding in the release, and fallback to the lexical engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';
import { rowsAt } from '../helpers/releaseRows.ts';

type Mode = 'choose-second' | 'ungrounded' | 'malformed' | 'rate-limit' | 'hang' | 'server-error' | 'events';
let mode: Mode = 'choose-second';
const requests: { url: string; auth: string | undefined; body: any }[] = [];
let llm: Server;
let t: TestApp;
let key: string;

function reply(res: import('node:http').ServerResponse, content: string) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({
    id: 'chatcmpl-test', object: 'chat.completion', created: 0, model: 'test-model',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
  }));
}

async function read(req: IncomingMessage): Promise<any> {
  let s = '';
  for await (const chunk of req) s += chunk;
  return JSON.parse(s);
}

beforeAll(async () => {
  llm = createServer(async (req, res) => {
    const body = await read(req);
    requests.push({ url: req.url ?? '', auth: req.headers.authorization, body });
    const schema = body.response_format?.json_schema?.schema;
    switch (mode) {
      case 'choose-second': {
        const codes: string[] = schema.properties.codes.items.properties.code.enum;
        return reply(res, JSON.stringify({ codes: [{ code: codes[1], confidence: 0.9, reasons: ['model: best fit'] }, { code: codes[0], confidence: 0.3, reasons: ['model: possible'] }] }));
      }
      case 'ungrounded':
        return reply(res, JSON.stringify({ codes: [{ code: '99999999', confidence: 0.99, reasons: ['invented'] }] }));
      case 'malformed':
        return reply(res, 'Sure! Here are the codes: Vomiting');
      case 'rate-limit':
        res.writeHead(429, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests' } }));
      case 'server-error':
        res.writeHead(500, { 'content-type': 'application/json' });
        return res.end('{"error":{"message":"boom"}}');
      case 'hang':
        return; // never answers
      case 'events': {
        const narrative: string = JSON.parse(body.messages[1].content).narrative;
        return reply(res, JSON.stringify({ events: [
          { description: 'The patient vomited repeatedly.', reasons: [narrative.slice(narrative.indexOf('vomited'), narrative.indexOf('vomited') + 18)], confidence: 0.95 },
          { description: 'Invented event.', reasons: ['text that is not in the narrative'], confidence: 0.9 },
        ] }));
      }
    }
  });
  await new Promise<void>((r) => llm.listen(0, '127.0.0.1', () => r()));
  const port = (llm.address() as AddressInfo).port;
  t = await createTestApp({ env: { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_API_KEY: 'upstream-secret', OPENAI_MODEL: 'test-model', OPENAI_TIMEOUT_MS: '600' } });
  key = (await createApiKey(t.db.prisma, 'llm-tests')).key;
});
afterAll(async () => {
  llm?.closeAllConnections();
  await new Promise((r) => llm?.close(r));
  await t?.cleanup();
});

async function classify(description: string) {
  const res = await t.request('/classify', { method: 'POST', headers: { 'content-type': 'application/json', 'X-API-Key': key }, body: JSON.stringify({ description }) });
  return { status: res.status, body: (await res.json()) as any };
}

describe('openai provider', () => {
  it('sends a structured-output request whose schema only admits the lexical candidates, and follows the model’s choice', async () => {
    mode = 'choose-second';
    requests.length = 0;
    const lexical = await t.graphql('{ codes(q: "x", first: 1) { totalCount } }'); // warm
    expect(lexical.status).toBe(200);
    const r = await classify('The patient kept throwing up and felt queasy');
    expect(r.status).toBe(200);
    expect(r.body.provider).toBe('openai');
    expect(r.body.fallbackReason).toBeNull();
    const req = requests.at(-1)!;
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.auth).toBe('Bearer upstream-secret');
    expect(req.body.model).toBe('test-model');
    expect(req.body.response_format.type).toBe('json_schema');
    expect(req.body.response_format.json_schema.strict).toBe(true);
    const allowed: string[] = req.body.response_format.json_schema.schema.properties.codes.items.properties.code.enum;
    const user = JSON.parse(req.body.messages[1].content);
    expect(user.description).toBe('The patient kept throwing up and felt queasy');
    expect(user.candidates.map((c: any) => c.code)).toEqual(allowed);
    // Every candidate is a PT of the selected release.
    for (const code of allowed) {
      expect((await rowsAt(t.db.prisma, 'concept', '5.0.1', "t.level = 'PT' AND t.code = $2", Number(code))).length).toBe(1);
    }
    const top = r.body.results.terminologyCodes.map((c: any) => c.value.code);
    expect(top.slice(0, 2)).toEqual([allowed[1], allowed[0]]);
    expect(r.body.results.terminologyCodes[0].reasons).toContain('model: best fit');
  });

  it.each([
    ['ungrounded', /not among the release's candidates/],
    ['malformed', /malformed JSON/],
    ['rate-limit', /rate limited/],
    ['server-error', /HTTP 500/],
    ['hang', /timed out/],
  ] as const)('falls back to the lexical result when the model output is %s', async (m, reason) => {
    mode = m;
    const started = Date.now();
    const r = await classify('The patient kept throwing up');
    expect(r.status).toBe(200);
    expect(r.body.provider).toBe('lexical');
    expect(r.body.fallbackReason).toMatch(reason);
    expect(r.body.results.terminologyCodes[0].value.term).toBe('Vomiting');
    // A hanging provider never holds the request much past its 600 ms timeout.
    expect(Date.now() - started).toBeLessThan(5_000);
    await t.flushAudit();
    const audit = await t.db.prisma.auditRecord.findFirst({ where: { requestId: r.body.requestId } });
    expect(audit).toMatchObject({ provider: 'lexical', fallback: r.body.fallbackReason });
  });

  it('identify keeps only events whose evidence quotes the narrative', async () => {
    mode = 'events';
    const res = await t.request('/identify', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-API-Key': key },
      body: JSON.stringify({ description: 'After the infusion the patient vomited repeatedly; no rash.' }),
    });
    const body = (await res.json()) as any;
    expect(body.provider).toBe('openai');
    expect(body.results).toEqual([{ description: 'The patient vomited repeatedly.', reasons: ['vomited repeatedly'], confidence: 0.95 }]);
  });
});
