// GraphQL operation spans (OpenTelemetry's GraphQL conventions: `graphql.operation.name`,
// `graphql.operation.type`), children of the request's server span; the resolvers run with the
// operation's span active, so database, Redis and coding-engine spans are its children. The
// document and the variables are never recorded (client text and values).
//
// Our own envelop hooks rather than @envelop/opentelemetry: that plugin records the document by
// default, wraps the execute function (the JIT plugin, added after it, replaces that function,
// so resolvers would lose the span), and brings its own dependencies. Envelop's `instrumentation`
// wraps the whole execute phase whatever function runs it. Loaded only with traces on
// (src/observability/tracingSdk.ts).
import { context, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import { Kind, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { toGraphQLError } from './errors.ts';

// Incubating in the conventions (not in the package's stable entry): their names, as the conventions recommend.
const ATTR_GRAPHQL_OPERATION_NAME = 'graphql.operation.name';
const ATTR_GRAPHQL_OPERATION_TYPE = 'graphql.operation.type';
const ATTR_ERROR_TYPE = 'error.type';
/** A GraphQL name (the document parsed, so it is one), bounded. */
const NAME = /^[_A-Za-z][_0-9A-Za-z]{0,99}$/;

/** The operation a document runs: the named one, else the only one. */
function operationOf(document: DocumentNode | undefined, name: string | undefined | null): OperationDefinitionNode | undefined {
  let only: OperationDefinitionNode | undefined;
  for (const d of document?.definitions ?? []) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    if (name ? d.name?.value === name : !only) only = d;
    else if (!name) return undefined;
  }
  return only;
}

const isPromise = (v: unknown): v is Promise<unknown> => typeof (v as Promise<unknown> | undefined)?.then === 'function';

export function graphqlTracingPlugin(tracer: Tracer): Plugin {
  /** The operation span of an execution, by its context object (instrumentation and onExecute see the same one). */
  const spans = new WeakMap<object, Span>();
  return {
    instrumentation: {
      execute({ context: ctxValue }, wrapped) {
        const parent = context.active();
        // Under an unsampled request nothing is recorded: no span at all.
        if (!trace.getSpan(parent)?.isRecording()) return wrapped();
        const span = tracer.startSpan('GraphQL Operation', { kind: SpanKind.INTERNAL }, parent);
        spans.set(ctxValue, span);
        const end = () => {
          spans.delete(ctxValue);
          span.end();
        };
        let out: ReturnType<typeof wrapped>;
        try {
          out = context.with(trace.setSpan(parent, span), wrapped);
        } catch (e) {
          span.setStatus({ code: SpanStatusCode.ERROR });
          end();
          throw e;
        }
        if (!isPromise(out)) {
          end();
          return out;
        }
        return out.then(end, (e: unknown) => {
          span.setStatus({ code: SpanStatusCode.ERROR });
          end();
          throw e;
        });
      },
    },
    onExecute({ args }) {
      const span = spans.get(args.contextValue as object);
      if (!span) return undefined;
      const op = operationOf(args.document, args.operationName);
      const type = op?.operation;
      const name = op?.name?.value;
      if (type) span.setAttribute(ATTR_GRAPHQL_OPERATION_TYPE, type);
      if (name && NAME.test(name)) span.setAttribute(ATTR_GRAPHQL_OPERATION_NAME, name);
      // "{type} {name}", or the type alone for an anonymous operation.
      if (type) span.updateName(name && NAME.test(name) ? `${type} ${name}` : type);
      return {
        onExecuteDone({ result }) {
          const errors = (result as { errors?: readonly unknown[] }).errors;
          if (!errors?.length) return;
          const code = toGraphQLError(errors[0]).extensions.code;
          span.setStatus({ code: SpanStatusCode.ERROR });
          span.setAttribute(ATTR_ERROR_TYPE, typeof code === 'string' ? code : 'INTERNAL_ERROR');
        },
      };
    },
  };
}
