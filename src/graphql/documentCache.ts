// Yoga keeps parsed documents (and their parse and validation errors) so a repeated document is
// not parsed or validated again. Its default caches count entries (1,024 each): 1,024 distinct
// large documents held gigabytes, and every cached GraphQLError kept its unformatted stack —
// V8's call-site records, whose closures reach the request that caused it (its IncomingMessage,
// socket and body stream). Here the caches are bounded in bytes (an AST costs about ten times its
// source), and errors are stripped of their stacks before they are kept (issue 27 defect 6).
import type { DocumentNode, GraphQLError } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { Plugin } from 'graphql-yoga';
import { memoryGauges } from '../observability/signals.ts';
import { compiles } from './jit.ts';

/**
 * Heap an entry is taken to cost, measured (heap used after a full GC, 300 distinct search
 * documents of ~110 characters): a parsed document ~100 bytes per character of its source, and a
 * document graphql-jit compiles ~80 KB more — its compiled query lives as long as the document
 * (a WeakMap keyed by it), so the document's entry counts it. Counted as 10 bytes a character
 * before, 50,000 distinct searches took the shipped server from 0.4 to 1.3 GB RSS.
 */
const AST_BYTES_PER_CHAR = 100;
const JIT_BYTES = 80 * 1024;
const ENTRY_BYTES = 1_000;

/** Default bytes of parsed documents kept (README › Memory). */
export const DOCUMENT_CACHE_BYTES = 32 * 1024 * 1024;

export interface DocumentCacheOptions {
  /** Bytes (estimated) of parsed documents kept; errors get a tenth of it. */
  maxBytes: number;
}

/** A formatted stack is a string; the structured frames (and what they retain) are then released. */
function dropStack(error: Error): void {
  // Reading .stack makes V8 format it and drop the call-site records; the text is not needed.
  void error.stack;
  error.stack = `${error.name}: ${error.message}`;
}

export function documentCaches(opts: DocumentCacheOptions) {
  const documentCache = new LRUCache<string, DocumentNode>({
    maxSize: opts.maxBytes,
    sizeCalculation: (doc, source) => source.length * AST_BYTES_PER_CHAR + ENTRY_BYTES + (compiles(doc) ? JIT_BYTES : 0),
  });
  const errors = new LRUCache<string, Error>({
    maxSize: Math.max(ENTRY_BYTES * 16, Math.floor(opts.maxBytes / 10)),
    sizeCalculation: (e, source) => source.length * 2 + e.message.length * 2 + ENTRY_BYTES,
  });
  const errorCache = {
    get: (source: string) => errors.get(source),
    set: (source: string, error: unknown) => {
      if (!(error instanceof Error)) return;
      dropStack(error);
      errors.set(source, error);
    },
  };
  memoryGauges.graphqlDocuments = { bytes: () => documentCache.calculatedSize + errors.calculatedSize, budget: opts.maxBytes + errors.maxSize };
  return { documentCache, errorCache, validationCache: true as const };
}

/** Validation errors are cached beside their document (by Yoga): keep them without their stacks. */
export function validationErrorStacksPlugin(): Plugin {
  return {
    onValidate: () => ({ result }) => {
      for (const e of result as readonly GraphQLError[]) dropStack(e);
    },
  };
}
