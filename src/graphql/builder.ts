// The Pothos SchemaBuilder: plugins and options only, no types (see ./types).
import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import ComplexityPlugin from '@pothos/plugin-complexity';
import type { GraphQLContext } from './context.ts';
import { DomainError } from '../domain/errors.ts';

export interface Limits {
  maxDepth: number;
  maxComplexity: number;
}

export const DEFAULT_LIMITS: Limits = { maxDepth: 14, maxComplexity: 25_000 };

export const builder = new SchemaBuilder<{
  Context: GraphQLContext & { limits?: Limits; inProcess?: boolean };
  Scalars: { ID: { Input: string; Output: string }; JSON: { Input: unknown; Output: unknown } };
  DefaultFieldNullability: false;
}>({
  defaultFieldNullability: false,
  plugins: [RelayPlugin, ComplexityPlugin],
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    // Each id is a node to load: the list counts like any other client list (issue 27).
    nodesQueryOptions: { complexity: (args: { ids: readonly unknown[] }) => listCost(args.ids, 1, 1) },
  },
  complexity: {
    defaultComplexity: 1,
    // Lists that can be long say so themselves (connections: their page size; children: 8);
    // a default of 1 keeps connection edges from being counted twice.
    defaultListMultiplier: 1,
    // Limits come from configuration through the context, so operators can tune them.
    limit: (ctx) => {
      // A REST route's own operation: a fixed document whose page sizes the route has already
      // bounded, so no limit (an empty one skips the per-request count, ~4 % of a code page).
      if (ctx.inProcess) return {};
      const l = ctx.limits ?? DEFAULT_LIMITS;
      return { depth: l.maxDepth, complexity: l.maxComplexity };
    },
    complexityError: (kind, result) =>
      new DomainError(
        'VALIDATION_ERROR',
        kind === 'Depth'
          ? `Query depth ${result.depth} exceeds the limit of ${result.maxDepth}.`
          : `Query ${kind.toLowerCase()} ${result[kind === 'Complexity' ? 'complexity' : 'breadth']} exceeds the limit of ${kind === 'Complexity' ? result.maxComplexity : result.maxBreadth}; request smaller pages or fewer levels.`,
        { query: [`${kind.toLowerCase()} limit exceeded`] },
      ),
  },
});

builder.queryType({});

/**
 * Cost of a field that works through a list the client sends (coded data, node ids): its items
 * count, `perItem` each, and its selection once per `itemsPerSelection` items, so the cost grows
 * with list size × aliases × selections (a document may still hold only one coded-data field:
 * listWork.ts). A full 10,000-code validation costs about 10,000 of the default 25,000.
 */
export function listCost(items: unknown, perItem: number, itemsPerSelection = 1000): { field: number; multiplier: number } {
  const n = Array.isArray(items) ? items.length : 0;
  return { field: 20 + Math.ceil(n * perItem), multiplier: Math.max(1, Math.ceil(n / itemsPerSelection)) };
}
