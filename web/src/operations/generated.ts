/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type ChangeType =
  /** absent from the baseline release */
  | 'ADDED'
  /** an LLT made non-current, or a concept absent from the target release */
  | 'RETIRED'
  /** renamed, re-linked, moved, promoted/demoted, made current again… */
  | 'UPDATED';

export type ClassifyInput = {
  description: string;
  /** Codes returned, 1–20 (default 5). */
  limit?: number | null | undefined;
  /** Assess seriousness (default false). */
  seriousness?: boolean | null | undefined;
  /** Severity systems to assess (default none). */
  severity?: Array<SeveritySystem> | null | undefined;
  /** Predict codes (default true). */
  terminology?: boolean | null | undefined;
  /** Same as assessments.terminology.version on REST. */
  terminologyVersion?: string | null | undefined;
  version?: string | null | undefined;
};

export type CodeListItemInput = {
  code: string;
  /** The term as recorded. */
  term?: string | null | undefined;
};

/** Lifecycle state. Only LLTs become non-current; every other level is always current. */
export type CodeStatus =
  | 'CURRENT'
  | 'NON_CURRENT';

export type ImpactInput = {
  /** Release the rows were coded with. */
  from: string;
  /** At most 100000 rows. Give rows or rowsData. */
  rows?: Array<ImpactRowInput> | null | undefined;
  /** The same rows as one JSON array of {rowId, code, term?, line?, position?} (line and position: where the row is in the client's file): for up to 100,000 rows, which graphql-js would coerce as typed input objects in one blocking step (REST and the CLI use it). */
  rowsData?: unknown;
  /** Release to upgrade to (any hosted release, either direction). */
  to: string;
  /** Only check the rows: the errors come back alone. */
  validateOnly?: boolean | null | undefined;
};

export type ImpactKind =
  /** The code no longer exists in the target release. */
  | 'CODE_RETIRED'
  /** The primary path (HLT or HLGT) the code rolls up to changed. */
  | 'HIERARCHY_CHANGED'
  /** The LLT moved to another PT: cases now count under the new PT. */
  | 'LLT_MOVED'
  /** The LLT was made non-current: new coding must not use it. */
  | 'LLT_NON_CURRENT'
  /** The LLT was promoted to a PT of its own. */
  | 'LLT_PROMOTED'
  /** The primary SOC the code rolls up to changed. */
  | 'PRIMARY_SOC_CHANGED'
  /** The PT was demoted to an LLT of another PT. */
  | 'PT_DEMOTED'
  /** The code's term was renamed. */
  | 'RENAMED'
  /** The recorded term does not match the code’s term in the target release. */
  | 'TERM_MISMATCH'
  /** The code's name changed in the report's language only (a translation correction): the primary language's name is unchanged. */
  | 'TRANSLATION_CHANGED';

/** A coded row. Every field is optional here so that a bad row is reported with its reason instead of failing the request. */
export type ImpactRowInput = {
  /** LLT or PT code. */
  code?: string | null | undefined;
  /** Line of the source file (reported with errors). */
  line?: number | null | undefined;
  rowId?: string | null | undefined;
  /** The term as recorded (optional). */
  term?: string | null | undefined;
};

export type LabelClassifyInput = {
  /** Contexts whose mentions are coded (default [ADVERSE_EVENT]). */
  contexts?: Array<LabelMentionContext> | null | undefined;
  description: string;
  /** Also list the candidates dropped for their context (default false). */
  includeExcluded?: boolean | null | undefined;
  /** 1–100, default 25. */
  maxResults?: number | null | undefined;
  /** 0–1, default 0.25. */
  minConfidence?: number | null | undefined;
  /** Kind of section; detected from the heading or the text when absent. */
  sectionType?: LabelSectionType | null | undefined;
  version?: string | null | undefined;
};

/** Clause-level context of a mention: only ADVERSE_EVENT mentions are coded unless the request asks for others. */
export type LabelMentionContext =
  | 'ADVERSE_EVENT'
  | 'ANIMAL'
  | 'HYPOTHETICAL'
  | 'INDICATION'
  | 'NEGATED'
  | 'OVERDOSE'
  | 'POPULATION';

/** Kind of product-label section. */
export type LabelSectionType =
  | 'ADVERSE_REACTIONS'
  | 'BOXED_WARNING'
  | 'CLINICAL_STUDIES'
  | 'INDICATIONS'
  | 'OTHER'
  | 'OVERDOSAGE'
  | 'SPECIFIC_POPULATIONS'
  | 'WARNINGS_PRECAUTIONS';

