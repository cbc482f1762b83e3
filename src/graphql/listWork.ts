// What one GraphQL request may ask of the coded-data workflows, checked at validation (before
// anything runs): the fields that take a client's list (validateCodes, analyseCodes, impact,
// applySmq) each cost up to a second of work per call, and aliases or fragments would repeat
// that inside one document (10 aliases × 10,000 codes froze the server 15 s, issue 27). So a
// document selects at most one of them, counted through aliases, fragments and inline
// fragments; their list sizes count in the cost (builder.ts, listCost), and they run only on
// POST: GET is for cheap reads (a link or an <img> can send one). The same walk refuses
// operation types the schema lacks (mutation, subscription): the API is read-only, and
// graphql-js 16 would otherwise fail inside execution with an internal error. And a coded list
// sent as a variable is counted before GraphQL coerces it (one synchronous pass over every item).
import { GraphQLError, Kind, getOperationAST, type ASTVisitor, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode, type TypeNode, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { MAX_CODE_LIST } from '../services/limits.ts';
import { tooManyCodes } from '../services/codeLists.ts';
import { toGraphQLError } from './errors.ts';

/** Root fields that do work in proportion to a list the client sends. */
export const CODED_DATA_FIELDS = new Set(['validateCodes', 'analyseCodes', 'impact', 'applySmq']);
/** Root fields that run the narrative coding engine (a worker task each). */
const ENGINE_FIELDS = new Set(['identify', 'classify', 'classifyLabel']);

/** Coded-data fields of one document; a document may select this many at most. */
export const MAX_CODED_DATA_FIELDS = 1;

const WATCHED = new Set([...CODED_DATA_FIELDS, ...ENGINE_FIELDS]);

const clientError = (message: string) => new GraphQLError(message, { extensions: { code: 'VALIDATION_ERROR' } });

/** Root fields of the operation by name, with fragments expanded where used (each use counts). */
function rootFieldUses(selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, names: Set<string>): Map<string, number> {
  const uses = new Map<string, number>();
  // Iterative, bounded: fragments spread in fragments are followed at most 16 levels (the
  // parser already bounds nesting; NoFragmentCycles runs before this rule reports).
  const stack: [SelectionSetNode, number][] = [[selectionSet, 0]];
  let steps = 0;
  while (stack.length && steps++ < 100_000) {
    const [set, depth] = stack.pop()!;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        if (names.has(s.name.value)) uses.set(s.name.value, (uses.get(s.name.value) ?? 0) + 1);
      } else if (depth < 16) {
        const next = s.kind === Kind.INLINE_FRAGMENT ? s.selectionSet : fragments.get(s.name.value)?.selectionSet;
        if (next) stack.push([next, depth + 1]);
      }
    }
  }
  return uses;
}

const heavyOnGet = new WeakMap<DocumentNode, string | null>();

/** The first coded-data or narrative field a document selects at the root of any operation. */
function heavyField(document: DocumentNode): string | null {
  let found = heavyOnGet.get(document);
  if (found === undefined) {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    found = null;
    for (const d of document.definitions) {
      if (d.kind !== Kind.OPERATION_DEFINITION) continue;
      const uses = rootFieldUses(d.selectionSet, fragments, WATCHED);
      if (uses.size) found = [...uses.keys()][0]!;
    }
    heavyOnGet.set(document, found);
  }
  return found;
}

/** The validation rule: operation types the schema has, at most one coded-data field. */
export function listWorkRule(context: ValidationContext): ASTVisitor {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of context.getDocument().definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  return {
    OperationDefinition(node) {
      if (!context.getSchema().getRootType(node.operation)) {
        context.reportError(clientError(`This API is read-only: it has no ${node.operation} operations; send a query.`));
        return false;
      }
      let coded = 0;
      for (const n of rootFieldUses(node.selectionSet, fragments, CODED_DATA_FIELDS).values()) coded += n;
      if (coded > MAX_CODED_DATA_FIELDS) {
        context.reportError(
          clientError(`A document may select at most ${MAX_CODED_DATA_FIELDS} of validateCodes, analyseCodes, impact and applySmq (aliases and fragments included); it selects ${coded}: send one request per list.`),
        );
      }
      return false;
    },
  };
}

/** The item type of a list type (`[T!]!` → T), or undefined. */
function listItemType(type: TypeNode): string | undefined {
  const list = type.kind === Kind.NON_NULL_TYPE ? type.type : type;
  if (list.kind !== Kind.LIST_TYPE) return undefined;
  const item = list.type.kind === Kind.NON_NULL_TYPE ? list.type.type : list.type;
  return item.kind === Kind.NAMED_TYPE ? item.name.value : undefined;
}

/**
 * The length of a coded-list variable longer than MAX_CODE_LIST, if the operation has one. The
 * service refuses such a list, but after GraphQL has coerced it, in one synchronous pass: 80,000
 * items (within /graphql's body limit) were a 28-62 ms turn of the serving thread here.
 */
function tooLongCodeList(document: DocumentNode, operationName: string | null | undefined, variables: unknown): number | undefined {
  if (!variables || typeof variables !== 'object') return undefined;
  for (const v of getOperationAST(document, operationName)?.variableDefinitions ?? []) {
    if (listItemType(v.type) !== 'CodeListItemInput') continue;
    const value = (variables as Record<string, unknown>)[v.variable.name.value];
    if (Array.isArray(value) && value.length > MAX_CODE_LIST) return value.length;
  }
  return undefined;
}

export function listWorkPlugin(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(listWorkRule);
    },
    onExecute({ args, setResultAndStopExecution }) {
      // A REST route's list is bounded by its body schema already.
      if ((args.contextValue as { inProcess?: boolean }).inProcess) return;
      const got = tooLongCodeList(args.document, args.operationName, args.variableValues);
      if (got !== undefined) setResultAndStopExecution({ errors: [toGraphQLError(tooManyCodes(got))] });
    },
    // As Yoga refuses a mutation over GET: after parsing, with its status (the validation
    // result is cached per document, whatever the method).
    onParse({ context }) {
      const method = (context as { request?: Request }).request?.method;
      if (method !== 'GET') return undefined;
      return ({ result }) => {
        const field = result && !(result instanceof Error) ? heavyField(result as DocumentNode) : null;
        if (field) {
          throw new GraphQLError(`${field} runs only on POST (application/json): GET is for catalog reads.`, {
            extensions: { code: 'METHOD_NOT_ALLOWED', http: { status: 405, headers: { Allow: 'POST' } } },
          });
        }
      };
    },
  };
}
