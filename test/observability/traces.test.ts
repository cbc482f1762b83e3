// OpenTelemetry traces (README › Operations › Traces) on the shipped server, both databases:
// an OTLP/HTTP receiver started here collects what the server exports, and the spans of a
// GraphQL request that reaches the database, of POST /classify through the coding engine's
// worker pool, and of a request continuing an incoming W3C trace context are checked with
// their parent/child links; error answers and log lines carry the trace id; with traces off
// nothing is sent. The protobuf protocol, the sampler and the off switch: the PGlite pass only.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { freshStore, withStoreDb, type Store } from '../helpers/cli.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';
import { usingPostgres } from '../helpers/db.ts';
import { startOtlpReceiver, type OtlpReceiver, type OtlpSpan } from '../helpers/otlp.ts';
import { startServerProcess, type ServerProcess } from '../helpers/server.ts';

const SERVER = 2;
const CLIENT = 3;
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');
/** A fresh incoming W3C context: `traceparent` of a sampled caller span. */
function incoming() {
  const traceId = hex(32);
  const parentId = hex(16);
  return { traceId, parentId, traceparent: `00-${traceId}-${parentId}-01` };
}

/** Every ancestor of a span among `spans`, nearest first. */
function ancestors(span: OtlpSpan, spans: OtlpSpan[]): OtlpSpan[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const out: OtlpSpan[] = [];
  for (let p = span.parentSpanId && byId.get(span.parentSpanId); p; p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined) out.push(p);
  return out;
}

async function startShipped(store: Store, env: Record<string, string>): Promise<ServerProcess> {
  const base: Record<string, string> = store.url ? { DATABASE_URL: store.url, ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}) } : { TERMINOLOGY_DATA_DIR: store.dataDir! };
  return startServerProcess({ ...base, PORT: '0', HOST: '127.0.0.1', TRUST_PROXY: '127.0.0.1', NLP_WORKERS: '1', ...env }, 120_000, { baseEnv: false });
}

describe('the OTEL_* settings', () => {
  it('leave traces off by default, and are checked', () => {
    expect(loadConfig({}).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1', OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20x' }).tracing).toMatchObject({
      url: 'http://c:4318/v1/traces',
      protocol: 'http/protobuf',
      serviceName: 'terminology-explorer',
      sampler: 'parentbased_traceidratio',
      samplerRatio: 0.1,
      headers: { authorization: 'Bearer x' },
    });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t/x' }).tracing?.url).toBe('http://t/x');
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL: must be http\/protobuf or http\/json/);
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER/);
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT: must be an http/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_HEADERS: 'no-equals-sign' })).toThrow(/OTEL_EXPORTER_OTLP_HEADERS/);
  });
});

