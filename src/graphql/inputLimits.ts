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

/** Depth of a JSON value, without recursion. */
function tooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d >= MAX_NESTING) return true;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
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
