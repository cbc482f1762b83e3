// CSV in the browser: reading coded rows (rowId,code[,term]; RFC 4180 quoting, BOM, CRLF or LF,
// columns in any order, as POST /impact reads them) and writing cells a spreadsheet will not run.

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

/** RFC 4180 records of `text` with the line each ends on; `sep` is ',' or a tab (pasted from a spreadsheet). */
function* records(text: string, sep: string): Generator<{ fields: string[]; line: number }> {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    const fields: string[] = [];
    let field = '';
    let quoted = false;
    let atStart = true;
    for (;;) {
      if (i >= n) {
        fields.push(field);
        break;
      }
      const ch = text[i]!;
      if (quoted) {
        if (ch === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
          } else {
            quoted = false;
            i++;
          }
        } else {
          if (ch === '\n') line++;
          field += ch;
          i++;
        }
        continue;
      }
      if (ch === '"' && atStart) {
        quoted = true;
        atStart = false;
        i++;
      } else if (ch === sep) {
        fields.push(field);
        field = '';
        atStart = true;
        i++;
      } else if (ch === '\r' || ch === '\n') {
        fields.push(field);
        i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
        break;
      } else {
        field += ch;
        atStart = false;
        i++;
      }
    }
    const recordLine = line;
    line++;
    // Blank lines are skipped, as the server does.
    if (fields.length === 1 && fields[0]!.trim() === '') continue;
    yield { fields, line: recordLine };
  }
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
  for (const { fields, line } of records(text, sep)) {
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
  return [...records(text, sep)].map((r) => r.fields);
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
