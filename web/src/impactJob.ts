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
import { megabytes, t } from './i18n.ts';

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
        setReadError(t('rows.none', { source, columns: 'rowId,code,term' }));
        return undefined;
      }
      setReadError(undefined);
      return { source, rows, problems };
    } catch (e) {
      setReadError(
        e instanceof TooManyRows
          ? t('impact.tooMany', { source, max: MAX_ROWS, restMax: 100_000 })
          : t('rows.unreadable', { source, reason: e instanceof Error ? e.message : String(e) }),
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
      setReadError(t('impact.tooLarge', { name: file.name, size: megabytes(file.size), limit: MAX_FILE_BYTES / 1024 / 1024, max: MAX_ROWS }));
      return;
    }
    setInput(read(await file.text(), file.name));
  }

  async function run() {
    const src = input ?? (text.trim() ? read(text, t('rows.pasted')) : undefined);
    if (!src || !key || !valid) return;
    const body = JSON.stringify({ from, to, rows: src.rows.map((r) => ({ rowId: r.rowId, code: r.code, term: r.term, line: r.line })) });
    const bytes = new TextEncoder().encode(body).length;
    if (bytes > MAX_REQUEST_BYTES) {
      setReadError(t('impact.requestTooLarge', { size: megabytes(bytes) }));
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