/** Hierarchy level: SOC (system organ class) → HLGT → HLT → PT (preferred term) → LLT (lowest level term). */
export type Level =
  | 'HLGT'
  | 'HLT'
  | 'LLT'
  | 'PT'
  | 'SOC';

/** How a search query matched a name, best first. */
export type MatchType =
  /** the whole name equals the query (case and accents ignored) */
  | 'EXACT'
  /** typo-tolerant trigram match */
  | 'FUZZY'
  /** the name starts with the query */
  | 'PREFIX'
  /** a word inside the name starts with the query */
  | 'WORD_PREFIX';

export type RecodeAction =
  /** The code stays valid: keep it (tables may shift). */
  | 'KEEP'
  /** Recode to the suggested code. */
  | 'RECODE'
  /** A person must decide; the suggested code, if any, is a candidate. */
  | 'REVIEW';

/** Type of a hierarchy edge. SOC_TO_PT is the link from a PT to its primary SOC. */
export type RelationshipType =
  | 'HLGT_TO_HLT'
  | 'HLT_TO_PT'
  | 'PT_TO_LLT'
  | 'SOC_TO_HLGT'
  | 'SOC_TO_PT';

export type SeveritySystem =
  /** CTCAE grade 1–5 */
  | 'FIVE_LEVEL'
  /** mild / moderate / severe */
  | 'THREE_LEVEL';

export type SmqRowProblemReason =
  /** the code is a SOC, HLGT or HLT */
  | 'NOT_PT_OR_LLT'
  /** the code does not exist in the release */
  | 'UNKNOWN_CODE';

/** Scope of an SMQ term (smq_content term_scope): NARROW (2) finds cases highly likely to be the condition; BROAD (1) adds those that may be. A broad search runs both. */
export type SmqScope =
  | 'BROAD'
  | 'NARROW';

/** A (active) or I (inactive) in the files. Inactive terms stay listed but are not used by a search. */
export type SmqStatus =
  | 'ACTIVE'
  | 'INACTIVE';

export type SmqTermLevel =
  | 'LLT'
  | 'PT';

export type ExplorerChangeCountsFragment = { totalCount: number, counts: { added: number, updated: number, retired: number } };

export type ExplorerChangesQueryVariables = Exact<{
  to: string;
  from?: string | null | undefined;
  level?: Level | null | undefined;
  changeType?: ChangeType | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  language?: string | null | undefined;
}>;


export type ExplorerChangesQuery = { version: { version: string, soc: { totalCount: number, counts: { added: number, updated: number, retired: number } }, hlgt: { totalCount: number, counts: { added: number, updated: number, retired: number } }, hlt: { totalCount: number, counts: { added: number, updated: number, retired: number } }, pt: { totalCount: number, counts: { added: number, updated: number, retired: number } }, llt: { totalCount: number, counts: { added: number, updated: number, retired: number } }, changes: { totalCount: number, counts: { added: number, updated: number, retired: number }, from: { version: string }, to: { version: string }, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, edges: Array<{ node: { code: string, level: Level, term: string, previousTerm: string | null, language: string | null, changeType: ChangeType, kinds: Array<string>, details: string, metadata: unknown } }> } } };

export type ExplorerCodeNamesQueryVariables = Exact<{
  codes: Array<CodeListItemInput> | CodeListItemInput;
  version?: string | null | undefined;
}>;


export type ExplorerCodeNamesQuery = { validateCodes: { items: Array<{ code: string, term: string | null, level: Level | null }> } };

export type ExplorerCheckCodesQueryVariables = Exact<{
  codes: Array<CodeListItemInput> | CodeListItemInput;
  version?: string | null | undefined;
}>;


export type ExplorerCheckCodesQuery = { validateCodes: { version: string, items: Array<{ code: string, exists: boolean, level: Level | null, term: string | null, current: boolean | null, pt: { code: string, term: string } | null, primaryPath: Array<{ code: string, term: string, level: Level }> }> } };

export type ExplorerChildrenQueryVariables = Exact<{
  code: string;
  level?: Level | null | undefined;
  version?: string | null | undefined;
  language?: string | null | undefined;
}>;


export type ExplorerChildrenQuery = { code: { code: string, level: Level, children: Array<{ isPrimary: boolean, relationshipType: RelationshipType, code: { code: string, term: string, level: Level, status: CodeStatus, isPrimary: boolean } }> } };

export type ExplorerNodeFieldsFragment = { code: string, term: string, language: string, level: Level, status: CodeStatus, second?: string };

