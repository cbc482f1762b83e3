// CSV in and out for impact analysis (REST uploads and the CLI share it). Input is
// streamed through csv-parse (RFC 4180: quotes, embedded commas and line breaks, BOM),
// never split by hand; the row count is bounded while reading. Output is RFC 4180 with
// CRLF line ends and a UTF-8 byte-order mark, so a spreadsheet opens it as is; cells
// that a spreadsheet would run as a formula (= + - @, tab, CR first) get a leading
// apostrophe (the OWASP CSV-injection rule).
import { Readable } from 'node:stream';
import { Parser, CsvError, type Options } from 'csv-parse';
import { validationError } from '../errors.ts';
import { nextTurn } from '../../runtime/nextTurn.ts';

export interface CsvRow {
  rowId: string | null;
  code: string | null;
  term: string | null;
  /** The case a row belongs to (SMQ application groups a case's rows; impact ignores it). */
  caseId: string | null;
  /** Line of the file where the record ends (csv-parse's count: a CRLF inside quotes counts twice). */
  line: number;
  /** 1-based record number (header excluded), bad records included. */
  position: number;
}

export interface CsvRowProblem {
  rowId: string | null;
  /** 1-based record number (header excluded). */
  position: number;
  line: number;
  field: string;
  reason: string;
}

export interface ParsedCsv {
  rows: CsvRow[];
  /** Records the parser could read but that cannot be rows (more fields than the header names). */
  problems: CsvRowProblem[];
}

type Column = 'rowId' | 'code' | 'term' | 'caseId';
const HEADER_ALIASES: Record<string, Column> = { rowid: 'rowId', row_id: 'rowId', id: 'rowId', code: 'code', term: 'term', caseid: 'caseId', case_id: 'caseId', case: 'caseId' };

/**
 * Bytes parsed per macrotask: ~1,200 short rows, a few milliseconds (64 KB slices held the
 * serving thread 40-90 ms each under concurrent uploads, issue 27).
 */
const SLICE_BYTES = 16 * 1024;

/**
 * Longest line of an upload, in bytes (a legitimate line — rowId, code, a 500-character term,
 * caseId — is well under 4 KB), and most fields on a line. csv-parse's max_record_size bounds
 * one field, not a line's field count: a line of 31 million empty fields was read as one record
 * (18.8 s, 1.7 GB, issue 27). Lines are measured before the parser sees them.
 */
export const MAX_CSV_LINE_BYTES = 64 * 1024;
export const MAX_CSV_FIELDS = 32;

const LF = 10;

/**
 * The input in pieces of at most 64 KB with a macrotask between them: the parser handles a
 * chunk in one go, and an upload that arrives as one large chunk (in process, a fast
 * client) would otherwise be parsed without letting other requests in. A line longer than
 * MAX_CSV_LINE_BYTES ends the read with a VALIDATION_ERROR, before the parser buffers it.
 */
