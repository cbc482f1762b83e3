// The shipped server (`terminology serve`, default configuration) under hostile input over real
// HTTP: malformed requests at every layer (Node's parser, Yoga's transport checks, headers,
// GraphQL documents and variables, REST parameters, narrative bodies) must each end in a
// documented answer — no status ≥ 500, every error in the documented shape, no client value
// quoted back at length — while a separate probe's GET /versions stays fast.
//
// Rate limits stay at their default (120/min per client): the server trusts X-Forwarded-For from
// loopback (TRUST_PROXY=127.0.0.1) and every request, hostile or probe, names its own client
// address; otherwise almost every answer would be a 429 and nothing behind the limiter tested.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import { usingPostgres } from '../helpers/db.ts';
import type { ServerProcess } from '../helpers/server.ts';
import { clientAddresses, startShippedWithKey, type ShippedWithKey } from '../helpers/shippedWithKey.ts';
import { timedTurn } from '../helpers/cpuWait.ts';
import { fuzzRequest, pick, rng } from '../helpers/fuzz.ts';
import { ERROR_STATUS } from '../../src/domain/errors.ts';

/**
 * Requests of the hostile run; HOSTILE_REQUESTS=50000 for a deep run. The default
 * configuration (embedded) gets at least 5,000; the PostgreSQL pass, which adds server mode's
 * store and shared limiter to the same code paths, a fifth of that to keep the suite's time.
 */
const HOSTILE_REQUESTS = Math.max(usingPostgres ? 1000 : 5000, Number(process.env.HOSTILE_REQUESTS ?? (usingPostgres ? 1000 : 5000)));
/** Hostile requests in flight at once: enough to load the server, few enough that the probe measures the server, not this process. */
const CONCURRENCY = 6;
/**
 * The probe's target for GET /versions while the hostile run goes on: 100 ms (met alone: p99
 * 35–56 ms). Run inside the full suite, with another test file loading the other core, the
 * bound is four times the probe's own idle p99 when that is higher (seen: 102 ms against 100).
 */
const PROBE_P99_MS = 100;

let shipped: ShippedWithKey;
let server: ServerProcess;
let key = '';
/** A client address of its own for every request (see the header comment). */
const nextClient = clientAddresses();

beforeAll(async () => {
  shipped = await startShippedWithKey('hostile');
  ({ server, key } = shipped);
}, 180_000);
afterAll(async () => {
  await shipped?.stop();
});

interface Answer {
  status: number;
  contentType: string;
  text: string;
  headers: http.IncomingHttpHeaders;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * Every byte each client socket sent and received (the last TRANSCRIPT_BYTES), so that a client-side
 * error on a keep-alive connection shows the requests and answers before it: the cause of a bad
 * answer may be a request sent earlier on the same socket (issue 27, "Data after Connection: close").
 */
const TRANSCRIPT_BYTES = 8192;
const transcripts = new WeakMap<net.Socket, { log: string }>();
function record(socket: net.Socket): void {
  if (transcripts.has(socket)) return;
  const t = { log: '' };
  transcripts.set(socket, t);
  const add = (dir: string, chunk: unknown) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) || chunk instanceof Uint8Array ? Buffer.from(chunk).toString('latin1') : '';
    t.log = (t.log + `\n${dir} ` + text).slice(-TRANSCRIPT_BYTES);
  };
  socket.on('data', (d: Buffer) => add('<<', d));
  const write = socket.write.bind(socket) as (...a: unknown[]) => boolean;
  socket.write = ((chunk: unknown, ...rest: unknown[]) => (add('>>', chunk), write(chunk, ...rest))) as typeof socket.write;
}
const transcriptOf = (socket: net.Socket | null | undefined) => (socket && transcripts.get(socket)?.log) ?? '(no transcript)';

