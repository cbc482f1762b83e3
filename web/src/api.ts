// The explorer's only data path: the public GraphQL endpoint, with the typed documents that
// codegen generates from web/src/operations/*.graphql. Catalog answers are cached in memory
// for the tab (releases never change once imported); the AI fields are never cached.
import type { TypedDocumentString } from './operations/generated.ts';

/** An API failure, as a reader should see it: a sentence, the error code and the request id. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly requestId: string | undefined,
    readonly status: number,
  ) {
    super(message);
  }
}

interface GraphQLErrorShape {
  message?: string;
  extensions?: { code?: string; requestId?: string; status?: number };
}

const cache = new Map<string, Promise<unknown>>();

/** The explorer's language (the shell sets it), for requests made outside the query hook. */
let shellLanguage: string | undefined;
export function setShellLanguage(language: string | undefined): void {
  shellLanguage = language;
}

export interface QueryOptions {
  /** Sent as X-API-Key (narrative fields). */
  apiKey?: string;
  /** Keep the answer for the life of the tab (default true; false for the AI fields). */
  cache?: boolean;
  /**
   * The language names are shown in (BCP 47), sent as Accept-Language: fields without a
   * `language` argument of their own then name codes in it too (the API's fallback).
   */
  language?: string;
}

export async function gql<R, V>(doc: TypedDocumentString<R, V>, variables: V, opts: QueryOptions = {}): Promise<R> {
  const query = doc.toString();
  opts = { ...opts, language: opts.language ?? shellLanguage };
  const key = `${query}\n${JSON.stringify(variables)}\n${opts.language ?? ''}`;
  const useCache = opts.cache !== false;
  if (useCache) {
    const hit = cache.get(key);
    if (hit) return hit as Promise<R>;
  }
  const p = request<R>(query, variables, opts.apiKey, opts.language);
  if (useCache) {
    cache.set(key, p);
    p.catch(() => cache.delete(key));
  }
  return p;
}

async function request<R>(query: string, variables: unknown, apiKey?: string, language?: string): Promise<R> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' };
  if (apiKey) headers['x-api-key'] = apiKey;
  if (language) headers['accept-language'] = language;
  let res: Response;
  try {
    res = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  } catch {
    throw new ApiError('The server could not be reached. Check your connection and try again.', 'NETWORK_ERROR', undefined, 0);
  }
  const headerId = res.headers.get('x-request-id') ?? undefined;
  let body: { data?: R | null; errors?: GraphQLErrorShape[]; detail?: string; title?: string; code?: string; requestId?: string } | undefined;
  try {
    body = await res.json();
  } catch {
    throw new ApiError(`The server answered ${res.status} ${res.statusText} without a readable body.`, 'BAD_RESPONSE', headerId, res.status);
  }
  const first = body?.errors?.[0];
  if (first) {
    throw new ApiError(first.message ?? 'The request failed.', first.extensions?.code ?? 'ERROR', first.extensions?.requestId ?? headerId, first.extensions?.status ?? res.status);
  }
  if (!res.ok || !body?.data) {
    // Refusals before GraphQL runs (rate limit, body size) are problem JSON.
    throw new ApiError(body?.detail ?? body?.title ?? `The server answered ${res.status}.`, body?.code ?? 'HTTP_ERROR', body?.requestId ?? headerId, res.status);
  }
  return body.data;
}
