// Whole-result caching of catalog queries. Releases never change once imported, so a
// result depends only on the query text, operation name, variables, the
// X-Terminology-Version and Accept-Language headers and which release is latest: that is the key. Hits are
// answered before parsing, validation and execution.
// How it relates to the HTTP caches in front of it: src/http/caches.ts.
//
// Why not @graphql-yoga/plugin-response-cache: it rewrites every selection set to add
// __typename (and id) for entity invalidation — which immutable releases never need —
// and the complexity limit then counts those fields (the largest subtree query went
// from 20k to 38k) while execution resolves 28k extra fields.
//
// The AI fields (identify, classify, classifyLabel) are never cached: each call is
// authenticated, rate-limited and audited. Nor are applySmq, impact, validateCodes and
// analyseCodes: a client's coded data, whose answers are as large as the lists sent (and a
// replayed GET of one would skip the refusal of coded data over GET, listWork.ts).
import { negotiatedLanguageKey } from '../domain/languageCacheKey.ts';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { ReleaseCatalog } from '../domain/catalog.ts';
import type { GraphQLContext } from './context.ts';
import { memoryGauges } from '../observability/signals.ts';

export interface ResultCacheOptions {
  /** Total bytes of result text kept. */
  maxBytes?: number;
  /** Bounds staleness after `import --replace` by another process (PostgreSQL mode). */
  ttlMs?: number;
}

/** Conservative: any mention of an AI field name keeps the whole operation out of the cache. */
const AI_FIELDS = /\b(identify|classify|classifyLabel|applySmq|impact|validateCodes|analyseCodes)\b/;

/** A result with the serialiser graphql-yoga's result processor calls instead of JSON.stringify when present. */
type Serialisable = ExecutionResult & { stringify?: (r: unknown) => string };

/**
 * What the cache keeps of a result: its JSON text, made once, and the extensions (they carry
 * the response headers), not the result tree. The result being answered gets the same text:
 * one serialisation of a 28k-node subtree (~100 ms) instead of one to size the entry and
 * another to send it, and a hit sends the text as it is.
 */
function serialised(r: Serialisable): { entry: Serialisable; bytes: number } {
  // As yoga prints a result without errors: everything but the http extension (response headers).
  const { http: _http, ...rest } = (r.extensions ?? {}) as Record<string, unknown>;
  const text = (r.stringify ?? JSON.stringify)({ ...r, extensions: Object.keys(rest).length ? rest : undefined });
  const stringify = () => text;
  r.stringify = stringify;
  return { entry: { extensions: r.extensions, stringify } as Serialisable, bytes: text.length };
}

export function resultCachePlugin(catalog: ReleaseCatalog, opts: ResultCacheOptions = {}): Plugin {
  const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  const cache = new LRUCache<string, { entry: Serialisable; bytes: number }>({
    maxSize: maxBytes,
    // A result's text is counted at two bytes a character (a string of non-Latin-1 text is UTF-16).
    sizeCalculation: (e) => 2 * e.bytes + 200,
    ttl: opts.ttlMs ?? 60_000,
  });
  memoryGauges.graphqlResults = { bytes: () => cache.calculatedSize, budget: maxBytes };
  const keys = new WeakMap<Request, string>();
  return {
    async onParams({ params, request, context, setResult }) {
      if ((context as { inProcess?: boolean }).inProcess) return; // REST routes: replayed in front
      const query = params.query;
      if (!query || AI_FIELDS.test(query)) return;
      // Without the latest release (database unreachable) the operation runs uncached and reports the outage.
      const releases = await catalog.releases().catch(() => undefined);
      if (releases === undefined) return;
      const latest = releases[0]?.version ?? '-';
      // The languages Accept-Language negotiates, not the raw header (languageCacheKey.ts).
      const languages = negotiatedLanguageKey(request.headers.get('accept-language'), releases);
      const key = createHash('sha256')
        .update(JSON.stringify([query, params.operationName ?? null, params.variables ?? null, request.headers.get('x-terminology-version'), languages, latest]))
        .digest('base64url');
      const hit = cache.get(key);
      if (hit) setResult(hit.entry);
      else keys.set(request, key);
    },
    onExecute({ args }) {
      const request = (args.contextValue as unknown as { request?: Request }).request;
      const key = request && keys.get(request);
      if (!key) return;
      return {
        onExecuteDone({ result }) {
          if (Symbol.asyncIterator in (result as object)) return;
          const r = result as Serialisable;
          if (!r.errors?.length) cache.set(key, serialised(r));
        },
      };
    },
  };
}

/**
 * Names the release an operation read in the X-Terminology-Version response header
 * (when it read exactly one). Carried in the result's http extensions, so results
 * replayed from the cache carry it too. Registered before the cache plugin.
 */
export function releaseHeaderPlugin(): Plugin {
  return {
    onExecute() {
      return {
        onExecuteDone({ result, args }) {
          const used = (args.contextValue as unknown as GraphQLContext).usedVersions;
          if (used?.size !== 1 || Symbol.asyncIterator in (result as object)) return;
          const r = result as ExecutionResult & { extensions?: Record<string, unknown> };
          const ext = (r.extensions ??= {}) as { http?: { headers?: Record<string, string> } };
          const http = (ext.http ??= {});
          (http.headers ??= {})['X-Terminology-Version'] = [...used][0]!;
          const languages = (args.contextValue as unknown as GraphQLContext).usedLanguages;
          if (languages?.size) http.headers['Content-Language'] = [...languages].join(', ');
        },
      };
    },
  };
}
