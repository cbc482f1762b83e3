// graphql-jit for the operations it pays off on: each distinct document is compiled once into
// a JS function, which resolves a code page or a 28k-node subtree without graphql-js's generic
// per-field walk (issue 18). Compiling costs time on the request thread in proportion to the
// document, so only documents of at most MAX_JIT_FIELDS fields are compiled — every REST
// operation, the explorer's queries, typical client queries; a document of thousands of aliases
// (hostile or not) runs on graphql-js as before instead of stalling the server while it compiles.
import { useGraphQlJit } from '@envelop/graphql-jit';
import { Kind, visit, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export const MAX_JIT_FIELDS = 300;

const fieldCounts = new WeakMap<DocumentNode, number>();

export function fieldCount(document: DocumentNode): number {
  let n = fieldCounts.get(document);
  if (n === undefined) {
    let count = 0;
    visit(document, { [Kind.FIELD]: () => void count++ });
    fieldCounts.set(document, (n = count));
  }
  return n;
}

export function jitPlugin(): Plugin {
  return useGraphQlJit({}, { enableIf: (args) => fieldCount(args.document) <= MAX_JIT_FIELDS }) as Plugin;
}
