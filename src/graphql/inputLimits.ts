// Bounds on what a GraphQL request may make the server walk, checked before parsing and
// execution: graphql-js parses, validates and coerces recursively, so a list literal or a
// variable nested a few thousand levels deep would overflow the stack (an internal error)
// instead of being the client's mistake.
import { GraphQLError, Lexer, Source, TokenKind, parse } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** Tokens in one document: far above any real query (the whole SOC subtree query has ~60). */
export const MAX_TOKENS = 20_000;
/** Brackets, braces and parentheses open at once, in the document or in variables. */
export const MAX_NESTING = 64;

const OPEN = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSE = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/** Walks the tokens once (iteratively), refusing too many or too deeply nested ones. */
function checkDocument(source: string): void {
  const lexer = new Lexer(new Source(source));
  let depth = 0;
  let tokens = 0;
  for (let t = lexer.advance(); t.kind !== TokenKind.EOF; t = lexer.advance()) {
    if (++tokens > MAX_TOKENS) throw new GraphQLError(`Syntax Error: the document has more than ${MAX_TOKENS} tokens.`);
    if (OPEN.has(t.kind) && ++depth > MAX_NESTING) throw new GraphQLError(`Syntax Error: the document nests brackets more than ${MAX_NESTING} levels deep.`);
    if (CLOSE.has(t.kind)) depth--;
  }
}

/**
 * Whether a JSON value nests objects or arrays MAX_NESTING deep. Recursive, but never more than
 * MAX_NESTING calls deep (it stops there), and without allocating: the earlier walk's explicit
 * stack held every item of a long list at once (a tuple and an Object.values array per value),
 * 20-50 ms of the serving thread and its garbage for a /graphql body of 80,000 list items.
 */
export function tooDeep(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (depth >= MAX_NESTING) return true;
  if (Array.isArray(value)) {
    for (let k = 0; k < value.length; k++) if (tooDeep(value[k], depth + 1)) return true;
  } else {
    // JSON's objects: own enumerable fields only, as for…in reads them.
    for (const k in value) if (tooDeep((value as Record<string, unknown>)[k], depth + 1)) return true;
  }
  return false;
}

export function inputLimitsPlugin(): Plugin {
  return {
    onParams({ params }) {
      if (tooDeep(params.variables)) {
        throw new GraphQLError(`Variables are nested more than ${MAX_NESTING} levels deep.`, { extensions: { code: 'VALIDATION_ERROR', http: { status: 400 } } });
      }
    },
    onParse({ setParseFn }) {
      setParseFn((source, options) => {
        checkDocument(typeof source === 'string' ? source : source.body);
        return parse(source, { ...options, maxTokens: MAX_TOKENS });
      });
    },
  };
}