function send(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}, via = agent): Promise<Answer> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path, method: init.method ?? 'GET', agent: via, headers: { 'X-Forwarded-For': nextClient(), ...init.headers }, timeout: 30_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode!, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout: ${init.method ?? 'GET'} ${path.slice(0, 80)}`)));
    req.on('socket', record);
    req.on('error', (e) => reject(Object.assign(new Error(`${e.message} (${init.method ?? 'GET'} ${path.slice(0, 80)})`), { transcript: transcriptOf(req.socket) })));
    req.end(init.body);
  });
}

/** Bytes Node's HTTP parser refuses: written to a socket of their own, the answer read until the server closes. */
function sendRaw(bytes: string): Promise<Answer> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(bytes));
    let raw = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error(`raw request not answered: ${JSON.stringify(bytes.slice(0, 60))}`)));
    socket.on('data', (d) => (raw += d));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', text = ''] = raw.split('\r\n\r\n', 2);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const headers = Object.fromEntries(head.split('\r\n').slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status, contentType: headers['content-type'] ?? '', text, headers });
    });
  });
}

/** `parts` written one by one with a pause between, so the server reads the request in several chunks; every byte answered until it closes. */
function sendRawChunks(parts: string[]): Promise<string> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, async () => {
      for (const part of parts) {
        if (socket.destroyed) break;
        socket.write(part);
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    let raw = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('raw request not answered')));
    socket.on('data', (d) => (raw += d));
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e)));
    socket.on('close', () => resolve(raw));
  });
}

/** Every byte the server sends on one connection until it closes (several answers when pipelined). */
function sendRawAll(bytes: string): Promise<string> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(bytes));
    let raw = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('raw request not answered')));
    socket.on('data', (d) => (raw += d));
    socket.on('error', reject);
    socket.on('close', () => resolve(raw));
  });
}

const KNOWN_CODES = new Set(Object.keys(ERROR_STATUS));
/** Client values the generators send; an answer may quote at most 40 characters of any of them. */
const MARKERS = ['x'.repeat(41), 'ä'.repeat(41), 'Z'.repeat(41), 'a'.repeat(41), 'q'.repeat(41), 'w'.repeat(41)];

/** What is wrong with one answer: a 5xx, an error outside the documented shape, or an echo. */
function shapeProblems(label: string, a: Answer, method: string): string[] {
  const out: string[] = [];
  if (a.status >= 500 || a.status === 0) out.push(`${label}: ${a.status} ${a.text.slice(0, 200)}`);
  if (MARKERS.some((m) => a.text.includes(m)) && (a.status >= 400 || a.text.includes('"errors"'))) out.push(`${label}: client value quoted at length: ${a.text.slice(0, 200)}`);
  if (a.status < 400 && !/"errors"\s*:\s*\[/.test(a.text)) return out;
  if (method === 'HEAD' && a.text === '') return out;
  let body: any;
  try {
    body = JSON.parse(a.text);
  } catch {
    return [...out, `${label}: ${a.status} without a JSON body (${a.contentType}): ${a.text.slice(0, 120)}`];
  }
  if (Array.isArray(body?.errors)) {
    // The GraphQL shape: the same code, status and requestId in every error's extensions.
    for (const e of body.errors) {
      const x = e?.extensions ?? {};
      if (typeof e?.message !== 'string' || !KNOWN_CODES.has(x.code) || typeof x.requestId !== 'string' || x.status !== ERROR_STATUS[x.code as keyof typeof ERROR_STATUS]) out.push(`${label}: GraphQL error outside the shape: ${JSON.stringify(e).slice(0, 200)}`);
      if ('originalError' in x) out.push(`${label}: originalError in extensions`);
    }
    if (a.status >= 400 && body.errors[0]?.extensions?.status !== a.status) out.push(`${label}: HTTP ${a.status}, extensions.status ${body.errors[0]?.extensions?.status}`);
    return out;
  }
  const ok = ['type', 'title', 'detail', 'requestId'].every((k) => typeof body?.[k] === 'string') && body.status === a.status && KNOWN_CODES.has(body.code) && a.contentType.startsWith('application/problem+json');
  if (!ok) out.push(`${label}: problem outside the shape: ${a.text.slice(0, 200)}`);
  return out;
}

const nest = (depth: number, inner: string) => '['.repeat(depth) + inner + ']'.repeat(depth);
const LONG_WORD = 'a'.repeat(100_000);
const OVERSIZED = JSON.stringify({ description: 'q'.repeat(1024 * 1024 + 1000) });

/** Hand-written hostile requests, one kind per entry; each returns the answer and a label. */
function hostile(r: () => number): () => Promise<[Answer, string, string]> {
  const json = (p: string, body: unknown, headers: Record<string, string> = {}) => async (): Promise<[Answer, string, string]> => [
    await send(p, { method: 'POST', headers: { 'content-type': 'application/json', 'X-API-Key': key, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) }),
    `POST ${p} ${(typeof body === 'string' ? body : JSON.stringify(body)).slice(0, 60)}`,
    'POST',
  ];
  const get = (p: string, headers: Record<string, string> = {}) => async (): Promise<[Answer, string, string]> => [await send(p, { headers }), `GET ${p.slice(0, 80)} ${JSON.stringify(headers).slice(0, 80)}`, 'GET'];
  const raw = (bytes: string) => async (): Promise<[Answer, string, string]> => [await sendRaw(bytes), `raw ${JSON.stringify(bytes.slice(0, 60))}`, 'RAW'];
  const kinds: Array<() => () => Promise<[Answer, string, string]>> = [
    // Very long single words.
    () => json(pick(r, ['/identify', '/classify']), { description: LONG_WORD }),
    () => json('/labels/classify', { description: `ADVERSE REACTIONS\n${LONG_WORD}` }),
    () => json('/graphql', { query: 'query($q: String) { codes(q: $q) { totalCount } }', variables: { q: LONG_WORD } }),
    () => json('/graphql', { query: `{ version(version: "${'Z'.repeat(5000)}") { version } }` }),
    () => get(`/codes?q=${'w'.repeat(8000)}`),
    () => get(`/codes/10047700?version=${'Z'.repeat(2000)}`),
    // Deep nesting: list literals and variables thousands deep.
    () => json('/graphql', { query: `{ code(code: ${nest(3000 + Math.floor(r() * 3000), '"1"')}) { term } }` }),
    // Written as text: JSON.stringify of a value this deep overflows this process's stack.
    () => json('/graphql', `{"query":"query($v: [[String]]) { codes(q: \\"x\\") { totalCount } }","variables":{"v":${nest(5000, '"x"')}}}`),
    () => json('/graphql', { query: '{'.repeat(5000) + '}'.repeat(5000) }),
    // Huge numbers of aliases.
    () => json('/graphql', { query: `{ ${Array.from({ length: 3000 }, (_, i) => `a${i}: versions { totalCount }`).join(' ')} }` }),
    () => json('/graphql', { query: `{ ${Array.from({ length: 15000 }, (_, i) => `a${i}: __typename`).join(' ')} }` }),
    // Client values GraphQL quotes in its messages.
    () => json('/graphql', { query: `{ code(code: [${Array(2000).fill('1').join(',')}]) { term } }` }),
    () => json('/graphql', { query: 'query($v: Int) { versions(first: $v) { totalCount } }', variables: { v: 'x'.repeat(3000) } }),
    () => json('/graphql', { query: `{ ${'q'.repeat(3000)} }` }),
    // Transport: media types, Accept, methods, bodies.
    () => async () => [await send('/graphql', { method: 'POST', headers: { 'content-type': pick(r, ['text/xml', 'application/octet-stream', 'image/png']) }, body: '<x/>' }), 'POST /graphql unsupported media type', 'POST'],
    () => async () => [await send('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept: pick(r, ['image/png', 'text/xml', 'application/xml']) }, body: '{"query":"{ __typename }"}' }), 'POST /graphql not acceptable', 'POST'],
    () => async () => [await send('/graphql', { method: pick(r, ['PUT', 'DELETE', 'PATCH']), headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' }), 'graphql other method', 'PUT'],
    () => async () => [await send('/graphql?query=mutation%20%7B%20x%20%7D', { headers: { accept: 'application/json' } }), 'GET /graphql mutation', 'GET'],
    () => json('/graphql', `{"query": "${'x'.repeat(200)}`),
    () => json(pick(r, ['/identify', '/classify', '/labels/classify', '/graphql']), OVERSIZED),
    // Bad headers.
    () => get('/codes/10047700', { 'X-Terminology-Version': pick(r, ['!!junk', 'x'.repeat(200), '5.0 OR 1=1', '../../etc', '5.0;drop', 'ä']) }),
    () => json('/graphql', { query: '{ version { version } }' }, { 'X-Terminology-Version': pick(r, ['<script>', 'x'.repeat(100), '%00']) }),
    () => get('/versions', { 'X-API-Version': pick(r, ['2', 'Z'.repeat(3000), '1.0', 'abc']) }),
    () => get('/codes?q=pain', { 'X-Junk': 'x'.repeat(8_000) }),
    () => get('/versions', { 'X-Junk': 'x'.repeat(20_000) }),
    () => get('/codes/10047700', { 'X-Terminology-Version': '99.9' }),
    // Node's HTTP parser: malformed request lines and headers, over a raw socket.
    () => raw('GARBAGE\r\n\r\n'),
    () => raw(`GET /${'x'.repeat(70_000)} HTTP/1.1\r\nHost: a\r\n\r\n`),
    () => raw('GET / HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n'),
    () => raw('POST /identify HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n'),
    () => raw('POST /graphql HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'),
    () => raw('GET / HTTP/9.9\r\n\r\n'),
  ];
  return pick(r, kinds)();
}

