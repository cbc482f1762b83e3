// Failures as FHIR OperationOutcome with the HTTP status a terminology client expects:
// 400 invalid parameters, 404 unknown code system/version/resource, 422 an operation that
// cannot be performed on valid input, 503 a database outage. Messages quote client
// values clipped (domain/clientText.ts); never a stack.
import type { OperationOutcome, OperationOutcomeIssue } from 'fhir/r4.js';
import { domainErrorOf, ERROR_STATUS } from '../domain/errors.ts';
import { clip } from '../domain/clientText.ts';
import { DB_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../services/failures.ts';
import { traceIdField } from '../observability/traceHooks.ts';

type IssueCode = OperationOutcomeIssue['code'];

/** A refusal the FHIR layer decided itself (as opposed to a use case's DomainError). */
export class FhirError extends Error {
  constructor(
    readonly status: number,
    readonly issueCode: IssueCode,
    message: string,
    /** FHIRPath-ish location of the offending parameter, e.g. `Parameters.parameter[code]`. */
    readonly expression?: string,
  ) {
    super(message);
  }
}

export const invalidParam = (name: string, message: string) => new FhirError(400, 'invalid', `Parameter '${name}': ${message}`, name);
export const notFound = (message: string) => new FhirError(404, 'not-found', message);
export const cannotPerform = (message: string, code: IssueCode = 'processing') => new FhirError(422, code, message);

export function operationOutcome(severity: OperationOutcomeIssue['severity'], code: IssueCode, diagnostics: string, expression?: string): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity, code, diagnostics, ...(expression ? { expression: [expression] } : {}) }],
  };
}

export const DOMAIN_ISSUE: Partial<Record<string, IssueCode>> = {
  VALIDATION_ERROR: 'invalid',
  CODE_NOT_FOUND: 'not-found',
  VERSION_NOT_FOUND: 'not-found',
  LANGUAGE_NOT_FOUND: 'not-found',
  LANGUAGE_NOT_SUPPORTED: 'not-supported',
  NOT_FOUND: 'not-found',
  METHOD_NOT_ALLOWED: 'not-supported',
  RATE_LIMITED: 'throttled',
  PAYLOAD_TOO_LARGE: 'too-long',
  UNSUPPORTED_MEDIA_TYPE: 'not-supported',
  TIMEOUT: 'timeout',
  SERVICE_UNAVAILABLE: 'transient',
};

export interface OutcomeAnswer {
  status: number;
  body: OperationOutcome;
  headers: Record<string, string>;
  /** True for faults that must be logged (500). */
  internal: boolean;
}

/** Any thrown value → status and OperationOutcome. */
export function outcomeOf(err: unknown, requestId: string): OutcomeAnswer {
  const trace = traceIdField();
  const tail = trace ? ` (request ${requestId}, trace ${trace.traceId})` : ` (request ${requestId})`;
  if (err instanceof FhirError) {
    return { status: err.status, body: operationOutcome('error', err.issueCode, err.message + tail, err.expression), headers: {}, internal: false };
  }
  const d = domainErrorOf(err);
  if (d) {
    // Field names of VALIDATION_ERRORs are the parameters' names already.
    const first = d.errors ? Object.keys(d.errors)[0] : undefined;
    return {
      status: ERROR_STATUS[d.code],
      body: operationOutcome('error', DOMAIN_ISSUE[d.code] ?? 'processing', clip(d.message, 400) + tail, first),
      headers: {},
      internal: ERROR_STATUS[d.code] >= 500 && d.code !== 'SERVICE_UNAVAILABLE' && d.code !== 'TIMEOUT',
    };
  }
  if (isDatabaseUnavailable(err)) {
    return {
      status: 503,
      body: operationOutcome('error', 'transient', `The database is unavailable; retry shortly${tail}.`),
      headers: { 'Retry-After': String(DB_RETRY_AFTER_SECONDS) },
      internal: false,
    };
  }
  return {
    status: 500,
    body: operationOutcome('fatal', 'exception', `An unexpected error occurred. Quote the request id when contacting support${tail}.`),
    headers: {},
    internal: true,
  };
}
