// Request headers every route reads, checked before any route runs: a malformed value is a
// VALIDATION_ERROR (problem JSON; the GraphQL error shape on /graphql), never a lookup.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../transport/appEnv.ts';
import { problem, sendProblem } from '../transport/problem.ts';
import { graphqlErrorResponse } from '../graphql/transportErrors.ts';
import { VERSION_SYNTAX, VERSION_SYNTAX_MESSAGE } from '../domain/formats.ts';
import { clip } from '../domain/clientText.ts';
import { validationDetail } from '../domain/errors.ts';

/** X-API-Version opts into future breaking changes; only version 1 exists today. */
export const SUPPORTED_API_VERSIONS = ['1'];

/** Field → messages for malformed headers, or undefined when both are acceptable. */
export function headerErrors(apiVersion: string | undefined, release: string | undefined): Record<string, string[]> | undefined {
  const errors: Record<string, string[]> = {};
  if (apiVersion !== undefined && !SUPPORTED_API_VERSIONS.includes(apiVersion.trim())) {
    errors['X-API-Version'] = [`unsupported value '${clip(apiVersion)}'; supported: ${SUPPORTED_API_VERSIONS.join(', ')}`];
  }
  // Empty is absent (the latest release); a well-formed unknown release is VERSION_NOT_FOUND later.
  if (release && !VERSION_SYNTAX.test(release)) errors['X-Terminology-Version'] = [`X-Terminology-Version ${VERSION_SYNTAX_MESSAGE}`];
  return Object.keys(errors).length ? errors : undefined;
}

export function requestHeadersMiddleware(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const errors = headerErrors(c.req.header('x-api-version'), c.req.header('x-terminology-version'));
    if (!errors) return next();
    const detail = validationDetail(errors);
    const requestId = c.get('requestId');
    return c.req.path === '/graphql' ? graphqlErrorResponse('VALIDATION_ERROR', detail, requestId, { errors }) : sendProblem(c, problem('VALIDATION_ERROR', detail, requestId, errors));
  };
}