async function* slices(input: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array | string> {
  let lineBytes = 0;
  let line = 1;
  const measure = (piece: Uint8Array | string) => {
    const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
    let from = 0;
    for (let at = bytes.indexOf(LF); at >= 0; at = bytes.indexOf(LF, from)) {
      if (lineBytes + at - from > MAX_CSV_LINE_BYTES) break;
      lineBytes = 0;
      line++;
      from = at + 1;
    }
    lineBytes += bytes.length - from;
    if (lineBytes > MAX_CSV_LINE_BYTES || bytes.indexOf(LF, from) >= 0) {
      throw validationError({ file: [`line ${line} is longer than ${MAX_CSV_LINE_BYTES} bytes: one row per line, rowId,code[,term]`] });
    }
  };
  for await (const chunk of input) {
    for (let at = 0; at < chunk.length; at += SLICE_BYTES) {
      const piece = chunk.length <= SLICE_BYTES ? chunk : typeof chunk === 'string' ? chunk.slice(at, at + SLICE_BYTES) : chunk.subarray(at, at + SLICE_BYTES);
      measure(piece);
      yield piece;
      await nextTurn();
    }
  }
}

/** A record and the line of the file where it ends. */
interface LinedRecord {
  record: string[];
  lines: number;
}

/**
 * csv-parse with each record paired with the parser's line count as it is emitted: what its
 * `info` option reports, without the info object it builds per record (a spread of every
 * counter: with it, parsing cost ten times as much CPU and garbage).
 */
class LinedParser extends Parser {
  constructor(options: Options) {
    super(options);
  }

  override push(record: unknown, encoding?: BufferEncoding): boolean {
    return super.push(record === null ? null : ({ record: record as string[], lines: this.info.lines } satisfies LinedRecord), encoding);
  }
}

/**
 * Reads `rowId,code,term[,caseId]` records (header row required; columns in any order, term
 * and caseId optional) from a byte or text stream. More than `maxRows` records, a header without
 * rowId and code, or a file the parser cannot read are VALIDATION_ERRORs.
 */
export async function parseCodedRowsCsv(input: AsyncIterable<Uint8Array | string>, maxRows: number): Promise<ParsedCsv> {
  // relax_quotes: a quote inside an unquoted field is kept as text (=HYPERLINK("…")).
  const parser = new LinedParser({ bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, max_record_size: 64 * 1024 });
  const rows: CsvRow[] = [];
  const problems: CsvRowProblem[] = [];
  let columns: (Column | null)[] | null = null;
  let position = 0;
  // Backpressure from the parser to the input; a read error ends the parse with it.
  const source = Readable.from(slices(input), { objectMode: false });
  let refused: unknown;
  source.on('error', (e) => {
    refused = e;
    parser.destroy(e);
  });
  source.pipe(parser);
  try {
    for await (const { record, lines } of parser as AsyncIterable<LinedRecord>) {
      if (record.length > MAX_CSV_FIELDS) throw validationError({ file: [`line ${lines} has ${record.length} fields; at most ${MAX_CSV_FIELDS}: rowId,code[,term][,caseId]`] });
      if (!columns) {
        columns = record.map((h) => HEADER_ALIASES[h.trim().toLowerCase().replace(/[\s-]/g, '_')] ?? null);
        if (!columns.includes('rowId') || !columns.includes('code')) {
          throw validationError({ file: ['the first line must name the columns: rowId,code[,term]'] });
        }
        continue;
      }
      position++;
      if (position > maxRows) throw validationError({ rows: [`at most ${maxRows} rows per request: split the file`] });
      const row: CsvRow = { rowId: null, code: null, term: null, caseId: null, line: lines, position };
      record.forEach((value, k) => {
        const col = columns![k];
        if (col) row[col] = value;
      });
      if (record.length > columns.length && record.slice(columns.length).some((v) => v.trim() !== '')) {
        problems.push({ rowId: row.rowId?.trim() || null, position, line: lines, field: 'row', reason: `more fields than the ${columns.length} columns of the header` });
        continue;
      }
      rows.push(row);
    }
  } catch (e) {
    if (refused) throw refused;
    if (e instanceof CsvError) {
      // The parser's message quotes the input; the code and line number say enough.
      const line = typeof e.lines === 'number' ? ` at line ${e.lines}` : '';
      throw validationError({ file: [`malformed CSV${line} (${e.code})`] });
    }
    throw e;
  } finally {
    // Stops reading the input when the parse ends early (an error, too many rows).
    source.unpipe(parser);
    source.destroy();
    parser.destroy();
  }
  if (!columns) throw validationError({ file: ['the file is empty: the first line must name the columns rowId,code[,term]'] });
  return { rows, problems };
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: formula-looking text neutralised, quoted when it holds a comma, quote or line break. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (typeof value === 'string' && FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (cells: readonly (string | number | boolean | null | undefined)[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** UTF-8 byte-order mark: spreadsheets then read accents correctly. */
export const CSV_BOM = '\uFEFF';

// The report shape the CSV needs: what the GraphQL Impact operation selects and what the
// service returns share these member names.
interface TermLike {
  code: string | number;
  term: string;
}
interface StateLike {
  term: string;
  pt: TermLike | null;
  soc: TermLike | null;
}
interface ReportLike {
  errors: readonly { rowId: string | null; line: number | null; position: number; field: string; reason: string }[];
  rows: readonly {
    rowId: string;
    code: string | number;
    recordedTerm: string | null;
    line: number | null;
    position: number;
    before: StateLike;
    after: StateLike | null;
    impacts: readonly {
      kind: string;
      details: string;
      before: string | null;
      after: string | null;
      suggestion: { action: string; code: string | number | null; term: string | null; reason: string };
    }[];
  }[];
}

export const IMPACT_CSV_HEADER = [
  'rowId',
  'line',
  'code',
  'recordedTerm',
  'status',
  'impact',
  'details',
  'before',
  'after',
  'suggestedAction',
  'suggestedCode',
  'suggestedTerm',
  'suggestionReason',
  'fromTerm',
  'fromPtCode',
  'fromPt',
  'fromSocCode',
  'fromSoc',
  'toTerm',
  'toPtCode',
  'toPt',
  'toSocCode',
  'toSoc',
] as const;

/**
 * The report as CSV lines: one line per row and impact (a row without impact: one line,
 * status UNCHANGED), then one line per bad row (status INVALID, the reason in details).
 * Yields chunks of lines so a large report streams out.
 */
export function* impactCsv(report: ReportLike, linesPerChunk = 2000): Generator<string> {
  let chunk = CSV_BOM + csvLine(IMPACT_CSV_HEADER);
  let n = 0;
  const push = (cells: (string | number | null | undefined)[]) => {
    chunk += csvLine(cells);
    n++;
  };
  const state = (s: StateLike | null) => [s?.term, s?.pt?.code, s?.pt?.term, s?.soc?.code, s?.soc?.term];
  for (const r of report.rows) {
    const head = [r.rowId, r.line, r.code, r.recordedTerm];
    const tail = [...state(r.before), ...state(r.after)];
    if (r.impacts.length === 0) push([...head, 'UNCHANGED', null, null, null, null, 'KEEP', r.code, r.after?.term, 'Not affected by the upgrade.', ...tail]);
    for (const i of r.impacts) {
      push([...head, 'IMPACTED', i.kind, i.details, i.before, i.after, i.suggestion.action, i.suggestion.code, i.suggestion.term, i.suggestion.reason, ...tail]);
    }
    if (n >= linesPerChunk) {
      yield chunk;
      chunk = '';
      n = 0;
    }
  }
  const pad = new Array(IMPACT_CSV_HEADER.length - 7).fill(null);
  for (const e of report.errors) push([e.rowId, e.line, null, null, 'INVALID', null, `${e.field}: ${e.reason}`, ...pad]);
  if (chunk) yield chunk;
}
