// GraphQL metrics on the process's registry: operation duration by name, type and surface
// (graphql: /graphql; rest: a REST route's in-process operation), the parse, validate and
// execute phases, and errors by their documented code (extensions.code) and phase.
//
// Our own envelop hooks rather than @envelop/prometheus: that plugin keys every label on the
// parse phase, which the REST routes' operations skip (they run pre-parsed documents), and
// it times with Date.now() (whole milliseconds; most operations here take less).
//
// Operation names are the client's text: only the names the product itself sends (its REST
// operations, the explorer's, GraphiQL's) are kept; any other is `other`, a nameless one
// `anonymous`, so 10,000 invented names add no series.
import { Kind, type DocumentNode, type GraphQLError, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { Counter, Histogram, type Registry } from 'prom-client';
import { ERROR_STATUS } from '../domain/errors.ts';
import { DURATION_BUCKETS } from '../observability/metrics.ts';
import { toGraphQLError } from './errors.ts';

/** The operation names the product sends: src/rest/operations and web/src/operations (a test keeps this list in step), GraphiQL's. */
export const KNOWN_OPERATIONS = new Set([
  'AnalyseCodes', 'ApplySmq', 'Classify', 'ClassifyLabel', 'CodeChanges', 'CodeDetail', 'Identify', 'Impact',
  'ReleaseChanges', 'SearchCodes', 'SmqChanges', 'SmqDetail', 'Smqs', 'ValidateCodes', 'Versions',
  'ExplorerChanges', 'ExplorerChildren', 'ExplorerClassify', 'ExplorerClassifyLabel', 'ExplorerCode', 'ExplorerCodeSmqs',
  'ExplorerIdentify', 'ExplorerImpact', 'ExplorerSearch', 'ExplorerSmq', 'ExplorerSmqs', 'ExplorerSocs', 'ExplorerVersions',
  'ExplorerApplySmq', 'ExplorerCheckCodes', 'ExplorerCodeNames',
  'SocTree', 'IntrospectionQuery',
]);

const KNOWN_CODES = new Set(Object.keys(ERROR_STATUS));

export function operationLabel(name: string | undefined | null): string {
  if (!name) return 'anonymous';
  return KNOWN_OPERATIONS.has(name) ? name : 'other';
}

/** The documented code of an error as the client will see it (src/graphql/errors.ts), bounded. */
export function errorCodeLabel(error: unknown): string {
  const code = toGraphQLError(error).extensions.code;
  return typeof code === 'string' && KNOWN_CODES.has(code) ? code : 'INTERNAL_ERROR';
}

type Labels = { operation_name: string; operation_type: string; surface: string };
type Phase = 'parse' | 'validate' | 'execute';

/** The operation a document runs: the named one, else the only one. */
function operationOf(document: DocumentNode | undefined, name: string | undefined | null): OperationDefinitionNode | undefined {
  let only: OperationDefinitionNode | undefined;
  for (const d of document?.definitions ?? []) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    if (name ? d.name?.value === name : !only) only = d;
    else if (!name) return undefined; // several operations and no name: graphql-js refuses it
  }
  return only;
}

function labelsOf(document: DocumentNode | undefined, name: string | undefined | null, inProcess: boolean): Labels {
  const op = operationOf(document, name);
  return {
    operation_name: operationLabel(op?.name?.value ?? name),
    operation_type: op?.operation ?? 'unknown',
    surface: inProcess ? 'rest' : 'graphql',
  };
}

/** A /graphql request that never parsed (no query, a malformed body). */
const UNPARSED: Labels = { operation_name: 'anonymous', operation_type: 'unknown', surface: 'graphql' };

interface Ctx {
  request?: Request;
  inProcess?: boolean;
  /** The start's own warm-up (src/http/routeWarming.ts): observed nowhere. */
  warmUp?: boolean;
  params?: { operationName?: string | null };
}

