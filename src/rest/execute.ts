// Runs one typed GraphQL operation in-process through Yoga's envelope: the same
// schema, context factory, loaders, limits and error masking as /graphql.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print, type GraphQLError } from 'graphql';
import type { GraphQLServer } from '../graphql/yoga.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import type { Logger } from '../logger.ts';
import { problemFromGraphQL, type Problem } from '../transport/problem.ts';

export class ProblemError extends Error {
  constructor(
    readonly problem: Problem,
    /** Releases the failed operation had selected (a CODE_NOT_FOUND names its release in the header too). */
    readonly usedVersions: ReadonlySet<string> = new Set(),
  ) {
    super(problem.detail);
  }
}

export interface OperationResult<T> {
  data: T;
  /** Releases the operation read (for the X-Terminology-Version response header). */
  usedVersions: Set<string>;
  /** Languages of the names in the answer (for Content-Language). */
  usedLanguages: Set<string>;
}

const printed = new WeakMap<object, string>();

export async function runOperation<TData, TVars extends Record<string, unknown>>(
  yoga: GraphQLServer,
  request: Request,
  server: { requestId: string; log: Logger; clientIp?: string; apiKeyId?: string | undefined; warmUp?: boolean | undefined },
  document: TypedDocumentNode<TData, TVars>,
  variables: TVars,
): Promise<OperationResult<TData>> {
  let query = printed.get(document);
  if (!query) printed.set(document, (query = print(document)));
  // As over HTTP, where JSON drops them: an undefined variable is an absent one. Plugins that
  // read raw variables (the per-field rate limiter's argument reading) reject an own property
  // holding undefined ("Argument has invalid value $version").
  const variableValues = Object.fromEntries(Object.entries(variables).filter(([, v]) => v !== undefined)) as TVars;
  const { execute, contextFactory, schema } = yoga.getEnveloped({
    request,
    params: { query, variables: variableValues },
    inProcess: true,
    ...server,
  } as never);
  const contextValue = (await contextFactory()) as GraphQLContext;
  const result = await execute({ schema, document, variableValues, contextValue });
  if ('errors' in result && result.errors?.length) {
    throw new ProblemError(problemFromGraphQL(result.errors[0] as GraphQLError, server.requestId), contextValue.usedVersions);
  }
  return { data: (result as { data: TData }).data, usedVersions: contextValue.usedVersions, usedLanguages: contextValue.usedLanguages };
}
