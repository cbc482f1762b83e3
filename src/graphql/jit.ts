// graphql-jit for the operations it pays off on: each distinct document is compiled once into
// a JS function, which resolves a code page or a 28k-node subtree without graphql-js's generic
// per-field walk (issue 18). Compiling costs request-thread time and memory in proportion to the
// document with its fragments inlined at every use, and a client that writes its values into the
// text sends a new document each time. So only small documents are compiled: at most
// MAX_JIT_FIELDS fields once fragments are expanded — every REST operation, the explorer's
// queries, a subtree query; a 100-alias detail query (100 × its fragment) or thousands of
// aliases run on graphql-js as before instead of compiling on every request.
import { useGraphQlJit } from '@envelop/graphql-jit';
import { BREAK, Kind, visit, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export const MAX_JIT_FIELDS = 200;

const verdicts = new WeakMap<DocumentNode, boolean>();

/**
 * Fields of the document with fragment spreads expanded where used, counted up to `max` (the
 * count stops there: fan-out through nested fragments cannot make it expensive).
 */
export function expandedFieldCount(document: DocumentNode, max = MAX_JIT_FIELDS): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  let count = 0;
  const walk = (set: SelectionSetNode | undefined, depth: number): void => {
    if (!set || depth > 64) return;
    for (const s of set.selections) {
      if (count > max) return;
      if (s.kind === Kind.FIELD) {
        count++;
        walk(s.selectionSet, depth + 1);
      } else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet, depth + 1);
      else walk(fragments.get(s.name.value)?.selectionSet, depth + 1);
    }
  };
  for (const d of document.definitions) if (d.kind === Kind.OPERATION_DEFINITION) walk(d.selectionSet, 0);
  return Math.min(count, max + 1);
}

/**
 * A variable inside a list or object literal (`rowsData: [{code: $c}]`): graphql-jit reads the
 * literals of a custom scalar without the request's variables, so such documents run on graphql-js.
 */
export function variableInLiteral(document: DocumentNode): boolean {
  let depth = 0;
  let found = false;
  const nest = { enter: () => void depth++, leave: () => void depth-- };
  visit(document, {
    [Kind.LIST]: nest,
    [Kind.OBJECT]: nest,
    [Kind.VARIABLE]: () => {
      if (depth === 0) return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

export function compiles(document: DocumentNode): boolean {
  let v = verdicts.get(document);
  if (v === undefined) verdicts.set(document, (v = expandedFieldCount(document) <= MAX_JIT_FIELDS && !variableInLiteral(document)));
  return v;
}

export function jitPlugin(): Plugin {
  return useGraphQlJit({}, { enableIf: (args) => compiles(args.document) }) as Plugin;
}