export type ExplorerCodeQueryVariables = Exact<{
  code: string;
  level?: Level | null | undefined;
  version?: string | null | undefined;
  language?: string | null | undefined;
  second?: string | null | undefined;
  withSecond?: boolean | null | undefined;
}>;


export type ExplorerCodeQuery = { code: { isPrimary: boolean, socAbbreviation: string | null, code: string, term: string, language: string, level: Level, status: CodeStatus, second?: string, names: Array<{ language: string, name: string }>, release: { version: string }, primarySoc: { code: string, term: string, language: string, level: Level, status: CodeStatus, second?: string } | null, pt: { code: string, term: string, language: string, level: Level, status: CodeStatus, second?: string } | null, paths: Array<{ isPrimary: boolean, nodes: Array<{ code: string, term: string, language: string, level: Level, status: CodeStatus, second?: string }> }>, parents: Array<{ isPrimary: boolean, relationshipType: RelationshipType, code: { code: string, term: string, language: string, level: Level, status: CodeStatus, second?: string } }>, children: Array<{ isPrimary: boolean, relationshipType: RelationshipType, code: { isPrimary: boolean, code: string, term: string, language: string, level: Level, status: CodeStatus, second?: string } }>, synonyms: { totalCount: number, edges: Array<{ node: { isPrimary: boolean, code: string, term: string, language: string, level: Level, status: CodeStatus, second?: string } }> }, change: { changeType: ChangeType, details: string } | null, history: Array<{ version: { version: string, releaseDate: string | null }, snapshot: { exists: boolean, level: Level | null, status: string | null, term: string | null, primarySocCode: string | null }, changes: Array<{ changeType: ChangeType, kinds: Array<string>, details: string }> }> } };

export type ExplorerTermRefFragment = { code: string, term: string, level: Level };

export type ExplorerImpactStateFragment = { term: string, level: Level, current: boolean, pt: { code: string, term: string, level: Level } | null, soc: { code: string, term: string, level: Level } | null };

export type ExplorerImpactQueryVariables = Exact<{
  input: ImpactInput;
}>;


export type ExplorerImpactQuery = { impact: { from: string, to: string, summary: { rowsUploaded: number, rowsValid: number, rowsInvalid: number, rowsImpacted: number, impactedPercent: number, byKind: Array<{ kind: ImpactKind, rows: number }>, socMovements: Array<{ rows: number, from: { code: string, term: string, level: Level }, to: { code: string, term: string, level: Level } }>, ptDeltas: Array<{ before: number, after: number, delta: number, pt: { code: string, term: string, level: Level } }> }, errors: Array<{ rowId: string | null, position: number, line: number | null, field: string, reason: string }>, rows: Array<{ rowId: string, position: number, line: number | null, code: string, recordedTerm: string | null, before: { term: string, level: Level, current: boolean, pt: { code: string, term: string, level: Level } | null, soc: { code: string, term: string, level: Level } | null }, after: { term: string, level: Level, current: boolean, pt: { code: string, term: string, level: Level } | null, soc: { code: string, term: string, level: Level } | null } | null, impacts: Array<{ kind: ImpactKind, details: string, before: string | null, after: string | null, suggestion: { action: RecodeAction, code: string | null, term: string | null, level: Level | null, reason: string } }> }> } };

export type ExplorerSearchQueryVariables = Exact<{
  q?: string | null | undefined;
  level?: Level | null | undefined;
  soc?: string | null | undefined;
  version?: string | null | undefined;
  language?: string | null | undefined;
  second?: string | null | undefined;
  withSecond?: boolean | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}>;


export type ExplorerSearchQuery = { codes: { totalCount: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, edges: Array<{ node: { match: { term: string, type: MatchType, isSynonym: boolean, language: string | null, level: Level, code: string } | null, code: { code: string, term: string, language: string, level: Level, status: CodeStatus, second?: string, primaryPath: { nodes: Array<{ code: string, term: string, language: string, level: Level }> } | null } } }> } };

export type ExplorerSmqSummaryFragment = { code: string, name: string, level: number, status: SmqStatus, isAlgorithmic: boolean };

export type ExplorerSmqsQueryVariables = Exact<{
  q?: string | null | undefined;
  version?: string | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}>;


export type ExplorerSmqsQuery = { smqs: { totalCount: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, edges: Array<{ node: { code: string, name: string, level: number, status: SmqStatus, isAlgorithmic: boolean, parent: { code: string, name: string } | null } }> } };