describe(`traces on the shipped server (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let receiver: OtlpReceiver;
  let store: Store;
  let server: ServerProcess;
  let key: string;
  /** An OpenAI-compatible provider that fails every call (the lexical result is used): the trace context it receives. */
  let llm: Server;
  const llmTraceparents: string[] = [];

  beforeAll(async () => {
    llm = createServer((req, res) => {
      llmTraceparents.push(String(req.headers.traceparent));
      req.resume();
      req.on('end', () => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"down"}}');
      });
    });
    await new Promise<void>((resolve) => llm.listen(0, '127.0.0.1', resolve));
    receiver = await startOtlpReceiver();
    store = await freshStore('demo');
    // The key in this process (test/cli/keys.test.ts runs `keys create` as a process).
    key = (await withStoreDb(store, (db) => createApiKey(db.prisma, 'traces'))).key;
    server = await startShipped(store, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'te-traces-test',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      LOG_LEVEL: 'debug',
      OPENAI_BASE_URL: `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`,
      OPENAI_MODEL: 'test-model',
    });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await store?.cleanup();
    await receiver?.close();
    await new Promise((resolve) => llm?.close(resolve));
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('a GraphQL request that reaches the database: server → graphql → database spans, continuing the incoming trace', async () => {
    // An SMQ of the demo release (read by SQL, never from the in-memory index).
    const listed = (await (await post('/graphql', { query: '{ smqs(first: 1) { edges { node { code } } } }' })).json()) as { data: { smqs: { edges: { node: { code: string } }[] } } };
    const smqCode = listed.data.smqs.edges[0]!.node.code;
    const ctx = incoming();
    const res = await post('/graphql', { query: 'query TraceSmq($code: String!) { smq(code: $code) { code name } }', variables: { code: smqCode } }, { traceparent: ctx.traceparent, tracestate: 'vendor=abc' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { smq: { code: string } } }).data.smq.code).toBe(smqCode);

    const spans = await receiver.waitFor((all) => {
      const mine = all.filter((s) => s.traceId === ctx.traceId);
      return mine.some((s) => s.kind === SERVER) && mine.some((s) => s.kind === CLIENT) && mine.some((s) => s.name === 'query TraceSmq') && mine;
    });
    const serverSpan = spans.find((s) => s.kind === SERVER)!;
    // The incoming context continued: same trace, the caller's span as parent, its tracestate kept.
    expect(serverSpan.parentSpanId).toBe(ctx.parentId);
    expect(serverSpan.traceState).toBe('vendor=abc');
    expect(serverSpan.name).toBe('POST /graphql');
    expect(serverSpan.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/graphql',
      'http.response.status_code': 200,
      'url.scheme': 'http',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(server.url).port),
    });
    expect(serverSpan.resource['service.name']).toBe('te-traces-test');

    const graphqlSpan = spans.find((s) => s.name === 'query TraceSmq')!;
    expect(graphqlSpan.parentSpanId).toBe(serverSpan.spanId);
    expect(graphqlSpan.attributes).toMatchObject({ 'graphql.operation.name': 'TraceSmq', 'graphql.operation.type': 'query' });

    const dbSpans = spans.filter((s) => s.kind === CLIENT && s.attributes['db.system'] === 'postgresql');
    expect(dbSpans.length).toBeGreaterThan(0);
    for (const db of dbSpans) {
      expect(ancestors(db, spans).map((s) => s.spanId)).toEqual(expect.arrayContaining([graphqlSpan.spanId, serverSpan.spanId]));
      expect(db.attributes['db.system.name']).toBe('postgresql');
      expect(db.attributes['db.operation.name']).toMatch(/^(SELECT|WITH)$/);
    }
    // Never the document, the variables or SQL text.
    const recorded = JSON.stringify(spans.map((s) => [s.name, s.attributes]));
    expect(recorded).not.toContain(smqCode);
    expect(recorded).not.toContain('smq(code');
    expect(recorded).not.toMatch(/\$1|WHERE/);
  });

  it('POST /classify: the coding-engine task span runs under the server span, in the same trace, across the worker boundary', async () => {
    const ctx = incoming();
    const res = await post('/classify', { description: 'nausea and vomiting after the first dose' }, { 'X-API-Key': key, traceparent: ctx.traceparent });
    expect(res.status).toBe(200);
    const spans = await receiver.waitFor((all) => {
      const mine = all.filter((s) => s.traceId === ctx.traceId);
      return mine.some((s) => s.name === 'engine classify worker') && mine.some((s) => s.kind === SERVER) && mine;
    });
    const serverSpan = spans.find((s) => s.kind === SERVER)!;
    expect(serverSpan.name).toBe('POST /classify');
    expect(serverSpan.attributes['http.route']).toBe('/classify');
    const task = spans.find((s) => s.name === 'engine classify')!;
    const worker = spans.find((s) => s.name === 'engine classify worker')!;
    expect(ancestors(task, spans).map((s) => s.spanId)).toContain(serverSpan.spanId);
    expect(worker.parentSpanId).toBe(task.spanId);
    expect(task.attributes['engine.outcome']).toBe('ok');
    // The LLM provider's call: a client span of the request, whose context went with the call.
    const chat = await receiver.waitFor((all) => all.find((s) => s.traceId === ctx.traceId && s.kind === CLIENT && s.name === 'chat test-model'));
    expect(chat.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'test-model', 'server.address': '127.0.0.1' });
    expect(ancestors(chat, receiver.spans().filter((s) => s.traceId === ctx.traceId)).map((s) => s.spanId)).toContain(serverSpan.spanId);
    expect(llmTraceparents).toContain(`00-${ctx.traceId}-${chat.spanId}-01`);
    // The narrative is never recorded.
    expect(JSON.stringify(spans)).not.toContain('vomiting');
  });

  it('error answers and the log lines of the request carry its trace id beside the request id', async () => {
    const ctx = incoming();
    const res = await fetch(`${server.url}/codes/999999999`, { headers: { traceparent: ctx.traceparent } });
    expect(res.status).toBe(404);
    const problem = (await res.json()) as { requestId: string; traceId?: string; code: string };
    expect(problem.code).toBe('CODE_NOT_FOUND');
    expect(problem.traceId).toBe(ctx.traceId);
    expect(problem.requestId).toBe(res.headers.get('x-request-id'));

    // GraphQL errors, in their extensions; a new trace when none comes in.
    const g = await post('/graphql', { query: '{ smq(code: "99999999") { code } }' });
    const body = (await g.json()) as { errors: { extensions: { code: string; requestId: string; traceId?: string } }[] };
    expect(body.errors[0]!.extensions.code).toBe('CODE_NOT_FOUND');
    expect(body.errors[0]!.extensions.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(body.errors[0]!.extensions.traceId).not.toBe(ctx.traceId);

    // FHIR's OperationOutcome: in the diagnostics, after the request id.
    const fctx = incoming();
    const f = await fetch(`${server.url}/fhir/CodeSystem/no-such-code-system`, { headers: { traceparent: fctx.traceparent, accept: 'application/fhir+json' } });
    expect(f.status).toBe(404);
    const outcome = (await f.json()) as { resourceType: string; issue: { diagnostics: string }[] };
    expect(outcome.resourceType).toBe('OperationOutcome');
    expect(outcome.issue[0]!.diagnostics).toContain(`(request ${f.headers.get('x-request-id')}, trace ${fctx.traceId})`);

    // The span of the 404: the route template, never the path with the code.
    const serverSpan = await receiver.waitFor((all) => all.find((s) => s.traceId === ctx.traceId && s.kind === SERVER));
    expect(serverSpan.name).toBe('GET /codes/:code');
    expect(serverSpan.attributes['http.response.status_code']).toBe(404);
    expect(JSON.stringify(serverSpan)).not.toContain('999999999');

    // The request's log line: its request id and trace id.
    await expect.poll(() => server.logs(), { timeout: 5_000 }).toContain(problem.requestId);
    const lines = server
      .logs()
      .split('\n')
      .filter((l) => l.includes(problem.requestId))
      .map((l) => JSON.parse(l) as { traceId?: string; spanId?: string; msg?: string });
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.traceId).toBe(ctx.traceId);
    expect(lines.some((l) => l.msg === 'request')).toBe(true);
  });

  if (usingPostgres && process.env.REDIS_URL) {
    it('the rate limiter’s Redis calls are client spans of the request', async () => {
      const ctx = incoming();
      expect((await fetch(`${server.url}/health/live`, { headers: { traceparent: ctx.traceparent } })).status).toBeLessThan(500);
      const res = await fetch(`${server.url}/codes/10019211`, { headers: { traceparent: ctx.traceparent } });
      expect(res.status).toBeLessThan(500);
      // The client span ends (and may be exported) before its server span: wait for both.
      const spans = await receiver.waitFor((all) => {
        const mine = all.filter((s) => s.traceId === ctx.traceId);
        return mine.filter((s) => s.kind === SERVER).length === 2 && mine.some((s) => s.attributes['db.system'] === 'redis') && mine;
      });
      const redis = spans.find((s) => s.kind === CLIENT && s.attributes['db.system'] === 'redis')!;
      expect(redis.attributes['db.operation.name']).toMatch(/^[A-Z]+$/);
      expect(ancestors(redis, spans).some((s) => s.kind === SERVER)).toBe(true);
    });
  }
});

// The protocol, the sampler and the switch are the exporter's, not the database's: the PGlite pass
// alone (the first describe's database spans run on both). The protobuf export and the sampler share
// one server: a sampled caller's request is what the protobuf test sends, and roots are what the
// sampler leaves out.
describe.skipIf(usingPostgres)('traces over OTLP/HTTP protobuf, a sampler, and traces off', () => {
  let receiver: OtlpReceiver;
  let store: Store;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    store = await freshStore('demo');
  }, 120_000);

  afterAll(async () => {
    await store?.cleanup();
    await receiver?.close();
  });

  describe('the default protocol, roots never sampled (parentbased_always_off)', () => {
    let server: ServerProcess;
    beforeAll(async () => {
      server = await startShipped(store, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_TRACES_SAMPLER: 'parentbased_always_off', LOG_LEVEL: 'info' });
    }, 180_000);
    afterAll(async () => {
      await server?.stop();
    });

    it('http/protobuf (the default protocol) sends the trace to /v1/traces', async () => {
      const ctx = incoming();
      expect((await fetch(`${server.url}/codes/999999999`, { headers: { traceparent: ctx.traceparent } })).status).toBe(404);
      const traceBytes = Buffer.from(ctx.traceId, 'hex');
      await expect
        .poll(() => receiver.exports.some((e) => e.path === '/v1/traces' && e.contentType === 'application/x-protobuf' && e.body.includes(traceBytes) && e.body.includes('GET /codes/:code')), {
          timeout: 15_000,
        })
        .toBe(true);
    });

    it('a request the sampler leaves out: no trace id of its own, the caller\'s when it sent one, nothing exported', async () => {
      receiver.exports.length = 0;
      // No trace context in: the request runs with none (nothing would ever be found under its id).
      const alone = await fetch(`${server.url}/codes/999999999`);
      expect(alone.status).toBe(404);
      const aloneProblem = (await alone.json()) as Record<string, unknown>;
      expect(aloneProblem.requestId).toBe(alone.headers.get('x-request-id'));
      expect(Object.keys(aloneProblem)).not.toContain('traceId');
      // An unsampled caller: its trace id still joins the answer and the logs, and nothing is recorded.
      const ctx = incoming();
      const unsampled = `00-${ctx.traceId}-${ctx.parentId}-00`;
      const res = await fetch(`${server.url}/codes/999999999`, { headers: { traceparent: unsampled } });
      const problem = (await res.json()) as { traceId?: string; requestId: string };
      expect(problem.traceId).toBe(ctx.traceId);
      // A sampled caller: recorded (the sampler is alive, only the roots are left out).
      const sampled = incoming();
      expect((await fetch(`${server.url}/codes/999999999`, { headers: { traceparent: sampled.traceparent } })).status).toBe(404);
      const traceBytes = Buffer.from(sampled.traceId, 'hex');
      await expect.poll(() => receiver.exports.some((e) => e.body.includes(traceBytes)), { timeout: 15_000 }).toBe(true);
      expect(receiver.exports.some((e) => e.body.includes(Buffer.from(ctx.traceId, 'hex')))).toBe(false);
      await expect.poll(() => server.logs(), { timeout: 5_000 }).toContain(problem.requestId);
      const lineOf = (requestId: unknown) => server.logs().split('\n').find((l) => l.includes(String(requestId)) && l.includes('"msg":"request"'));
      expect(lineOf(problem.requestId)).toContain(`"traceId":"${ctx.traceId}"`);
      expect(lineOf(aloneProblem.requestId)).toBeDefined();
      expect(lineOf(aloneProblem.requestId)).not.toContain('traceId');
    });
  });

  it('off (OTEL_SDK_DISABLED=true, even with an endpoint set): nothing is sent, no trace id anywhere, no error', async () => {
    receiver.exports.length = 0;
    const server = await startShipped(store, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_SDK_DISABLED: 'true' });
    let code: number | null;
    try {
      const ctx = incoming();
      const res = await fetch(`${server.url}/codes/999999999`, { headers: { traceparent: ctx.traceparent } });
      expect(res.status).toBe(404);
      const problem = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(problem)).not.toContain('traceId');
      const g = (await (await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ smq(code: "99999999") { code } }' }) })).json()) as {
        errors: { extensions: Record<string, unknown> }[];
      };
      expect(g.errors[0]!.extensions.requestId).toBeTypeOf('string');
      expect(Object.keys(g.errors[0]!.extensions)).not.toContain('traceId');
    } finally {
      code = await server.stop();
    }
    expect(code).toBe(0);
    // Stopped: an exporter flushes what it holds before the process ends (no wait for a batch delay), so
    // nothing has arrived means nothing was recorded.
    expect(receiver.exports).toEqual([]);
    expect(server.logs()).not.toContain('traceId');
    expect(server.logs()).not.toMatch(/"level":(50|60)/);
  }, 180_000);
});