export function graphqlMetricsPlugin(registry: Registry): Plugin {
  const registers = [registry];
  const labelNames = ['operation_name', 'operation_type', 'surface'] as const;
  const operation = new Histogram({
    name: 'graphql_operation_duration_seconds',
    help: "GraphQL operations (parse to result) by operation name, type and surface (graphql: /graphql; rest: a REST route's operation).",
    labelNames,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const phase = new Histogram({
    name: 'graphql_phase_duration_seconds',
    help: 'GraphQL phases (parse, validate, execute) by operation name, type and surface.',
    labelNames: [...labelNames, 'phase'],
    buckets: DURATION_BUCKETS,
    registers,
  });
  const errors = new Counter({
    name: 'graphql_errors_total',
    help: 'GraphQL errors by documented code (extensions.code), phase and surface.',
    labelNames: ['code', 'phase', 'surface'],
    registers,
  });
  const countErrors = (list: readonly unknown[], p: Phase, surface: string) => {
    for (const e of list) errors.inc({ code: errorCodeLabel(e), phase: p, surface });
  };
  // /graphql requests (the initial and the built context share the Request): when they started
  // and what they ran. Their duration is observed when the result is sent (onResultProcess),
  // which cached results reach too: the result cache answers before parsing, so their labels
  // come from an earlier run of the same text (queryLabels, bounded).
  const started = new WeakMap<Request, { t0: number; query: unknown }>();
  const ran = new WeakMap<Request, Labels>();
  const queryLabels = new Map<string, Labels>();
  const remember = (query: unknown, labels: Labels) => {
    if (typeof query !== 'string' || query.length > 4_096 || queryLabels.has(query)) return;
    if (queryLabels.size >= 500) queryLabels.clear();
    queryLabels.set(query, labels);
  };

  return {
    onParams({ request, context, params }) {
      if (!(context as Ctx).inProcess && !(context as Ctx).warmUp) started.set(request, { t0: performance.now(), query: params.query });
    },
    onParse({ context, params }) {
      const t0 = performance.now();
      const ctx = context as Ctx;
      if (ctx.warmUp) return undefined;
      return ({ result }) => {
        const surface = ctx.inProcess ? 'rest' : 'graphql';
        if (result instanceof Error) {
          phase.observe({ operation_name: 'anonymous', operation_type: 'unknown', surface, phase: 'parse' }, (performance.now() - t0) / 1000);
          countErrors([result], 'parse', surface);
          return;
        }
        const name = (params as { operationName?: string | null }).operationName ?? ctx.params?.operationName;
        const labels = labelsOf(result as DocumentNode, name, ctx.inProcess === true);
        phase.observe({ ...labels, phase: 'parse' }, (performance.now() - t0) / 1000);
        if (ctx.request && !ctx.inProcess) {
          ran.set(ctx.request, labels);
          remember(started.get(ctx.request)?.query, labels);
        }
      };
    },
    onValidate({ context, params }) {
      const t0 = performance.now();
      const ctx = context as Ctx;
      if (ctx.warmUp) return undefined;
      return ({ valid, result }) => {
        const labels = labelsOf(params.documentAST, ctx.params?.operationName, ctx.inProcess === true);
        phase.observe({ ...labels, phase: 'validate' }, (performance.now() - t0) / 1000);
        if (!valid) countErrors(result as readonly GraphQLError[], 'validate', labels.surface);
      };
    },
    onExecute({ args }) {
      const t0 = performance.now();
      const ctx = args.contextValue as Ctx;
      if (ctx.warmUp) return undefined;
      const labels = labelsOf(args.document, args.operationName, ctx.inProcess === true);
      return {
        onExecuteDone({ result }) {
          const now = performance.now();
          phase.observe({ ...labels, phase: 'execute' }, (now - t0) / 1000);
          // A REST route's operation ends here; /graphql's when its result is sent.
          if (ctx.inProcess) operation.observe(labels, (now - t0) / 1000);
          const errs = (result as { errors?: readonly unknown[] }).errors;
          if (errs?.length) countErrors(errs, 'execute', labels.surface);
        },
      };
    },
    onResultProcess({ request }) {
      const s = started.get(request);
      if (!s) return;
      started.delete(request);
      const labels = ran.get(request) ?? (typeof s.query === 'string' ? queryLabels.get(s.query) : undefined) ?? UNPARSED;
      operation.observe(labels, (performance.now() - s.t0) / 1000);
    },
  };
}
