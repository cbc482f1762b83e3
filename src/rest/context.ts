// Shared types and helpers of the REST routes.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Logger } from '../logger.ts';
import type { GraphQLServer } from '../graphql/yoga.ts';
import { ProblemError, runOperation } from './execute.ts';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { validationDetail } from '../domain/errors.ts';

export type AppEnv = { Variables: { requestId: string; log: Logger; clientIp: string; apiKeyId?: string } };
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
    return await runOperation(
      deps.yoga,
      c.req.raw,
      { requestId: c.get('requestId'), log: c.get('log'), clientIp: c.get('clientIp'), apiKeyId: c.get('apiKeyId') },
      document,
      variables,
    );
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

/** JSON response naming the release it used. */
export function respond<C extends Context<AppEnv, any, any>, T extends object>(c: C, body: T, usedVersions: Set<string>) {
  nameRelease(c, usedVersions);
  return c.json(body, 200);
}
