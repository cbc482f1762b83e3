// The narrative use cases (identify, classify, label classification): input rules, the API
// key, release selection, then the assessment service (offline engine or LLM) — the same
// for every surface.
import { LABEL_CONTEXTS, SECTION_TYPES, type ExcludedCandidate, type IdentifiedEvent, type LabelClassification as NlpLabelClassification, type LabelContext, type LabelPrediction, type SectionType } from '../nlp/index.ts';
import type { AssessmentService, Classification, SeveritySystem } from '../assessment/service.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import { DomainError, validationError } from '../domain/errors.ts';
import { CLASSIFY_LIMIT, LABEL_MIN_CONFIDENCE, LABEL_RESULTS, MAX_LABEL, MAX_NARRATIVE } from './limits.ts';
import type { RequestScope } from './scope.ts';
import { requireNarrativeLanguage } from '../domain/narrativeLanguage.ts';

/** What every assessment reports beside its result. */
export interface AssessmentHead {
  requestId: string;
  release: ReleaseInfo;
  provider: string;
  fallbackReason: string | null;
}

/** `text`: the narrative the events' offsets refer to. */
export type Identification = AssessmentHead & { events: IdentifiedEvent[]; text: string };
export type ClassificationResult = AssessmentHead & { result: Classification };
export type LabelClassification = AssessmentHead & {
  codes: LabelPrediction[];
  sectionType: SectionType | null;
  sectionTypeSource: NlpLabelClassification['sectionTypeSource'];
  excluded: ExcludedCandidate[];
};

export interface ClassifyArgs {
  /** BCP 47 tag of the names in the answer (issue 28); the narrative itself must be English. */
  language?: string | null | undefined;
  description: string;
  version?: string | null | undefined;
  /** The same release, named the REST way (assessments.terminology.version); `version` wins. */
  terminologyVersion?: string | null | undefined;
  terminology?: boolean | null | undefined;
  seriousness?: boolean | null | undefined;
  severity?: SeveritySystem[] | null | undefined;
  limit?: number | null | undefined;
}

export interface LabelArgs {
  /** BCP 47 tag of the names in the answer (issue 28). */
  language?: string | null | undefined;
  description: string;
  version?: string | null | undefined;
  maxResults?: number | null | undefined;
  minConfidence?: number | null | undefined;
  /** Kind of section (detected from the heading or the text when absent). */
  sectionType?: string | null | undefined;
  /** Contexts whose mentions are coded (default: adverse_event only). */
  contexts?: readonly string[] | null | undefined;
  /** Also list the candidates dropped for their context. */
  includeExcluded?: boolean | null | undefined;
}

function assessmentService(scope: RequestScope): AssessmentService {
  const s = scope.services.assessment;
  if (!s) throw new DomainError('SERVICE_UNAVAILABLE', 'The narrative endpoints are not configured on this server.');
  return s;
}

function checkText(text: string, max: number): void {
  if (text.trim().length === 0) throw validationError({ description: ['must not be empty'] });
  if (text.length > max) throw validationError({ description: [`must be at most ${max} characters`] });
}

/** Key first (an unauthenticated caller learns nothing about its input), then the text, then the release. */
async function prepare(scope: RequestScope, endpoint: string, text: string, max: number, version: string | null | undefined, language: string | null | undefined) {
  const apiKeyId = await scope.requireApiKey('narrative');
  checkText(text, max);
  requireNarrativeLanguage(text);
  const release = await scope.selectRelease(version);
  // The names of the answer's codes (the narrative is coded in English whatever this says).
  scope.chooseLanguage(release, language);
  return { apiKeyId, release, requestId: scope.requestId, endpoint, text };
}

/**
 * Predictions show each code's concept and primary path, which come from the release's
 * in-memory index once it is built (the latest release's is built at server start), else
 * cost three SQL statements per request. So a release that codes are predicted in gets its
 * index built in the background (identify shows no codes: not there). Never awaited: this
 * request takes the SQL path if the index is not ready; a failed build only leaves that path.
 */
function warmIndex(scope: RequestScope, release: ReleaseInfo): void {
  const { catalog, reader, prisma } = scope.services;
  // get(), not peek(): a built index is a cache hit that also keeps it recently used.
  catalog.searchIndexes.get(release.id, reader?.() ?? prisma).catch((e: Error) => scope.log.warn({ err: { message: e.message }, release: release.version }, 'release index not built; predictions read the database'));
}