describe('the shipped server under hostile input', () => {
  it('answers requests Node\'s HTTP parser refuses with the problem JSON and Connection: close', async () => {
    const bad = await sendRaw('GARBAGE\r\n\r\n');
    expect(bad.status).toBe(400);
    expect(bad.headers.connection).toBe('close');
    expect(JSON.parse(bad.text)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', type: '/problems/validation', requestId: expect.any(String) });
    const big = await sendRaw(`GET /versions HTTP/1.1\r\nHost: a\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`);
    expect(big.status).toBe(431);
    expect(JSON.parse(big.text)).toMatchObject({ status: 431, code: 'HEADERS_TOO_LARGE', requestId: expect.any(String) });
    expect(big.text).not.toContain('xxxxxxxxxx');
    // A HEAD answer has no body, or the client would read it as the next response.
    const head = await sendRaw(`HEAD /versions HTTP/1.1\r\nHost: a\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`);
    expect(head.status).toBe(431);
    expect(head.text).toBe('');
    // The same when the request arrives in several chunks (the parser's current chunk no longer
    // starts with the method): a HEAD's answer still has no body, a GET's still has the JSON.
    const longTarget = `/versions?q=${'%C3%A4'.repeat(5000)}`;
    for (const method of ['HEAD', 'GET']) {
      const lines = `${method} ${longTarget} HTTP/1.1\r\nHost: a\r\n\r\n`;
      const raw = await sendRawChunks([lines.slice(0, 100), lines.slice(100, 15_000), lines.slice(15_000)]);
      expect(raw, method).toMatch(/^HTTP\/1\.1 431 /);
      const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
      if (method === 'HEAD') expect(body).toBe('');
      else expect(JSON.parse(body)).toMatchObject({ status: 431, code: 'HEADERS_TOO_LARGE' });
    }
    // Headers up to the parser's own limit (64 KB), in chunks: the same.
    const large = await sendRawChunks(['HEAD /versions HTTP/1.1\r\nHost: a\r\nX-Big: ', 'x'.repeat(30_000), 'x'.repeat(30_000), '\r\n\r\n']);
    expect(large).toMatch(/^HTTP\/1\.1 431 [^]*\r\n\r\n$/);
    // Through a keep-alive client (as the fuzz sends): the HEAD is answered, nothing follows it.
    const viaAgent = await send(longTarget, { method: 'HEAD' });
    expect(viaAgent.status).toBe(431);
    expect(viaAgent.text).toBe('');
  });

  it('answers a missing Host, CONNECT, pipelined garbage and a body cut off by the parser, and logs what the client got', async () => {
    const noHost = await sendRaw('GET /versions HTTP/1.1\r\n\r\n');
    expect(noHost.status).toBe(400);
    expect(JSON.parse(noHost.text)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', requestId: expect.any(String), errors: { headers: [expect.stringContaining('Host')] } });
    const connect = await sendRaw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(connect.status).toBe(405);
    expect(connect.headers.allow).toBe('GET, HEAD, POST');
    expect(JSON.parse(connect.text)).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED', requestId: expect.any(String) });
    // A valid request, then garbage on the same connection: the valid one is answered, and its
    // answer closes the connection — a keep-alive client would otherwise send its next request
    // and read a refusal of the garbage as that request's answer (for a HEAD: a body after
    // `Connection: close`, issue 27). Before: 200 with keep-alive, then a 400.
    const both = await sendRawAll('GET /health/live HTTP/1.1\r\nHost: a\r\n\r\nGARBAGE\r\n\r\n');
    expect(both).toMatch(/^HTTP\/1\.1 200 [^]*\r\n[Cc]onnection: close\r\n([^]*\r\n)?\r\n\{"status":"ok"\}$/);
    // … unless that answer closes the connection (a 405 to a request with a body): nothing follows it.
    const closing = await sendRawAll('DELETE /codes/10047700 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nxxGARBAGE\r\n\r\n');
    expect(closing).toMatch(/^HTTP\/1\.1 405 [^]*[Cc]onnection: close/);
    expect(closing.match(/HTTP\/1\.1 \d{3}/g)).toHaveLength(1);
    // A chunked body the parser refuses half-way: the client gets 400, and the request's log
    // line says 400 too (it said 503: the cut-off body read looked like a lost connection).
    const before = server.logs().length;
    const cutPaths = ['/codes/validate', '/graphql', '/fhir/CodeSystem/$lookup'];
    for (const path of cutPaths) {
      const cut = await sendRaw(`POST ${path} HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"cod\r\nzz\r\n`);
      expect(cut.status, path).toBe(400);
    }
    // Whole lines only: `before` may fall inside a line still being written.
    const logged = () => server.logs().slice(before).split('\n').filter((l) => l.startsWith('{') && l.endsWith('}') && l.includes('"msg":"request"')).map((l) => JSON.parse(l) as { route: string; status: number });
    // Each request's line, once all three are written (other requests of this test log too).
    await expect.poll(() => cutPaths.filter((p) => logged().some((l) => l.route === p)).length, { timeout: 10_000 }).toBe(cutPaths.length);
    for (const path of cutPaths) expect(logged().find((l) => l.route === path)?.status, path).toBe(400);
  });

  it('answers GraphQL transport refusals in the GraphQL error shape with their codes, without echoing the body', async () => {
    const graphqlError = (a: Answer, status: number, code: string) => {
      expect(a.status, a.text).toBe(status);
      expect(JSON.parse(a.text).errors[0]).toMatchObject({ message: expect.any(String), extensions: { code, status, requestId: expect.any(String) } });
    };
    graphqlError(await send('/graphql', { method: 'POST', headers: { 'content-type': 'text/xml' }, body: '<x/>' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    graphqlError(await send('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'image/png' }, body: '{"query":"{ __typename }"}' }), 406, 'NOT_ACCEPTABLE');
    const put = await send('/graphql', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
    graphqlError(put, 405, 'METHOD_NOT_ALLOWED');
    expect(put.headers.allow).toBe('GET, POST');
    graphqlError(await send('/graphql?query=mutation%20%7B%20x%20%7D', { headers: { accept: 'application/json' } }), 405, 'METHOD_NOT_ALLOWED');
    const invalid = await send('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'SECRET-BODY-TEXT' });
    graphqlError(invalid, 400, 'VALIDATION_ERROR');
    expect(invalid.text).not.toContain('originalError');
    expect(invalid.text).not.toContain('SECRET-BODY-TEXT');
  });

  it('refuses a malformed X-Terminology-Version as VALIDATION_ERROR; a well-formed unknown one is VERSION_NOT_FOUND', async () => {
    const rest = await send('/codes/10047700', { headers: { 'X-Terminology-Version': '!!junk junk' } });
    expect(rest.status).toBe(400);
    expect(JSON.parse(rest.text)).toMatchObject({ code: 'VALIDATION_ERROR', errors: { 'X-Terminology-Version': [expect.any(String)] } });
    const gql = await send('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', 'X-Terminology-Version': '!!junk junk' }, body: '{"query":"{ version { version } }"}' });
    expect(gql.status).toBe(400);
    expect(JSON.parse(gql.text).errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    const unknown = await send('/codes/10047700', { headers: { 'X-Terminology-Version': '99.9' } });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.text).code).toBe('VERSION_NOT_FOUND');
  });

  it('quotes at most 40 characters of a client value in any message', async () => {
    const long = 'Z'.repeat(5000);
    const answers = [
      await send('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `{ version(version: "${long}") { version } }` }) }),
      await send('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'query($v: Int) { versions(first: $v) { totalCount } }', variables: { v: long } }) }),
      await send('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `{ code(code: [${Array(500).fill('1').join(',')}]) { term } }` }) }),
      await send(`/codes?${long}=1`),
      await send(`/${long}`),
      await send('/versions', { headers: { 'X-API-Version': long } }),
    ];
    for (const a of answers) {
      // An error of a field (the unknown release) is a GraphQL result: HTTP 200 with `errors`.
      expect(a.status >= 400 || JSON.parse(a.text).errors?.length > 0, a.text).toBe(true);
      expect(a.text.length, a.text).toBeLessThan(1500);
      expect(a.text).not.toContain('Z'.repeat(41));
      expect(a.text).not.toContain('1, '.repeat(20));
    }
    // Too long to be a release identifier: refused without quoting it at all.
    expect(JSON.parse(answers[0]!.text).errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', errors: { version: [expect.any(String)] } });
    // An unknown parameter name is quoted, clipped.
    expect(answers[3]!.text).toContain(`${'Z'.repeat(40)}…`);
  });

  it(`${HOSTILE_REQUESTS} hostile requests: no answer ≥ 500, every error documented; GET /versions p99 ≤ ${PROBE_P99_MS} ms meanwhile`, async () => {
    const r = rng(20261124);
    const failures: string[] = [];
    const counts = new Map<string, number>();
    let sent = 0;
    let done = false;

    // The probe: one request at a time on its own connection, for as long as the hostile run lasts.
    const latencies: number[] = [];
    const seen: number[] = [];
    await send('/versions', {}, probeAgent);
    // The same probe first with nothing else sent to the server: in the full suite the other
    // test worker shares the two cores, and the bound must measure this server, not the machine.
    const idle: number[] = [];
    for (let k = 0; k < 100; k++) idle.push((await timedTurn(server.serverPid, () => send('/versions', {}, probeAgent))).ownMs);
    idle.sort((a, b) => a - b);
    const idleP99 = idle[98]!;
    const bound = Math.max(PROBE_P99_MS, 4 * idleP99);
    const probe = (async () => {
      while (!done) {
        // Less the time the server's serving thread (or this client's) waited for a CPU meanwhile:
        // on a host shared with other work that wait made the long turns (test/helpers/cpuWait.ts).
        const turn = await timedTurn(server.serverPid, () => send('/versions', {}, probeAgent));
        const a = turn.value;
        latencies.push(turn.ownMs);
        seen.push(turn.seenMs);
        if (a.status !== 200) failures.push(`probe: ${a.status} ${a.text.slice(0, 120)}`);
        await new Promise((res) => setTimeout(res, 5));
      }
    })();

    const started = performance.now();
    const worker = async () => {
      while (sent < HOSTILE_REQUESTS) {
        const i = sent++;
        let call: () => Promise<[Answer, string, string]>;
        let what = 'hostile';
        if (r() < 0.55) {
          const { url, init } = fuzzRequest(r, key);
          const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>).filter(([, v]) => /^[\t\x20-\x7e]*$/.test(v)));
          const method = init.method ?? 'GET';
          what = `${method} ${url.slice(0, 80)}`;
          call = async () => [await send(url, { method, headers, body: init.body as string | undefined }), what, method];
        } else {
          call = hostile(r);
        }
        try {
          const [answer, label, method] = await call();
          counts.set(String(answer.status), (counts.get(String(answer.status)) ?? 0) + 1);
          failures.push(...shapeProblems(`#${i} ${label}`, answer, method));
        } catch (e) {
          // With the bytes of its connection so far: the cause may be a request sent before on it.
          failures.push(`#${i} ${what}: no answer: ${(e as Error).message}\n${(e as { transcript?: string }).transcript ?? ''}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - started) / 1000;
    done = true;
    await probe;

    latencies.sort((a, b) => a - b);
    seen.sort((a, b) => a - b);
    const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
    console.log(
      `hostile: ${HOSTILE_REQUESTS} requests in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...counts].sort()))}; ` +
        `probe GET /versions less the CPU wait: ${latencies.length} requests, p50 ${p(0.5).toFixed(1)} ms, p99 ${p(0.99).toFixed(1)} ms, max ${p(1).toFixed(1)} ms (as seen: p99 ${seen[Math.floor(0.99 * seen.length)]!.toFixed(1)}, max ${seen[seen.length - 1]!.toFixed(1)} ms); idle p99 ${idleP99.toFixed(1)} ms, bound ${bound.toFixed(1)} ms`,
    );
    expect(failures.slice(0, 20)).toEqual([]);
    expect(counts.get('429') ?? 0).toBe(0);
    expect(latencies.length).toBeGreaterThan(100);
    // The latency target is the default configuration's (embedded); the PostgreSQL pass shares
    // the cores with the database server and another test file, and its figure is only reported.
    if (!usingPostgres) expect(p(0.99)).toBeLessThanOrEqual(bound);
    expect(JSON.parse((await send('/health/ready')).text).status).toBe('ready');
  }, 300_000);
});
