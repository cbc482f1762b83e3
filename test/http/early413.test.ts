// A body declared over the limit is refused at once (issue 27): the 413 problem JSON is written
// as soon as the headers are read, with `Connection: close`, instead of after reading and
// discarding megabytes. The client must still read the 413 — not a reset — whether it sends the
// whole body (fetch/undici, curl) or keeps sending on a raw socket. Real HTTP on the server's own
// listener, the default 1 MB limit.
import { execFile } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { listen } from '../helpers/http.ts';
import { miniSpec } from '../helpers/medascii.ts';

const LIMIT = 1024 * 1024;
const DECLARED = 2_000_000;
/** "At once": well under the old drain (~3 s), with room for a loaded host. */
const AT_ONCE_MS = 1_500;

let t: TestApp;
let base: string;
let close: () => Promise<void>;
let dir: string;

beforeAll(async () => {
  t = await createTestApp({ fixtures: [miniSpec('1.0')], app: { maxBodyBytes: LIMIT } });
  ({ url: base, close } = await listen(t.app));
  dir = mkdtempSync(path.join(tmpdir(), 'te-413-'));
});
afterAll(async () => {
  await close?.();
  await t?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function expect413(status: number, headers: { get(name: string): string | null }, text: string) {
  expect(status, text.slice(0, 200)).toBe(413);
  expect(headers.get('connection')).toBe('close');
  expect(JSON.parse(text)).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE', detail: `Request body exceeds ${LIMIT} bytes.`, requestId: expect.any(String) });
}

describe('POST /identify with Content-Length: 2,000,000 over the 1 MB limit', () => {
  it('a raw socket that keeps sending reads the 413 problem JSON at once, then the server closes', async () => {
    const url = new URL(base);
    const socket = net.connect(Number(url.port), url.hostname);
    const chunk = Buffer.alloc(16 * 1024, 'a');
    let sent = 0;
    let received = '';
    let sending: NodeJS.Timeout | undefined;
    const t0 = performance.now();
    let answeredAt = 0;
    const ended = new Promise<void>((resolve) => {
      socket.on('data', (d) => {
        received += d.toString('latin1');
        if (!answeredAt && /\r\n\r\n[\s\S]*\}$/.test(received)) answeredAt = performance.now() - t0;
      });
      socket.on('error', () => resolve());
      socket.on('close', () => resolve());
    });
    socket.write(`POST /identify HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${DECLARED}\r\n\r\n`);
    // Keeps sending, 16 KB every 20 ms (the whole body would take over 2.5 s), never stopping for
    // the answer.
    sending = setInterval(() => {
      if (socket.destroyed || sent >= DECLARED) return clearInterval(sending);
      const n = Math.min(chunk.length, DECLARED - sent);
      socket.write(chunk.subarray(0, n), () => undefined);
      sent += n;
    }, 20);
    await ended;
    clearInterval(sending);
    const [head = '', body = ''] = received.split('\r\n\r\n');
    const status = Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]);
    const headers = new Map(head.split('\r\n').slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as const));
    expect413(status, { get: (n) => headers.get(n) ?? null }, body);
    expect(answeredAt, `answered after ${answeredAt.toFixed(0)} ms, ${sent} bytes sent`).toBeLessThan(AT_ONCE_MS);
    // Answered before the client had sent the declared body.
    expect(sent).toBeLessThan(DECLARED);
  });

  it('fetch (undici) sending the whole body gets the 413 problem JSON at once', async () => {
    const t0 = performance.now();
    const r = await fetch(`${base}/identify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.alloc(DECLARED, 'a') });
    const text = await r.text();
    const ms = performance.now() - t0;
    expect413(r.status, r.headers, text);
    expect(ms).toBeLessThan(AT_ONCE_MS);
  });

  it('fetch (undici) streaming a body slower than the limit allows gets the 413 at once, not after the stream', async () => {
    // 2 MB over ~4 s: an answer that waited for the body would come after it.
    let n = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((r) => setTimeout(r, 40));
        if (n >= DECLARED) return controller.close();
        const size = Math.min(20_000, DECLARED - n);
        n += size;
        controller.enqueue(new Uint8Array(size).fill(97));
      },
    });
    const t0 = performance.now();
    const r = await fetch(`${base}/identify`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(DECLARED) }, body, duplex: 'half' } as RequestInit);
    const text = await r.text();
    const ms = performance.now() - t0;
    expect413(r.status, r.headers, text);
    expect(ms, `answered after ${ms.toFixed(0)} ms, ${n} bytes sent`).toBeLessThan(AT_ONCE_MS);
  });

  it('curl sending the whole body (with its Expect: 100-continue) reads the 413 problem JSON at once', async () => {
    const file = path.join(dir, 'body.json');
    writeFileSync(file, Buffer.alloc(DECLARED, 'a'));
    const t0 = performance.now();
    const out = await new Promise<string>((resolve, reject) =>
      execFile('curl', ['-sS', '-i', '--max-time', '10', '-H', 'Content-Type: application/json', '--data-binary', `@${file}`, `${base}/identify`], { encoding: 'latin1' }, (err, stdout, stderr) =>
        err ? reject(new Error(`curl: ${err.message} ${stderr}`)) : resolve(stdout),
      ),
    );
    const ms = performance.now() - t0;
    // curl prints the interim 100 Continue too: the last header block is the answer.
    const blocks = out.split('\r\n\r\n');
    const body = blocks.pop()!;
    const head = blocks.pop()!;
    const status = Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]);
    const headers = new Map(head.split('\r\n').slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as const));
    expect413(status, { get: (n) => headers.get(n) ?? null }, body);
    expect(ms).toBeLessThan(AT_ONCE_MS + 500);
  });
});

describe('clients that read only once they have sent the whole body', () => {
  it('a raw socket that writes the declared body in one go and reads afterwards still reads the 413, not a reset', async () => {
    const url = new URL(base);
    const socket = net.connect(Number(url.port), url.hostname);
    socket.pause();
    let received = '';
    let writeError = '';
    await new Promise<void>((resolve) => {
      socket.write(Buffer.concat([Buffer.from(`POST /identify HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${DECLARED}\r\n\r\n`), Buffer.alloc(DECLARED, 'a')]), (err) => {
        writeError = err?.message ?? '';
        resolve();
      });
    });
    const readError = await new Promise<string>((resolve) => {
      socket.on('data', (d) => (received += d.toString('latin1')));
      socket.on('error', (e) => resolve(e.message));
      socket.on('close', () => resolve(''));
      socket.resume();
    });
    expect({ writeError, readError }).toEqual({ writeError: '', readError: '' });
    const [head = '', body = ''] = received.split('\r\n\r\n');
    const headers = new Map(head.split('\r\n').slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as const));
    expect413(Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]), { get: (n) => headers.get(n) ?? null }, body);
  });

  it("Python's urllib sending 40 MB (more than the sockets' buffers hold), then reading, gets the 413 problem JSON", async () => {
    const { status, connection, body } = await urllibPost(`${base}/identify`, `b"a" * ${20 * DECLARED}`, 'application/json');
    expect413(status, { get: (n) => (n === 'connection' ? connection : null) }, body);
  });

  it("any answer given before the body is read lingers too: Python's urllib sending a 30 MB upload without a key reads the 401", async () => {
    const { status, connection, body } = await urllibPost(`${base}/impact?from=1.0&to=1.0`, `b"r,1\\n" * ${(30 * 1024 * 1024) / 4}`, 'text/csv');
    expect({ status, connection }).toEqual({ status: 401, connection: 'close' });
    expect(JSON.parse(body)).toMatchObject({ status: 401, requestId: expect.any(String) });
  });
});

/** POSTs `data` (a Python bytes expression) with urllib, which reads only after sending: the error answer's status, Connection and body. */
async function urllibPost(url: string, data: string, contentType: string): Promise<{ status: number; connection: string; body: string }> {
  const script = `
import sys, urllib.request, urllib.error
req = urllib.request.Request(sys.argv[1], data=${data}, headers={"Content-Type": "${contentType}"}, method="POST")
try:
    urllib.request.urlopen(req, timeout=10)
    print("no error")
except urllib.error.HTTPError as e:
    print(e.code, e.headers.get("Connection"), e.read().decode())
`;
  const out = await new Promise<string>((resolve, reject) =>
    execFile('python3', ['-c', script, url], (err, stdout, stderr) => (err ? reject(new Error(`python: ${err.message} ${stderr}`)) : resolve(stdout))),
  );
  const [status, connection = '', ...rest] = out.trim().split(' ');
  return { status: Number(status), connection, body: rest.join(' ') };
}
