// The first document a server validates runs graphql-js's validation for the first time: every
// rule's code compiled, and the schema's own check (once per schema). That was ~10 ms of the
// serving thread inside a client's first request (~25 ms on the slow host class): with a
// 10,000-item body, the first refused request of issue 27's aliases was a 35-50 ms turn here.
// So a server validates one document like a client's before it listens.
import { parse, specifiedRules, validate, type GraphQLError } from 'graphql';
import { schema } from './schema.ts';
import { listWorkRule } from './listWork.ts';

/** Variables, aliases, a fragment, nesting and a catalog field: the rules' usual paths, and listWork's refusal. */
const DOCUMENT = `query WarmUp($c: [CodeListItemInput!]!, $v: String) {
  a: validateCodes(codes: $c, version: $v) { summary { items } items { code pt { ...Term } primaryPath { ...Term } } }
  b: validateCodes(codes: $c) { summary { items } }
  versions { totalCount }
}
fragment Term on TermRef { code term level }`;

/** Validates the warm-up document as a request's would be; its errors (listWork's refusal alone). */
export function warmUpValidation(): readonly GraphQLError[] {
  return validate(schema, parse(DOCUMENT), [...specifiedRules, listWorkRule]);
}
