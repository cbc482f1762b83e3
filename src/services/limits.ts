// Every size limit of the use cases, in one place: GraphQL arguments, REST parameters and
// their OpenAPI descriptions all read them from here.

/** Largest `first` on every GraphQL connection. */
export const MAX_PAGE = 200;

/** Page sizes per collection: GraphQL connections (default, max) and REST `limit` (rest, ≤ max). */
export const PAGES = {
  versions: { default: 20, max: MAX_PAGE, rest: 100 },
  codes: { default: 20, max: MAX_PAGE, rest: 100 },
  synonyms: { default: 20, max: MAX_PAGE, rest: MAX_PAGE },
  changes: { default: 50, max: MAX_PAGE, rest: MAX_PAGE },
  events: { default: 20, max: MAX_PAGE, rest: 100 },
} as const;

/** Longest accepted search text; longer input is a validation error, not truncated. */
export const MAX_QUERY_LENGTH = 200;

/** Longest narrative for identify/classify; labels may be longer (bounded by MAX_BODY_BYTES). */
export const MAX_NARRATIVE = 100_000;
export const MAX_LABEL = 1_000_000;

/** Codes returned by classify (default, max), label predictions, and their confidence floor. */
export const CLASSIFY_LIMIT = { default: 5, min: 1, max: 20 } as const;
export const LABEL_RESULTS = { default: 25, min: 1, max: 100 } as const;
export const LABEL_MIN_CONFIDENCE = { default: 0.25, min: 0, max: 1 } as const;

/** FHIR ValueSet/$expand: entries per page (`count`: default, max). */
export const EXPAND_COUNT = { default: 100, max: 1000 } as const;
/** FHIR CodeSystem/$lookup: designations (the PT's LLTs) returned at most. */
export const LOOKUP_DESIGNATIONS = 200;
/** LLTs of one PT read to filter them in memory (isa/{PT} with a filter); real PTs have far fewer. */
export const MAX_PT_SYNONYMS = 2000;
/** FHIR $expand with includeDesignations: LLTs listed per PT entry at most. */
export const EXPAND_DESIGNATIONS = 50;

/** SMQs: page sizes of the SMQ list, an SMQ's terms and SMQ changes (as PAGES above). */
export const SMQ_PAGES = {
  smqs: { default: 20, max: MAX_PAGE, rest: 100 },
  smqTerms: { default: 50, max: MAX_PAGE, rest: MAX_PAGE },
  smqChanges: { default: 50, max: MAX_PAGE, rest: MAX_PAGE },
} as const;

/** Rows of coded data per SMQ application (POST /smqs/{code}/apply, GraphQL applySmq). */
export const SMQ_APPLY_MAX_ROWS = 100_000;
/** Longest rowId / caseId of an SMQ application row. */
export const SMQ_APPLY_MAX_ID = 200;
/** Row problems listed in one validation error before the rest are only counted. */
export const SMQ_APPLY_MAX_ERRORS = 20;

/** Terms of one SMQ read whole to filter them by name (an SMQ value set's $expand with a filter); real SMQs list far fewer. */
export const MAX_SMQ_TERMS_FILTERED = 20_000;
/** SMQ levels: a sub-SMQ is at most this many levels below its top SMQ. */
export const MAX_SMQ_DEPTH = 5;

/** Rows of coded data per impact analysis (JSON body, CSV upload, GraphQL, CLI). */
export const MAX_IMPACT_ROWS = 100_000;
/** Longest rowId and recorded term of an impact row (a longer one is a bad row, reported). */
export const MAX_ROW_ID_LENGTH = 100;
export const MAX_RECORDED_TERM_LENGTH = 500;
/**
 * Rows analysed (or validated) between two yields to the event loop, so a 100k-row upload never
 * stalls other requests: 2,000 made turns of 20-40 ms on a loaded host (their garbage collection
 * included); 500 keep a turn to a few milliseconds (issue 27).
 */
export const IMPACT_SLICE_ROWS = 500;
/** Items of a coded list for POST /codes/validate and /codes/analyse, with an API key. */
export const MAX_CODE_LIST = 10_000;
/**
 * Without a key: a public list's work runs on the serving thread in slices, but building and
 * serialising a 10,000-item answer still holds it ~0.5 s on a slow host; 2,000 keeps that
 * near 0.1 s, and anyone who needs more can be given a key (issue 27 defect 4).
 */
export const MAX_PUBLIC_CODE_LIST = 2_000;
/** Distinct recorded terms of retired codes searched per analysis; beyond, the suggestion is left to review. */
export const MAX_RETIRED_SEARCHES = 5_000;
