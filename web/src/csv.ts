// CSV in the browser: reading coded rows (rowId,code[,term]; RFC 4180 quoting, BOM, CRLF or LF,
// columns in any order, as POST /impact reads them: the same parser, csv-parse, in its browser
// build) and writing cells a spreadsheet will not run.
import { CsvError, parse } from 'csv-parse/browser/esm/sync';

export interface CodedRow {
  rowId: string;
  code: string;
  term?: string;
  /** SMQ application groups rows into cases (a `caseId` column; absent in the impact format). */
  caseId?: string;
  /** Line of the text where the record ends (as the server's CSV reader counts). */
  line: number;
}

export interface ParseProblem {
  rowId: string | null;
  position: number;
  line: number;
  field: string;
  reason: string;
}

export class TooManyRows extends Error {}

type Column = 'rowId' | 'code' | 'term' | 'caseId';
const ALIASES: Record<string, Column> = { rowid: 'rowId', row_id: 'rowId', id: 'rowId', code: 'code', term: 'term', caseid: 'caseId', case_id: 'caseId' };

/**
 * RFC 4180 records of `text` with the line each ends on, read by csv-parse as the server reads
 * uploads (src/domain/impact/csv.ts: BOM, quotes, a quote inside an unquoted field kept as
 * text, empty lines skipped — a line of spaces is a record, as there —, csv-parse's line count); `sep` is ',' or a tab (pasted from a
 * spreadsheet), and line ends may be mixed (text pasted from several places). `onRecord` sees
 * each record as it is read and may stop the read by throwing.
 */
function records(text: string, sep: string, onRecord: (index: number) => void = () => undefined): { fields: string[]; line: number }[] {
  const read: { fields: string[]; line: number }[] = [];
  parse(text, {
    bom: true,
    delimiter: sep,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    // Kept here with the line the parser is on (the record's last line), not returned.
    on_record: (fields, context) => {
      onRecord(read.length);
      read.push({ fields, line: context.lines });
      return null;
    },
  });
  return read;
}

/** The CSV text's problem as the server words it: the parser's code and line (its message quotes the input). */
function malformed(e: CsvError): ParseProblem {
  const line = typeof e.lines === 'number' ? e.lines : 0;
  return { rowId: null, position: 0, line, field: 'file', reason: `malformed CSV${line ? ` at line ${line}` : ''} (${e.code})` };
}

/**
 * Coded rows from CSV text. A first line naming rowId and code is the header (any order, term
 * optional); without one the columns are rowId,code,term. More than `maxRows` rows throws
 * TooManyRows as soon as the limit is passed (the rest is not read).
 */
export function parseCodedRows(text: string, maxRows: number): { rows: CodedRow[]; problems: ParseProblem[]; header: boolean } {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const sep = firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ',';
  const rows: CodedRow[] = [];
  const problems: ParseProblem[] = [];
  let columns: (Column | null)[] | null = null;
  let header = false;
  let position = 0;
  let read: { fields: string[]; line: number }[];
  try {
    // The first record may be the header: one more than maxRows, then the read stops.
    read = records(text, sep, (index) => {
      if (index > maxRows) throw new TooManyRows(`more than ${maxRows.toLocaleString('en')} rows`);
    });
  } catch (e) {
    if (e instanceof CsvError) return { rows, problems: [malformed(e)], header };
    throw e;
  }
  for (const { fields, line } of read) {
    if (!columns) {
      const named = fields.map((h) => ALIASES[h.trim().toLowerCase().replace(/[\s-]/g, '_')] ?? null);
      if (named.includes('rowId') && named.includes('code')) {
        columns = named;
        header = true;
        continue;
      }
      columns = ['rowId', 'code', 'term'];
    }
    position++;
    if (position > maxRows) throw new TooManyRows(`more than ${maxRows.toLocaleString('en')} rows`);
    const row: { rowId: string; code: string; term?: string; caseId?: string } = { rowId: '', code: '' };
    fields.forEach((v, k) => {
      const col = columns![k];
      if (col) row[col] = col === 'term' ? v : v.trim();
    });
    if (fields.length > columns.length && fields.slice(columns.length).some((v) => v.trim() !== '')) {
      problems.push({ rowId: row.rowId || null, position, line, field: 'row', reason: `more fields than the ${columns.length} columns of the header` });
      continue;
    }
    rows.push({ rowId: row.rowId, code: row.code, term: row.term === undefined || row.term === '' ? undefined : row.term, ...(row.caseId ? { caseId: row.caseId } : {}), line });
  }
  return { rows, problems, header };
}

/** Every record of CSV text (comma- or, for a header with tabs and no commas, tab-separated), blank lines skipped. */
export function csvRecords(text: string): string[][] {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const sep = firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ',';
  return records(text, sep).map((r) => r.fields);
}

/** One CSV cell: a leading =, +, -, @, tab or CR defused with an apostrophe; quoted when needed. */
export function csvCell(v: unknown): string {
  const s = v === null || v === undefined ? '' : String(v);
  const safe = typeof v === 'string' && /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Lines of cells as a CSV file a spreadsheet opens as is: UTF-8 BOM, CRLF line ends. */
export function csvText(lines: unknown[][]): string {
  return '\uFEFF' + lines.map((l) => l.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export function downloadText(name: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
