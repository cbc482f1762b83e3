// The per-field limit of the narrative fields (identify, classify, classifyLabel) through
// @envelop/rate-limiter, applied only to operations that select one of them. The plugin walks
// the whole document with type information on every execution to find limited fields; a code
// page or a subtree has none, and that walk was ~7 % of an uncached REST code page's CPU
// (issue 18). Whether a document names a limited field is decided once per document object
// (REST operations are static; Yoga's parser cache hands out the same object for the same text).
import { useRateLimiter } from '@envelop/rate-limiter';
import { GraphQLError, Kind, visit, BREAK, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { DomainError } from '../domain/errors.ts';
import type { GraphQLContext } from './context.ts';

export const RATE_LIMITED_FIELDS = ['identify', 'classify', 'classifyLabel'] as const;

const named = new Set<string>(RATE_LIMITED_FIELDS);
const verdicts = new WeakMap<DocumentNode, boolean>();

/** Whether any field of the document is named like a limited field (a superset of what the plugin limits). */
export function namesLimitedField(document: DocumentNode): boolean {
  let found = verdicts.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      [Kind.FIELD](node) {
        if (named.has(node.name.value)) {
          found = true;
          return BREAK;
        }
        return undefined;
      },
    });
    verdicts.set(document, found);
  }
  return found;
}

export function narrativeRateLimitPlugin(maxPerMinute: number): Plugin {
  const limiter = useRateLimiter({
    identifyFn: (ctx) => (ctx as GraphQLContext).clientIp,
    configByField: RATE_LIMITED_FIELDS.map((field) => ({ type: 'Query', field, max: maxPerMinute, window: '1m' })),
    // Thrown from the plugin's execute hook, where Yoga expects a GraphQLError; the
    // DomainError inside it gives the documented RATE_LIMITED shape on both APIs.
    transformError: (message: string) =>
      new GraphQLError(message, {
        originalError: new DomainError('RATE_LIMITED', message, undefined, { retryAfter: 60, limit: maxPerMinute, reset: Math.ceil(Date.now() / 1000) + 60 }),
      }),
  }) as Plugin;
  const onExecute = limiter.onExecute;
  if (!onExecute) return limiter;
  return {
    ...limiter,
    onExecute: (payload) => (namesLimitedField(payload.args.document) ? onExecute(payload) : undefined),
  } as Plugin;
}