const head = (info: { requestId: string; release: ReleaseInfo }, out: { provider: string; fallbackReason: string | null }): AssessmentHead => ({
  requestId: info.requestId,
  release: info.release,
  provider: out.provider,
  fallbackReason: out.fallbackReason,
});

export async function identify(scope: RequestScope, args: { description: string; version?: string | null | undefined; language?: string | null | undefined }): Promise<Identification> {
  const info = await prepare(scope, 'identify', args.description, MAX_NARRATIVE, args.version, args.language);
  const out = await assessmentService(scope).identify(info);
  return { ...head(info, out), events: out.value, text: info.text };
}

export async function classify(scope: RequestScope, args: ClassifyArgs): Promise<ClassificationResult> {
  if (args.version && args.terminologyVersion && args.version !== args.terminologyVersion) {
    scope.log.warn({ requestId: scope.requestId, version: args.version, terminologyVersion: args.terminologyVersion }, 'version and assessments.terminology.version disagree; version wins');
  }
  const limit = args.limit ?? CLASSIFY_LIMIT.default;
  if (limit < CLASSIFY_LIMIT.min || limit > CLASSIFY_LIMIT.max) throw validationError({ limit: [`must be between ${CLASSIFY_LIMIT.min} and ${CLASSIFY_LIMIT.max}`] });
  const info = await prepare(scope, 'classify', args.description, MAX_NARRATIVE, args.version ?? args.terminologyVersion, args.language);
  warmIndex(scope, info.release);
  const out = await assessmentService(scope).classify(info, {
    terminology: args.terminology ?? true,
    seriousness: args.seriousness ?? false,
    severity: args.severity?.length ? [...new Set(args.severity)] : null,
    limit,
  });
  return { ...head(info, out), result: out.value };
}

export async function classifyLabel(scope: RequestScope, args: LabelArgs): Promise<LabelClassification> {
  const maxResults = args.maxResults ?? LABEL_RESULTS.default;
  const minConfidence = args.minConfidence ?? LABEL_MIN_CONFIDENCE.default;
  const errors: Record<string, string[]> = {};
  if (!Number.isInteger(maxResults) || maxResults < LABEL_RESULTS.min || maxResults > LABEL_RESULTS.max) {
    errors.maxResults = [`must be an integer between ${LABEL_RESULTS.min} and ${LABEL_RESULTS.max}`];
  }
  if (!(minConfidence >= LABEL_MIN_CONFIDENCE.min && minConfidence <= LABEL_MIN_CONFIDENCE.max)) {
    errors.minConfidence = [`must be between ${LABEL_MIN_CONFIDENCE.min} and ${LABEL_MIN_CONFIDENCE.max}`];
  }
  if (args.sectionType != null && !(SECTION_TYPES as readonly string[]).includes(args.sectionType)) {
    errors.sectionType = [`must be one of ${SECTION_TYPES.join(', ')}`];
  }
  const badContext = (args.contexts ?? []).filter((c) => !(LABEL_CONTEXTS as readonly string[]).includes(c));
  if (badContext.length) errors.contexts = [`unknown context ${badContext.map((c) => JSON.stringify(c)).join(', ')}; one of ${LABEL_CONTEXTS.join(', ')}`];
  if (args.contexts != null && args.contexts.length === 0) errors.contexts = ['must name at least one context'];
  if (Object.keys(errors).length) throw validationError(errors);
  const info = await prepare(scope, 'labels/classify', args.description, MAX_LABEL, args.version, args.language);
  warmIndex(scope, info.release);
  const out = await assessmentService(scope).classifyLabel(info, {
    maxResults,
    minConfidence,
    sectionType: (args.sectionType ?? undefined) as SectionType | undefined,
    contexts: args.contexts ? ([...new Set(args.contexts)] as LabelContext[]) : undefined,
    includeExcluded: args.includeExcluded ?? false,
  });
  const v = out.value;
  return { ...head(info, out), codes: v.codes, sectionType: v.sectionType, sectionTypeSource: v.sectionTypeSource, excluded: v.excluded };
}
