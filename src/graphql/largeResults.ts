// A GraphQL answer holding a long list (validateCodes of 10,000 codes, an impact report:
// megabytes of JSON) is written a slice of the list per macrotask, as the REST routes write
// theirs (src/transport/jsonStream.ts): Yoga's one JSON.stringify of such a result held the
// serving thread 20-25 ms in one turn (50-60 ms on the slow host class). Same bytes, same status
// and Content-Type as Yoga's own answer; results with errors or extensions, batches and
// streams are left to Yoga.
import type { ExecutionResult } from 'graphql';
import { isAsyncIterable, processRegularResult, type Plugin } from 'graphql-yoga';
import { holdsLongList, jsonValueChunks, streamChunks } from '../transport/jsonStream.ts';

/** Items of a list written per chunk (as the REST routes'). */
const ITEMS_PER_CHUNK = 250;

/** The two media types of Yoga's JSON answers, in the order its negotiation tries them. */
const JSON_TYPES = ['application/graphql-response+json', 'application/json'];

/**
 * The media type Yoga's negotiation (useResultProcessors) picks for its JSON answer: the last
 * match of its loops over the Accept entries (utf-8 only, in reverse) and JSON_TYPES.
 */
function jsonMediaType(request: Request): string | undefined {
  const accepts = (request.headers.get('accept') || '*/*').replace(/\s/g, '').toLowerCase().split(',');
  let picked: string | undefined;
  for (const accept of accepts.reverse()) {
    const [asked, ...params] = accept.split(';');
    if (!asked || (params.find((p) => p.includes('charset=')) ?? 'charset=utf-8') !== 'charset=utf-8') continue;
    const [askedPre, askedSuf] = asked.split('/');
    for (const type of JSON_TYPES) {
      const [pre, suf] = type.split('/');
      if ((askedPre === '*' || askedPre === pre) && (askedSuf === '*' || askedSuf === suf)) picked = type;
    }
  }
  return picked;
}

/** A result with the serialiser Yoga's processor calls instead of JSON.stringify when present (the result cache's text). */
type Serialisable = ExecutionResult & { stringify?: (r: unknown) => string };

export function largeResultsPlugin(): Plugin {
  return {
    onResultProcess({ request, result, resultProcessor, setResultProcessor }) {
      if (resultProcessor !== processRegularResult || Array.isArray(result) || isAsyncIterable(result)) return;
      const single = result as Serialisable;
      // A serialiser of its own (graphql-jit's is JSON.stringify) has the text made already.
      if (single.errors?.length || (single.stringify && single.stringify !== JSON.stringify) || !holdsLongList(single.data, ITEMS_PER_CHUNK)) return;
      const mediaType = jsonMediaType(request);
      if (!mediaType) return;
      setResultProcessor((r, fetchAPI) => {
        const { extensions } = r as ExecutionResult;
        // Status and headers (X-Terminology-Version rides in extensions.http) as Yoga answers them.
        const head = processRegularResult({ data: null, extensions }, fetchAPI, mediaType) as Response;
        // As Yoga prints a result without errors: its fields in their order, the extensions but the http one (response headers).
        const { http: _http, ...rest } = (extensions ?? {}) as Record<string, unknown>;
        const body = extensions ? { ...(r as object), extensions: Object.keys(rest).length ? rest : undefined } : r;
        const headers = new fetchAPI.Headers(head.headers);
        headers.delete('content-length'); // the stand-in's
        return new fetchAPI.Response(streamChunks(jsonValueChunks(body, ITEMS_PER_CHUNK)), { status: head.status, headers });
      }, mediaType);
    },
  };
}
