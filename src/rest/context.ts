// Shared types and helpers of the REST routes.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../transport/appEnv.ts';
import type { GraphQLServer } from '../graphql/yoga.ts';
import { ProblemError, runOperation } from './execute.ts';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { validationDetail } from '../domain/errors.ts';

export type RestApp = OpenAPIHono<AppEnv>;

export interface RestDeps {
  yoga: GraphQLServer;
}

/**
 * Executes a route's GraphQL operation for this request. `fields` renames GraphQL argument
 * names in validation errors to the route's parameter names (from → fromVersionId).
 */
export async function operation<TData, TVars extends Record<string, unknown>>(
  deps: RestDeps,
  c: Context<AppEnv>,
  document: TypedDocumentNode<TData, TVars>,
  variables: TVars,
  fields: Record<string, string> = {},
) {
  try {
    const result = await runOperation(
      deps.yoga,
      c.req.raw,
      { requestId: c.get('requestId'), log: c.get('log'), clientIp: c.get('clientIp'), apiKeyId: c.get('apiKeyId'), warmUp: c.env?.warmUp },
      document,
      variables,
    );
    if (result.usedLanguages.size) {
      c.header('Content-Language', [...result.usedLanguages].join(', '));
      // Names follow Accept-Language when no lang is given (issue 28), on every route.
      c.header('Vary', 'Accept-Language', { append: true });
    }
    return result;
  } catch (e) {
    if (!(e instanceof ProblemError)) throw e;
    // An error about a release's content (a code it lacks) names that release, as answers do.
    nameRelease(c, e.usedVersions);
    if (e.problem.errors && Object.keys(fields).length) {
      const errors = Object.fromEntries(Object.entries(e.problem.errors).map(([k, v]) => [fields[k] ?? k, v]));
      throw new ProblemError({ ...e.problem, errors, detail: validationDetail(errors) }, e.usedVersions);
    }
    throw e;
  }
}

/** X-Terminology-Version: the release the request read, when it read exactly one. */
function nameRelease(c: Context<AppEnv, any, any>, usedVersions: ReadonlySet<string>): void {
  if (usedVersions.size === 1) c.header('X-Terminology-Version', [...usedVersions][0]!);
}

/**
 * The JSON text of answers made by respond(), by response: the catalog ETag and the warm
 * answer cache read it here rather than clone the response and read its stream back (the
 * clone, a stream tee, and the Fetch Response it forces were ~15 % of an uncached code page).
 */
const jsonTexts = new WeakMap<Response, string>();

/** The JSON text of a response made by respond(), if `res` is one (unchanged since). */
export function jsonTextOf(res: Response): string | undefined {
  return jsonTexts.get(res);
}

/** JSON response naming the release it used. */
export function respond<C extends Context<AppEnv, any, any>, T extends object>(c: C, body: T, usedVersions: Set<string>) {
  nameRelease(c, usedVersions);
  const text = JSON.stringify(body);
  // As c.json() makes it (same content type), but with the text kept beside it.
  const res = c.body(text, 200, { 'Content-Type': 'application/json' });
  jsonTexts.set(res, text);
  // Typed as c.json()'s answer: the routes' bodies stay checked against their OpenAPI schemas.
  return res as unknown as ReturnType<typeof c.json<T, 200>>;
}

/** Like respond(), for an answer written as a stream of JSON chunks (see jsonStream.ts): not kept for ETags or replay. */
export function respondStream<C extends Context<AppEnv, any, any>, T extends object>(c: C, body: ReadableStream<Uint8Array>, usedVersions: Set<string>) {
  nameRelease(c, usedVersions);
  return c.body(body, 200, { 'Content-Type': 'application/json' }) as unknown as ReturnType<typeof c.json<T, 200>>;
}
