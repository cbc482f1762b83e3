// Large bodies that never change while the server runs (GraphiQL's page, ~9 MB; the Swagger UI
// bundle; /openapi.json) are kept with their gzip form, made once off the request thread
// (zlib's async API runs in libuv's thread pool), so a browser on a slow link gets a fraction
// of the bytes and no request pays for compressing them again.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCallback, constants } from 'node:zlib';

const gzip = promisify(gzipCallback);

export interface StaticBody {
  raw: Buffer;
  gz: Buffer;
  type: string;
  etag: string;
}

/** Builds a body once (and its gzip), then hands out the same one; a failed build is retried next time. */
export function onceCompressed(build: () => Promise<{ body: Buffer | string; type: string }>): () => Promise<StaticBody> {
  let pending: Promise<StaticBody> | undefined;
  return () =>
    (pending ??= (async () => {
      const { body, type } = await build();
      const raw = Buffer.isBuffer(body) ? body : Buffer.from(body);
      const gz = await gzip(raw, { level: constants.Z_BEST_COMPRESSION });
      const etag = `"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"`;
      return { raw, gz, type, etag };
    })().catch((e: unknown) => {
      pending = undefined;
      throw e;
    }));
}

/** The answer for one request: gzip when the client takes it, 304 on a matching If-None-Match. */
export function staticResponse(req: Request, body: StaticBody, cacheControl: string): Response {
  const headers: Record<string, string> = { 'content-type': body.type, 'cache-control': cacheControl, etag: body.etag, vary: 'Accept-Encoding' };
  if (ifNoneMatch(req.headers.get('if-none-match'), body.etag)) return new Response(null, { status: 304, headers });
  const useGzip = acceptsGzip(req.headers.get('accept-encoding'));
  const bytes = useGzip ? body.gz : body.raw;
  if (useGzip) headers['content-encoding'] = 'gzip';
  headers['content-length'] = String(bytes.length);
  return new Response(req.method === 'HEAD' ? null : (bytes as Uint8Array<ArrayBuffer>), { status: 200, headers });
}

/** RFC 9110 §12.5.3: gzip unless it is listed with q=0 (or only `*;q=0`/`identity` is offered). */
export function acceptsGzip(header: string | null | undefined): boolean {
  if (!header) return false;
  let star: boolean | undefined;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => /^q=/i.test(p));
    const weight = q ? Number(q.slice(2)) : 1;
    const coding = name.trim().toLowerCase();
    if (coding === 'gzip' || coding === 'x-gzip') return weight > 0;
    if (coding === '*') star = weight > 0;
  }
  return star ?? false;
}

function ifNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
