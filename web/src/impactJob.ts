// The impact page's job: the rows as read here in the browser (a file or pasted text), the
// analysis sent to `impact` with the API key, and its result, with the row filter and page the
// result opens on. The rows stay in this hook's state: never in the URL, storage or a cache.
import { useState } from 'preact/hooks';
import { gql } from './api.ts';
import type { ApiError } from './api.ts';
import { parseCodedRows, TooManyRows, type CodedRow, type ParseProblem } from './csv.ts';
import { ExplorerImpactDocument } from './operations/generated.ts';
import { toApiError } from './ui.tsx';
import type { BadRow, Report } from './impactReport.ts';

/**
 * At most this many rows here: `/graphql` keeps its 1 MB body limit (some 15,000 rows), so the
 * explorer stays well within it. Larger files go to POST /impact or `terminology impact`.
 */
export const MAX_ROWS = 10_000;
/** A file larger than this is not read at all. */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** The request must fit the default MAX_BODY_BYTES of /graphql. */
const MAX_REQUEST_BYTES = 1024 * 1024;

export interface Input {
  source: string;
  rows: CodedRow[];
  problems: ParseProblem[];
}

export interface ImpactResultData {
  report: Report;
  bad: BadRow[];
  source: string;
}

export function useImpactJob(from: string, to: string, key: string | undefined, valid: boolean) {
  const [text, setText] = useState('');
  const [input, setInput] = useState<Input>();
  const [readError, setReadError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [result, setResult] = useState<ImpactResultData>();
  const [filter, setFilter] = useState('impacted');
  const [page, setPage] = useState(0);
  const [downloaded, setDownloaded] = useState<string>();

  function read(textIn: string, source: string): Input | undefined {
    try {
      const { rows, problems } = parseCodedRows(textIn, MAX_ROWS);
      if (!rows.length && !problems.length) {
        setReadError(`${source}: no rows. The first line names the columns (rowId,code,term), then one coded row per line.`);
        return undefined;
      }
      setReadError(undefined);
      return { source, rows, problems };
    } catch (e) {
      setReadError(
        e instanceof TooManyRows
          ? `${source} has more than ${MAX_ROWS.toLocaleString('en')} rows: the explorer takes at most ${MAX_ROWS.toLocaleString('en')}. Split the file, or send it to POST /impact (up to 100,000 rows) or run “terminology impact”.`
          : `${source} could not be read: ${e instanceof Error ? e.message : String(e)}`,
      );
      return undefined;
    }
  }

  async function onFile(file: File | undefined) {
    setResult(undefined);
    setError(undefined);
    if (!file) return setInput(undefined);
    if (file.size > MAX_FILE_BYTES) {
      setInput(undefined);
      setReadError(`${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MB: the explorer reads files up to ${MAX_FILE_BYTES / 1024 / 1024} MB and ${MAX_ROWS.toLocaleString('en')} rows. Use POST /impact or “terminology impact” for larger ones.`);
      return;
    }
    setInput(read(await file.text(), file.name));
  }

  async function run() {
    const src = input ?? (text.trim() ? read(text, 'The pasted rows') : undefined);
    if (!src || !key || !valid) return;
    const body = JSON.stringify({ from, to, rows: src.rows.map((r) => ({ rowId: r.rowId, code: r.code, term: r.term, line: r.line })) });
    const bytes = new TextEncoder().encode(body).length;
    if (bytes > MAX_REQUEST_BYTES) {
      setReadError(`These rows make a request of ${(bytes / 1024 / 1024).toFixed(1)} MB, over the 1 MB limit of the GraphQL endpoint. Split them, or use POST /impact or “terminology impact”.`);
      return;
    }
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    setDownloaded(undefined);
    try {
      const d = await gql(
        ExplorerImpactDocument,
        { input: { from, to, rows: src.rows.map((r) => ({ rowId: r.rowId || undefined, code: r.code || undefined, term: r.term, line: r.line })) } },
        { apiKey: key, cache: false },
      );
      // Records this page could not turn into rows (extra fields) are listed with the server's bad rows.
      const bad: BadRow[] = [...src.problems, ...d.impact.errors].sort((a, b) => (a.line ?? a.position) - (b.line ?? b.position));
      setResult({ report: d.impact, bad, source: src.source });
      setFilter(d.impact.summary.rowsImpacted ? 'impacted' : 'all');
      setPage(0);
    } catch (e) {
      setError(toApiError(e));
    } finally {
      setBusy(false);
    }
  }

  /** Pasted text is what is read again; a chosen file is dropped with its result. */
  const editText = (value: string) => {
    setText(value);
    setReadError(undefined);
  };
  const clearFile = () => {
    setInput(undefined);
    setResult(undefined);
  };

  return { text, editText, input, readError, busy, error, result, filter, setFilter, page, setPage, downloaded, setDownloaded, onFile, clearFile, run };
}