export type ExplorerSmqQueryVariables = Exact<{
  code: string;
  version?: string | null | undefined;
  scope?: SmqScope | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}>;


export type ExplorerSmqQuery = { smq: { algorithm: string | null, description: string, source: string, note: string, definitionVersion: string, code: string, name: string, level: number, status: SmqStatus, isAlgorithmic: boolean, release: { version: string }, parent: { code: string, name: string, level: number, status: SmqStatus, isAlgorithmic: boolean } | null, children: Array<{ code: string, name: string, level: number, status: SmqStatus, isAlgorithmic: boolean }>, terms: { totalCount: number, counts: { narrow: number, broad: number }, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, edges: Array<{ node: { code: string, term: string | null, level: SmqTermLevel, scope: SmqScope | null, category: string, weight: number, status: SmqStatus, smq: { code: string, name: string } | null } }> } } };

export type ExplorerCodeSmqsQueryVariables = Exact<{
  code: string;
  level?: Level | null | undefined;
  version?: string | null | undefined;
}>;


export type ExplorerCodeSmqsQuery = { code: { code: string, level: Level, smqs: Array<{ scope: SmqScope | null, category: string, weight: number, status: SmqStatus, direct: boolean, termCode: string, termLevel: SmqTermLevel, smq: { code: string, name: string, level: number, parent: { code: string, name: string } | null } }> } };

export type ExplorerSmqRowMatchFragment = { rowId: string, caseId: string | null, code: string, term: string, level: SmqTermLevel, matchedCode: string, matchedTerm: string | null, matchedLevel: SmqTermLevel, scope: SmqScope, smqCode: string, category: string, weight: number };

export type ExplorerApplySmqQueryVariables = Exact<{
  code: string;
  version?: string | null | undefined;
  rowsData?: unknown;
}>;


export type ExplorerApplySmqQuery = { applySmq: { version: { version: string }, counts: { rows: number, narrow: number, broad: number, broadSearch: number, unmatched: number, problems: number }, narrow: Array<{ rowId: string, caseId: string | null, code: string, term: string, level: SmqTermLevel, matchedCode: string, matchedTerm: string | null, matchedLevel: SmqTermLevel, scope: SmqScope, smqCode: string, category: string, weight: number }>, broad: Array<{ rowId: string, caseId: string | null, code: string, term: string, level: SmqTermLevel, matchedCode: string, matchedTerm: string | null, matchedLevel: SmqTermLevel, scope: SmqScope, smqCode: string, category: string, weight: number }>, problems: Array<{ rowId: string, code: string, reason: SmqRowProblemReason }>, algorithm: { expression: string, error: string | null, matchedCases: number | null, cases: Array<{ caseId: string | null, rowIds: Array<string>, weight: number, matched: boolean | null, categories: Array<{ category: string, weight: number }> }> } | null } };

export type ExplorerSocsQueryVariables = Exact<{
  version?: string | null | undefined;
  language?: string | null | undefined;
}>;


export type ExplorerSocsQuery = { codes: { edges: Array<{ node: { code: { code: string, term: string, language: string, level: Level, status: CodeStatus, internationalOrder: number | null, socAbbreviation: string | null } } }> } };

export type ExplorerVersionsQueryVariables = Exact<{ [key: string]: never; }>;


export type ExplorerVersionsQuery = { versions: { edges: Array<{ node: { version: string, releaseDate: string | null, isLatest: boolean, languages: Array<string>, previous: { version: string } | null, changeCounts: { added: number, updated: number, retired: number } | null, counts: { soc: number, hlgt: number, hlt: number, pt: number, llt: number } } }> } };

export type ExplorerPredictionFragment = { confidence: number, reasons: Array<string>, code: { code: string, term: string, level: Level, primaryPath: { nodes: Array<{ code: string, term: string, level: Level }> } | null }, matchedTerm: { code: string, term: string, level: Level } | null };

export type ExplorerCriterionFragment = { met: boolean, confidence: number, reasons: Array<string> };

export type ExplorerIdentifyQueryVariables = Exact<{
  description: string;
  version?: string | null | undefined;
}>;


export type ExplorerIdentifyQuery = { identify: { requestId: string, version: string, provider: string, fallbackReason: string | null, notice: string, events: { totalCount: number, edges: Array<{ node: { description: string, confidence: number, reasons: Array<string>, mentions: Array<{ start: number, end: number, text: string }> } }> } } };

export type ExplorerClassifyQueryVariables = Exact<{
  input: ClassifyInput;
}>;


