// graphql-yoga serving the Pothos schema at /graphql, with GraphiQL bundled for
// offline use. The REST layer executes its operations through the same envelope.
import { documentCaches, DOCUMENT_CACHE_BYTES, validationErrorStacksPlugin } from './documentCache.ts';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { GraphQLError, NoSchemaIntrospectionCustomRule, type ExecutionResult } from 'graphql';
import { schema } from './schema.ts';
import type { GraphQLContext } from './context.ts';
import { createScope, type Services } from '../services/scope.ts';
import { toGraphQLError } from './errors.ts';
import { DEFAULT_LIMITS, type Limits } from './builder.ts';
import type { Logger } from '../logger.ts';
import { releaseHeaderPlugin, resultCachePlugin, type ResultCacheOptions } from './resultCache.ts';
import { inputLimitsPlugin } from './inputLimits.ts';
import { logResultErrors, logYogaError } from './errorLog.ts';
import { transportErrorsPlugin } from './transportErrors.ts';
import { narrativeRateLimitPlugin } from './narrativeRateLimit.ts';
import { jitPlugin } from './jit.ts';
import { listWorkPlugin } from './listWork.ts';
import { largeResultsPlugin } from './largeResults.ts';

/** What the HTTP layer passes with each request. */
export interface ServerContext {
  requestId: string;
  log: Logger;
  clientIp?: string;
  /** Set when the HTTP layer already verified X-API-Key (REST narrative routes). */
  apiKeyId?: string | undefined;
  /** Filled with the releases the operation read. */
  usedVersions?: Set<string>;
  /** A REST route executing its operation in-process (not an HTTP /graphql request). */
  inProcess?: boolean;
  /** The start's own warm-up (src/http/routeWarming.ts): not counted in the metrics. */
  warmUp?: boolean;
}

export interface GraphQLOptions {
  /** Per-client limit of the AI fields (identify, classify, classifyLabel) per minute; 0 = none. */
  aiRateLimitPerMinute?: number;
  limits?: Limits;
  introspection?: boolean;
  /** Hash → query text; when given, only these operations run (clients send extensions.persistedQuery or documentId). */
  persistedOperations?: Record<string, string>;
  /** Whole-result cache of catalog queries (default on: 128 MB, 60 s); false disables it. */
  resultCache?: ResultCacheOptions | false;
  /** Bytes (estimated) of parsed documents kept (default DOCUMENT_CACHE_BYTES; MEMORY_BUDGET_MB's share). */
  documentCacheBytes?: number;
  /** Run first, before the others (metrics: src/graphql/metricsPlugin.ts). */
  plugins?: Plugin[];
}

const DEFAULT_QUERY = `# A SOC's subtree in one request: HLGTs, HLTs, PTs and their LLTs.
query SocTree {
  version { version isLatest }
  code(code: "10017947") {
    code term level
    children {
      code { code term
        children {
          code { code term
            children {
              isPrimary
              code { code term
                children { code { code term status } }
              }
            }
          }
        }
      }
    }
  }
}
`;

function normalizeErrors(result: ExecutionResult, requestId: string): ExecutionResult {
  if (!result.errors?.length) return result;
  return { ...result, errors: result.errors.map((e) => toGraphQLError(e, requestId)) };
}

/** Puts the documented code, status and request id on every error, whatever stage raised it. */
function errorShapePlugin(): Plugin<GraphQLContext & ServerContext> {
  return {
    onResultProcess({ result, setResult, serverContext }) {
      const { requestId, log } = serverContext as unknown as ServerContext;
      const shaped = (r: ExecutionResult) => {
        const out = normalizeErrors(r, requestId);
        logResultErrors(log, out);
        return out;
      };
      if (Array.isArray(result)) setResult(result.map(shaped));
      else if (result && typeof result === 'object' && 'errors' in result) setResult(shaped(result as ExecutionResult));
    },
  };
}

function noIntrospectionPlugin(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
}

export type GraphQLServer = YogaServerInstance<ServerContext, GraphQLContext>;

export function createGraphQLServer(services: Services, opts: GraphQLOptions = {}): GraphQLServer {
  const limits = opts.limits ?? DEFAULT_LIMITS;
  return createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    parserAndValidationCache: documentCaches({ maxBytes: opts.documentCacheBytes ?? DOCUMENT_CACHE_BYTES }),
    graphiql: { title: 'Terminology Explorer — GraphiQL', defaultQuery: DEFAULT_QUERY },
    // Loaded on the first GraphiQL page, not at start (~0.15 s of every cold start).
    renderGraphiQL: async (o) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(o),
    logging: {
      debug: (...a) => services.log.debug({ yoga: a.map(String) }),
      info: (...a) => services.log.info({ yoga: a.map(String) }),
      warn: (...a) => services.log.warn({ yoga: a.map(String) }),
      error: (...a) => logYogaError(services.log, a),
    },
    maskedErrors: {
      maskError: (error) => toGraphQLError(error),
    },
    context: ({ request, requestId, log, usedVersions, clientIp, apiKeyId, inProcess, warmUp }) => ({
      ...createScope(services, {
        requestId,
        log,
        usedVersions,
        clientIp,
        apiKeyId,
        apiKey: request.headers.get('x-api-key') ?? undefined,
        headerVersion: request.headers.get('x-terminology-version') ?? undefined,
        acceptLanguage: request.headers.get('accept-language') ?? undefined,
      }),
      limits,
      inProcess,
      warmUp,
    }),
    plugins: [
      ...(opts.plugins ?? []),
      jitPlugin(),
      validationErrorStacksPlugin(),
      inputLimitsPlugin(),
      listWorkPlugin(),
      errorShapePlugin(),
      transportErrorsPlugin(),
      releaseHeaderPlugin(),
      ...(opts.resultCache === false ? [] : [resultCachePlugin(services.catalog, opts.resultCache)]),
      ...(opts.aiRateLimitPerMinute
        ? [
            narrativeRateLimitPlugin(opts.aiRateLimitPerMinute),
          ]
        : []),
      ...(opts.introspection === false ? [noIntrospectionPlugin()] : []),
      // After errorShapePlugin: it takes over the answer of results that come out without errors.
      largeResultsPlugin(),
      ...(opts.persistedOperations
        ? [
            usePersistedOperations<GraphQLContext>({
              getPersistedOperation: (key) => opts.persistedOperations![key] ?? null,
              // REST routes execute in-process and never pass through this HTTP check.
              allowArbitraryOperations: false,
            }),
          ]
        : []),
    ],
  });
}

export { GraphQLError };
