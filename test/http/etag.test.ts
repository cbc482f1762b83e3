// The catalog ETag is computed from a REST answer's JSON text, without reading the response
// back: it must be the value hono's etag middleware computes from the body bytes, for every
// size (hono chains its digest per 256 KB) and for text that is not ASCII.
import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { etag } from 'hono/etag';
import { createHash } from 'node:crypto';
import { etagOfText } from '../../src/http/caches.ts';

const sha1 = (b: Uint8Array) => {
  const d = createHash('sha1').update(b).digest();
  return d.buffer.slice(d.byteOffset, d.byteOffset + d.byteLength) as ArrayBuffer;
};

/** The tag hono's etag middleware gives the same bytes, streamed in pieces of `chunk` bytes. */
async function honoTag(text: string, chunk: number): Promise<string | null> {
  const bytes = Buffer.from(text, 'utf8');
  const app = new Hono();
  app.use('*', etag({ generateDigest: sha1 }));
  app.get('/', (c) =>
    c.body(
      new ReadableStream<Uint8Array>({
        start(s) {
          for (let at = 0; at < bytes.byteLength; at += chunk) s.enqueue(new Uint8Array(bytes.subarray(at, at + chunk)));
          s.close();
        },
      }),
    ),
  );
  return (await app.request('/')).headers.get('etag');
}

describe('etagOfText', () => {
  const texts: [string, string][] = [
    ['a short code page', JSON.stringify({ code: '10047700', term: 'Vomiting' })],
    ['non-ASCII text near the one-chunk boundary', 'é'.repeat(87_000) + 'Ménière’s disease'],
    ['exactly 256 KB', 'x'.repeat(262_144)],
    ['several chunks with multi-byte characters', JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ code: i, term: `Syndrôme de Lœffler ${i} — ✓` })))],
  ];
  it.each(texts)('equals hono’s tag of the body bytes: %s', async (_name, text) => {
    expect(etagOfText(text)).toBe(await honoTag(text, 65_536));
    expect(etagOfText(text)).toBe(await honoTag(text, 300_001));
  });
});
