// The catalog ETag is computed from a REST answer's JSON text, without reading the response
// back: it must be the value hono's etag middleware computes from the body bytes, for every
// size (hono chains its digest per 256 KB) and for text that is not ASCII.
import { describe, expect, it } from 'vitest';
import { generateDigest } from '../../node_modules/hono/dist/middleware/etag/digest.js';
import { createHash } from 'node:crypto';
import { etagOfText } from '../../src/http/caches.ts';

const sha1 = (b: Uint8Array) => {
  const d = createHash('sha1').update(b).digest();
  return d.buffer.slice(d.byteOffset, d.byteOffset + d.byteLength) as ArrayBuffer;
};

async function honoTag(text: string, chunk: number): Promise<string> {
  const bytes = Buffer.from(text, 'utf8');
  // Streamed in uneven pieces, as a response body may be.
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      for (let at = 0; at < bytes.byteLength; at += chunk) c.enqueue(new Uint8Array(bytes.subarray(at, at + chunk)));
      c.close();
    },
  });
  return `"${await generateDigest(stream, sha1)}"`;
}

describe('etagOfText', () => {
  const texts: [string, string][] = [
    ['a short code page', JSON.stringify({ code: '10047700', term: 'Vomiting' })],
    ['non-ASCII text near the one-chunk boundary', 'é'.repeat(87_000) + 'Ménière’s disease'],
    ['exactly 256 KB', 'x'.repeat(262_144)],
    ['several chunks with multi-byte characters', JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ code: i, term: `Syndrôme de Lœffler ${i} — ✓` })))],
  ];
  it.each(texts)('equals hono’s digest of the body bytes: %s', async (_name, text) => {
    expect(etagOfText(text)).toBe(await honoTag(text, 65_536));
    expect(etagOfText(text)).toBe(await honoTag(text, 300_001));
  });
});
