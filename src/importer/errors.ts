// Import problems carry file and line so an operator can fix the distribution.
export interface ImportIssue {
  file: string;
  /** 1-based line number; 0 when the problem concerns the whole file. */
  line: number;
  message: string;
}

export function formatIssue(i: ImportIssue): string {
  return i.line > 0 ? `${i.file}:${i.line}: ${i.message}` : `${i.file}: ${i.message}`;
}

const MAX_LISTED = 50;

export class ImportValidationError extends Error {
  constructor(readonly issues: ImportIssue[]) {
    const shown = issues.slice(0, MAX_LISTED).map(formatIssue);
    const more = issues.length > MAX_LISTED ? [`… and ${issues.length - MAX_LISTED} more`] : [];
    super(`The release is invalid (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${[...shown, ...more].join('\n')}`);
  }
}

/** Raised for a release that exists already (without --replace) and similar refusals. */
export class ImportRefusedError extends Error {}