export type ExplorerClassifyQuery = { classify: { requestId: string, version: string, provider: string, fallbackReason: string | null, notice: string, terminologyCodes: Array<{ confidence: number, reasons: Array<string>, code: { code: string, term: string, level: Level, primaryPath: { nodes: Array<{ code: string, term: string, level: Level }> } | null }, matchedTerm: { code: string, term: string, level: Level } | null }>, seriousness: { serious: boolean, confidence: number, criteria: { death: { met: boolean, confidence: number, reasons: Array<string> }, life_threatening: { met: boolean, confidence: number, reasons: Array<string> }, hospitalization: { met: boolean, confidence: number, reasons: Array<string> }, disability: { met: boolean, confidence: number, reasons: Array<string> }, congenital_anomaly: { met: boolean, confidence: number, reasons: Array<string> }, medically_important: { met: boolean, confidence: number, reasons: Array<string> } } } | null, severity: { simple: { grade: string, confidence: number, reasons: Array<string> } | null, ctcae: { grade: number, label: string, confidence: number, reasons: Array<string> } | null } | null } };

export type ExplorerClassifyLabelQueryVariables = Exact<{
  input: LabelClassifyInput;
}>;


export type ExplorerClassifyLabelQuery = { classifyLabel: { requestId: string, version: string, provider: string, fallbackReason: string | null, notice: string, terminologyCodes: Array<{ confidence: number, reasons: Array<string>, supportingSnippets: Array<{ start: number, end: number, text: string, section: string, confidence: number }> | null, code: { code: string, term: string, level: Level, primaryPath: { nodes: Array<{ code: string, term: string, level: Level }> } | null }, matchedTerm: { code: string, term: string, level: Level } | null }> } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const ExplorerChangeCountsFragmentDoc = new TypedDocumentString(`
    fragment ExplorerChangeCounts on ChangeConnection {
  totalCount
  counts {
    added
    updated
    retired
  }
}
    `, {"fragmentName":"ExplorerChangeCounts"}) as unknown as TypedDocumentString<ExplorerChangeCountsFragment, unknown>;
export const ExplorerNodeFieldsFragmentDoc = new TypedDocumentString(`
    fragment ExplorerNodeFields on Code {
  code
  term
  language
  second: name(language: $second) @include(if: $withSecond)
  level
  status
}
    `, {"fragmentName":"ExplorerNodeFields"}) as unknown as TypedDocumentString<ExplorerNodeFieldsFragment, unknown>;
export const ExplorerTermRefFragmentDoc = new TypedDocumentString(`
    fragment ExplorerTermRef on TermRef {
  code
  term
  level
}
    `, {"fragmentName":"ExplorerTermRef"}) as unknown as TypedDocumentString<ExplorerTermRefFragment, unknown>;
export const ExplorerImpactStateFragmentDoc = new TypedDocumentString(`
    fragment ExplorerImpactState on ImpactCodeState {
  term
  level
  current
  pt {
    ...ExplorerTermRef
  }
  soc {
    ...ExplorerTermRef
  }
}
    fragment ExplorerTermRef on TermRef {
  code
  term
  level
}`, {"fragmentName":"ExplorerImpactState"}) as unknown as TypedDocumentString<ExplorerImpactStateFragment, unknown>;
export const ExplorerSmqSummaryFragmentDoc = new TypedDocumentString(`
    fragment ExplorerSmqSummary on Smq {
  code
  name
  level
  status
  isAlgorithmic
}
    `, {"fragmentName":"ExplorerSmqSummary"}) as unknown as TypedDocumentString<ExplorerSmqSummaryFragment, unknown>;
export const ExplorerSmqRowMatchFragmentDoc = new TypedDocumentString(`
    fragment ExplorerSmqRowMatch on SmqRowMatch {
  rowId
  caseId
  code
  term
  level
  matchedCode
  matchedTerm
  matchedLevel
  scope
  smqCode
  category
  weight
}
    `, {"fragmentName":"ExplorerSmqRowMatch"}) as unknown as TypedDocumentString<ExplorerSmqRowMatchFragment, unknown>;
export const ExplorerPredictionFragmentDoc = new TypedDocumentString(`
    fragment ExplorerPrediction on CodePrediction {
  confidence
  reasons
  code {
    code
    term
    level
    primaryPath {
      nodes {
        code
        term
        level
      }
    }
  }
  matchedTerm {
    code
    term
    level
  }
}
    `, {"fragmentName":"ExplorerPrediction"}) as unknown as TypedDocumentString<ExplorerPredictionFragment, unknown>;
export const ExplorerCriterionFragmentDoc = new TypedDocumentString(`
    fragment ExplorerCriterion on SeriousnessCriterion {
  met
  confidence
  reasons
}
    `, {"fragmentName":"ExplorerCriterion"}) as unknown as TypedDocumentString<ExplorerCriterionFragment, unknown>;
export const ExplorerChangesDocument = new TypedDocumentString(`
    query ExplorerChanges($to: String!, $from: String, $level: Level, $changeType: ChangeType, $first: Int, $after: String, $last: Int, $before: String, $language: String) {
  version(version: $to) {
    version
    soc: changes(from: $from, level: SOC, first: 1) {
      ...ExplorerChangeCounts
    }
    hlgt: changes(from: $from, level: HLGT, first: 1) {
      ...ExplorerChangeCounts
    }
    hlt: changes(from: $from, level: HLT, first: 1) {
      ...ExplorerChangeCounts
    }
    pt: changes(from: $from, level: PT, first: 1) {
      ...ExplorerChangeCounts
    }
    llt: changes(from: $from, level: LLT, first: 1) {
      ...ExplorerChangeCounts
    }
    changes(
      from: $from
      level: $level
      changeType: $changeType
      language: $language
      first: $first
      after: $after
      last: $last
      before: $before
    ) {
      totalCount
      counts {
        added
        updated
        retired
      }
      from {
        version
      }
      to {
        version
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      edges {
        node {
          code
          level
          term
          previousTerm
          language
          changeType
          kinds
          details
          metadata
        }
      }
    }
  }
}
    fragment ExplorerChangeCounts on ChangeConnection {
  totalCount
  counts {
    added
    updated
    retired
  }
}`) as unknown as TypedDocumentString<ExplorerChangesQuery, ExplorerChangesQueryVariables>;
export const ExplorerCodeNamesDocument = new TypedDocumentString(`
    query ExplorerCodeNames($codes: [CodeListItemInput!]!, $version: String) {
  validateCodes(codes: $codes, version: $version) {
    items {
      code
      term
      level
    }
  }
}
    `) as unknown as TypedDocumentString<ExplorerCodeNamesQuery, ExplorerCodeNamesQueryVariables>;
export const ExplorerCheckCodesDocument = new TypedDocumentString(`
    query ExplorerCheckCodes($codes: [CodeListItemInput!]!, $version: String) {
  validateCodes(codes: $codes, version: $version) {
    version
    items {
      code
      exists
      level
      term
      current
      pt {
        code
        term
      }
      primaryPath {
        code
        term
        level
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ExplorerCheckCodesQuery, ExplorerCheckCodesQueryVariables>;
export const ExplorerChildrenDocument = new TypedDocumentString(`
    query ExplorerChildren($code: String!, $level: Level, $version: String, $language: String) {
  code(code: $code, level: $level, version: $version, language: $language) {
    code
    level
    children {
      isPrimary
      relationshipType
      code {
        code
        term
        level
        status
        isPrimary
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ExplorerChildrenQuery, ExplorerChildrenQueryVariables>;
export const ExplorerCodeDocument = new TypedDocumentString(`
    query ExplorerCode($code: String!, $level: Level, $version: String, $language: String, $second: String, $withSecond: Boolean = false) {
  code(code: $code, level: $level, version: $version, language: $language) {
    ...ExplorerNodeFields
    names {
      language
      name
    }
    isPrimary
    socAbbreviation
    release {
      version
    }
    primarySoc {
      ...ExplorerNodeFields
    }
    pt {
      ...ExplorerNodeFields
    }
    paths {
      isPrimary
      nodes {
        ...ExplorerNodeFields
      }
    }
    parents {
      isPrimary
      relationshipType
      code {
        ...ExplorerNodeFields
      }
    }
    children {
      isPrimary
      relationshipType
      code {
        ...ExplorerNodeFields
        isPrimary
      }
    }
    synonyms(first: 200) {
      totalCount
      edges {
        node {
          ...ExplorerNodeFields
          isPrimary
        }
      }
    }
    change {
      changeType
      details
    }
    history {
      version {
        version
        releaseDate
      }
      snapshot {
        exists
        level
        status
        term
        primarySocCode
      }
      changes {
        changeType
        kinds
        details
      }
    }
  }
}
    fragment ExplorerNodeFields on Code {
  code
  term
  language
  second: name(language: $second) @include(if: $withSecond)
  level
  status
}`) as unknown as TypedDocumentString<ExplorerCodeQuery, ExplorerCodeQueryVariables>;
export const ExplorerImpactDocument = new TypedDocumentString(`
    query ExplorerImpact($input: ImpactInput!) {
  impact(input: $input) {
    from
    to
    summary {
      rowsUploaded
      rowsValid
      rowsInvalid
      rowsImpacted
      impactedPercent
      byKind {
        kind
        rows
      }
      socMovements {
        from {
          ...ExplorerTermRef
        }
        to {
          ...ExplorerTermRef
        }
        rows
      }
      ptDeltas {
        pt {
          ...ExplorerTermRef
        }
        before
        after
        delta
      }
    }
    errors {
      rowId
      position
      line
      field
      reason
    }
    rows {
      rowId
      position
      line
      code
      recordedTerm
      before {
        ...ExplorerImpactState
      }
      after {
        ...ExplorerImpactState
      }
      impacts {
        kind
        details
        before
        after
        suggestion {
          action
          code
          term
          level
          reason
        }
      }
    }
  }
}
    fragment ExplorerTermRef on TermRef {
  code
  term
  level
}
fragment ExplorerImpactState on ImpactCodeState {
  term
  level
  current
  pt {
    ...ExplorerTermRef
  }
  soc {
    ...ExplorerTermRef
  }
}`) as unknown as TypedDocumentString<ExplorerImpactQuery, ExplorerImpactQueryVariables>;
export const ExplorerSearchDocument = new TypedDocumentString(`
    query ExplorerSearch($q: String, $level: Level, $soc: String, $version: String, $language: String, $second: String, $withSecond: Boolean = false, $first: Int, $after: String, $last: Int, $before: String) {
  codes(
    q: $q
    level: $level
    soc: $soc
    version: $version
    language: $language
    first: $first
    after: $after
    last: $last
    before: $before
  ) {
    totalCount
    pageInfo {
      hasNextPage
      hasPreviousPage
      startCursor
      endCursor
    }
    edges {
      node {
        match {
          term
          type
          isSynonym
          language
          level
          code
        }
        code {
          code
          term
          language
          second: name(language: $second) @include(if: $withSecond)
          level
          status
          primaryPath {
            nodes {
              code
              term
              language
              level
            }
          }
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ExplorerSearchQuery, ExplorerSearchQueryVariables>;
export const ExplorerSmqsDocument = new TypedDocumentString(`
    query ExplorerSmqs($q: String, $version: String, $first: Int, $after: String, $last: Int, $before: String) {
  smqs(
    q: $q
    version: $version
    first: $first
    after: $after
    last: $last
    before: $before
  ) {
    totalCount
    pageInfo {
      hasNextPage
      hasPreviousPage
      startCursor
      endCursor
    }
    edges {
      node {
        ...ExplorerSmqSummary
        parent {
          code
          name
        }
      }
    }
  }
}
    fragment ExplorerSmqSummary on Smq {
  code
  name
  level
  status
  isAlgorithmic
}`) as unknown as TypedDocumentString<ExplorerSmqsQuery, ExplorerSmqsQueryVariables>;
export const ExplorerSmqDocument = new TypedDocumentString(`
    query ExplorerSmq($code: String!, $version: String, $scope: SmqScope, $first: Int, $after: String, $last: Int, $before: String) {
  smq(code: $code, version: $version) {
    ...ExplorerSmqSummary
    algorithm
    description
    source
    note
    definitionVersion
    release {
      version
    }
    parent {
      ...ExplorerSmqSummary
    }
    children {
      ...ExplorerSmqSummary
    }
    terms(scope: $scope, first: $first, after: $after, last: $last, before: $before) {
      totalCount
      counts {
        narrow
        broad
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      edges {
        node {
          code
          term
          level
          scope
          category
          weight
          status
          smq {
            code
            name
          }
        }
      }
    }
  }
}
    fragment ExplorerSmqSummary on Smq {
  code
  name
  level
  status
  isAlgorithmic
}`) as unknown as TypedDocumentString<ExplorerSmqQuery, ExplorerSmqQueryVariables>;
export const ExplorerCodeSmqsDocument = new TypedDocumentString(`
    query ExplorerCodeSmqs($code: String!, $level: Level, $version: String) {
  code(code: $code, level: $level, version: $version) {
    code
    level
    smqs {
      scope
      category
      weight
      status
      direct
      termCode
      termLevel
      smq {
        code
        name
        level
        parent {
          code
          name
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ExplorerCodeSmqsQuery, ExplorerCodeSmqsQueryVariables>;
export const ExplorerApplySmqDocument = new TypedDocumentString(`
    query ExplorerApplySmq($code: String!, $version: String, $rowsData: JSON) {
  applySmq(code: $code, version: $version, rowsData: $rowsData) {
    version {
      version
    }
    counts {
      rows
      narrow
      broad
      broadSearch
      unmatched
      problems
    }
    narrow {
      ...ExplorerSmqRowMatch
    }
    broad {
      ...ExplorerSmqRowMatch
    }
    problems {
      rowId
      code
      reason
    }
    algorithm {
      expression
      error
      matchedCases
      cases {
        caseId
        rowIds
        categories {
          category
          weight
        }
        weight
        matched
      }
    }
  }
}
    fragment ExplorerSmqRowMatch on SmqRowMatch {
  rowId
  caseId
  code
  term
  level
  matchedCode
  matchedTerm
  matchedLevel
  scope
  smqCode
  category
  weight
}`) as unknown as TypedDocumentString<ExplorerApplySmqQuery, ExplorerApplySmqQueryVariables>;
export const ExplorerSocsDocument = new TypedDocumentString(`
    query ExplorerSocs($version: String, $language: String) {
  codes(level: SOC, version: $version, language: $language, first: 100) {
    edges {
      node {
        code {
          code
          term
          language
          level
          status
          internationalOrder
          socAbbreviation
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ExplorerSocsQuery, ExplorerSocsQueryVariables>;
export const ExplorerVersionsDocument = new TypedDocumentString(`
    query ExplorerVersions {
  versions(first: 100) {
    edges {
      node {
        version
        releaseDate
        isLatest
        languages
        previous {
          version
        }
        changeCounts {
          added
          updated
          retired
        }
        counts {
          soc
          hlgt
          hlt
          pt
          llt
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ExplorerVersionsQuery, ExplorerVersionsQueryVariables>;
export const ExplorerIdentifyDocument = new TypedDocumentString(`
    query ExplorerIdentify($description: String!, $version: String) {
  identify(description: $description, version: $version) {
    requestId
    version
    provider
    fallbackReason
    notice
    events(first: 50) {
      totalCount
      edges {
        node {
          description
          confidence
          reasons
          mentions {
            start
            end
            text
          }
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ExplorerIdentifyQuery, ExplorerIdentifyQueryVariables>;
export const ExplorerClassifyDocument = new TypedDocumentString(`
    query ExplorerClassify($input: ClassifyInput!) {
  classify(input: $input) {
    requestId
    version
    provider
    fallbackReason
    notice
    terminologyCodes {
      ...ExplorerPrediction
    }
    seriousness {
      serious
      confidence
      criteria {
        death {
          ...ExplorerCriterion
        }
        life_threatening {
          ...ExplorerCriterion
        }
        hospitalization {
          ...ExplorerCriterion
        }
        disability {
          ...ExplorerCriterion
        }
        congenital_anomaly {
          ...ExplorerCriterion
        }
        medically_important {
          ...ExplorerCriterion
        }
      }
    }
    severity {
      simple {
        grade
        confidence
        reasons
      }
      ctcae {
        grade
        label
        confidence
        reasons
      }
    }
  }
}
    fragment ExplorerPrediction on CodePrediction {
  confidence
  reasons
  code {
    code
    term
    level
    primaryPath {
      nodes {
        code
        term
        level
      }
    }
  }
  matchedTerm {
    code
    term
    level
  }
}
fragment ExplorerCriterion on SeriousnessCriterion {
  met
  confidence
  reasons
}`) as unknown as TypedDocumentString<ExplorerClassifyQuery, ExplorerClassifyQueryVariables>;
export const ExplorerClassifyLabelDocument = new TypedDocumentString(`
    query ExplorerClassifyLabel($input: LabelClassifyInput!) {
  classifyLabel(input: $input) {
    requestId
    version
    provider
    fallbackReason
    notice
    terminologyCodes {
      ...ExplorerPrediction
      supportingSnippets {
        start
        end
        text
        section
        confidence
      }
    }
  }
}
    fragment ExplorerPrediction on CodePrediction {
  confidence
  reasons
  code {
    code
    term
    level
    primaryPath {
      nodes {
        code
        term
        level
      }
    }
  }
  matchedTerm {
    code
    term
    level
  }
}`) as unknown as TypedDocumentString<ExplorerClassifyLabelQuery, ExplorerClassifyLabelQueryVariables>;