// Upgrade impact: coded rows (a CSV file or pasted text, read here in the browser) → what
// moving them from one release to another does: the summary (rows, impacts per kind, SOC-to-SOC
// movements, per-PT count deltas), every row with its impacts, new values and suggested recode
// (filterable by kind, paged here), the bad rows, and a CSV of the result. The rows are client
// data: they stay in this page's memory and go only to `impact` (with the API key); never into
// the URL, storage or a cache. Only the release pair is in the URL.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { gql } from './api.ts';
import type { ApiError } from './api.ts';
import { KeyBox, useApiKey } from './apiKey.tsx';
import { csvText, downloadText, parseCodedRows, TooManyRows, type CodedRow, type ParseProblem } from './csv.ts';
import { ExplorerImpactDocument, type ExplorerImpactQuery, type ImpactKind } from './operations/generated.ts';
import { navigate } from './router.ts';
import { JobStatus, LevelBadge, Link, toApiError } from './ui.tsx';
import type { Release } from './release.ts';
import { Name } from './names.tsx';

/**
 * At most this many rows here: `/graphql` keeps its 1 MB body limit (some 15,000 rows), so the
 * explorer stays well within it. Larger files go to POST /impact or `terminology impact`.
 */
export const MAX_ROWS = 10_000;
/** A file larger than this is not read at all. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** The request must fit the default MAX_BODY_BYTES of /graphql. */
const MAX_REQUEST_BYTES = 1024 * 1024;
const PAGE = 25;

type Report = ExplorerImpactQuery['impact'];
type Row = Report['rows'][number];

const KIND_LABELS: Record<ImpactKind, string> = {
  LLT_NON_CURRENT: 'LLT made non-current',
  LLT_MOVED: 'LLT moved to another PT',
  PT_DEMOTED: 'PT demoted to an LLT',
  LLT_PROMOTED: 'LLT promoted to a PT',
  RENAMED: 'Term renamed',
  CODE_RETIRED: 'Code retired',
  PRIMARY_SOC_CHANGED: 'Primary SOC changed',
  HIERARCHY_CHANGED: 'HLT or HLGT changed',
  TERM_MISMATCH: 'Recorded term does not match',
  TRANSLATION_CHANGED: 'Name changed in this language only',
};

const CSV_HEADER = [
  'rowId', 'line', 'code', 'recordedTerm', 'status', 'impact', 'details', 'before', 'after', 'suggestedAction', 'suggestedCode', 'suggestedTerm', 'suggestionReason',
  'fromTerm', 'fromPtCode', 'fromPt', 'fromSocCode', 'fromSoc', 'toTerm', 'toPtCode', 'toPt', 'toSocCode', 'toSoc',
];

interface BadRow {
  rowId: string | null;
  position: number;
  line: number | null;
  field: string;
  reason: string;
}

/** One line per row and impact (UNCHANGED rows once), then the bad rows: the columns of POST /impact?format=csv. */
export function impactCsvLines(report: Report, bad: BadRow[]): unknown[][] {
  const lines: unknown[][] = [CSV_HEADER];
  type State = Row['before'] | null;
  const state = (s: State) => [s?.term, s?.pt?.code, s?.pt?.term, s?.soc?.code, s?.soc?.term];
  for (const r of report.rows) {
    const head = [r.rowId, r.line, r.code, r.recordedTerm];
    const tail = [...state(r.before), ...state(r.after)];
    if (!r.impacts.length) lines.push([...head, 'UNCHANGED', null, null, null, null, 'KEEP', r.code, r.after?.term, 'Not affected by the upgrade.', ...tail]);
    for (const i of r.impacts) lines.push([...head, 'IMPACTED', i.kind, i.details, i.before, i.after, i.suggestion.action, i.suggestion.code, i.suggestion.term, i.suggestion.reason, ...tail]);
  }
  const pad = new Array(CSV_HEADER.length - 7).fill(null);
  for (const e of bad) lines.push([e.rowId, e.line, null, null, 'INVALID', null, `${e.field}: ${e.reason}`, ...pad]);
  return lines;
}

interface Input {
  source: string;
  rows: CodedRow[];
  problems: ParseProblem[];
}

function StateCell({ s }: { s: Row['before'] | null }) {
  if (!s) return <span class="muted">not in the release</span>;
  return (
    <>
      <LevelBadge level={s.level} /> {s.term ? <Name text={s.term} /> : null}
      {s.current ? null : <span class="badge noncurrent">non-current</span>}
      {s.pt && s.level !== 'PT' ? <span class="muted block">
          PT <Name text={s.pt.term} />
        </span> : null}
      {s.soc ? <span class="muted block">
          SOC <Name text={s.soc.term} />
        </span> : null}
    </>
  );
}

export function ImpactPage({ params, releases }: { params: URLSearchParams; releases: Release[] }) {
  const latest = releases.find((r) => r.isLatest)?.version ?? releases[0]?.version ?? '';
  const to = params.get('to') ?? latest;
  const toIdx = releases.findIndex((r) => r.version === to);
  const from = params.get('from') ?? releases[toIdx + 1]?.version ?? releases.find((r) => r.version !== to)?.version ?? '';
  const [key, saveKey] = useApiKey();
  const [text, setText] = useState('');
  const [input, setInput] = useState<Input>();
  const [readError, setReadError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [result, setResult] = useState<{ report: Report; bad: BadRow[]; source: string }>();
  const [filter, setFilter] = useState('impacted');
  const [page, setPage] = useState(0);
  const [allDeltas, setAllDeltas] = useState(false);
  const [downloaded, setDownloaded] = useState<string>();
  const fileInput = useRef<HTMLInputElement>(null);
  const summaryHeading = useRef<HTMLHeadingElement>(null);
  // A new result takes the focus to its summary (keyboard and screen-reader users land on it).
  useEffect(() => {
    if (result) summaryHeading.current?.focus();
  }, [result]);

  const valid = !!from && !!to && from !== to;

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

  const report = result?.report;
  const shown = useMemo(() => {
    if (!report) return [];
    if (filter === 'all') return report.rows;
    if (filter === 'impacted') return report.rows.filter((r) => r.impacts.length);
    if (filter === 'unchanged') return report.rows.filter((r) => !r.impacts.length);
    return report.rows.filter((r) => r.impacts.some((i) => i.kind === filter));
  }, [report, filter]);
  const pages = Math.max(1, Math.ceil(shown.length / PAGE));
  const pageRows = shown.slice(page * PAGE, page * PAGE + PAGE);

  const versions = releases.map((r) => (
    <option key={r.version} value={r.version}>
      {r.version}
      {r.releaseDate ? ` (${r.releaseDate})` : ''}
    </option>
  ));
  const s = report?.summary;
  const deltas = s ? (allDeltas ? s.ptDeltas : s.ptDeltas.slice(0, 20)) : [];

  return (
    <section class="impact" aria-labelledby="impact-heading">
      <h1 id="impact-heading">Upgrade impact</h1>
      <p class="muted">
        What moving coded data from one release to another does to it: each row's impacts, new values and a suggested recode. The rows stay in this page; they are sent only to the
        API's <code>impact</code> operation, with your API key, and never put in the address bar.
      </p>
      <KeyBox apiKey={key} onChange={saveKey} />
      <form
        class="impact-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <div class="filters">
          <div class="field">
            <label for="impact-from">From (coded with)</label>
            <select id="impact-from" value={from} onChange={(e) => navigate({ from: (e.currentTarget as HTMLSelectElement).value }, { replace: true })}>
              {versions}
            </select>
          </div>
          <div class="field">
            <label for="impact-to">To (upgrade to)</label>
            <select id="impact-to" value={to} onChange={(e) => navigate({ to: (e.currentTarget as HTMLSelectElement).value }, { replace: true })}>
              {versions}
            </select>
          </div>
        </div>
        {!valid ? <p class="empty">Choose two different releases.</p> : null}
        <div class="field">
          <label for="impact-file">CSV file (columns rowId,code,term)</label>
          <input id="impact-file" ref={fileInput} type="file" accept=".csv,text/csv,text/plain" aria-describedby="impact-file-help" onChange={(e) => void onFile((e.currentTarget as HTMLInputElement).files?.[0])} />
          <p id="impact-file-help" class="help">
            A header line naming <code>rowId</code>, <code>code</code> and optionally <code>term</code> (the term as recorded), then one row per line; LLT or PT codes. At most{' '}
            {MAX_ROWS.toLocaleString('en')} rows.
          </p>
        </div>
        <label for="impact-text">…or paste rows</label>
        <textarea
          id="impact-text"
          rows={5}
          value={text}
          placeholder={'rowId,code,term\ncase-1,10047848,Watering eyes'}
          disabled={!!input}
          onInput={(e) => {
            setText((e.currentTarget as HTMLTextAreaElement).value);
            setReadError(undefined);
          }}
        />
        {input ? (
          <p class="muted" role="status">
            {input.source}: {input.rows.length} {input.rows.length === 1 ? 'row' : 'rows'} read
            {input.problems.length ? `, ${input.problems.length} unreadable` : ''}. The pasted text is ignored while a file is chosen.{' '}
            <button
              type="button"
              onClick={() => {
                if (fileInput.current) fileInput.current.value = '';
                setInput(undefined);
                setResult(undefined);
              }}
            >
              Clear the file
            </button>
          </p>
        ) : null}
        {readError ? (
          <div class="error" role="alert">
            <p>{readError}</p>
          </div>
        ) : null}
        <p>
          <button type="submit" class="primary" disabled={busy || !key || !valid || (!input && !text.trim())}>
            {busy ? 'Analysing…' : 'Analyse the upgrade'}
          </button>{' '}
          {!key ? <span class="muted">Enter an API key first.</span> : null}
        </p>
      </form>
      <JobStatus busy={busy} busyText="Analysing…" error={error} errorTitle="The impact analysis failed" />
      {report && s && result ? (
        <div class="impact-result">
          {report.from !== from || report.to !== to ? (
            <p class="change-note" role="status">
              These results are for {report.from} → {report.to}; analyse again for {from} → {to}.
            </p>
          ) : null}
          <h2 id="impact-summary-heading" tabIndex={-1} ref={summaryHeading}>
            Summary: {result.source}, {report.from} → {report.to}
          </h2>
          <dl class="impact-summary" aria-labelledby="impact-summary-heading">
            <div>
              <dt>Rows uploaded</dt>
              <dd data-k="uploaded">{s.rowsUploaded}</dd>
            </div>
            <div>
              <dt>Valid</dt>
              <dd data-k="valid">{s.rowsValid}</dd>
            </div>
            <div>
              <dt>Bad rows</dt>
              <dd data-k="invalid">{s.rowsInvalid}</dd>
            </div>
            <div>
              <dt>Impacted</dt>
              <dd data-k="impacted">
                {s.rowsImpacted} <span class="muted">({s.impactedPercent.toFixed(1)} % of valid rows)</span>
              </dd>
            </div>
          </dl>
          <div class="impact-tables">
            <div class="counts-scroll" tabIndex={0} role="region" aria-label="Rows per impact kind">
              <table class="counts by-kind">
                <caption>Rows per impact kind</caption>
                <thead>
                  <tr>
                    <th scope="col">Impact</th>
                    <th scope="col">Rows</th>
                  </tr>
                </thead>
                <tbody>
                  {s.byKind.map((k) => (
                    <tr key={k.kind} data-kind={k.kind}>
                      <th scope="row">
                        {KIND_LABELS[k.kind]} <code class="muted">{k.kind}</code>
                      </th>
                      <td>{k.rows}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div class="counts-scroll" tabIndex={0} role="region" aria-label="SOC-to-SOC movements">
              <table class="counts soc-moves">
                <caption>Rows moving from one primary SOC to another</caption>
                <thead>
                  <tr>
                    <th scope="col">From SOC</th>
                    <th scope="col">To SOC</th>
                    <th scope="col">Rows</th>
                  </tr>
                </thead>
                <tbody>
                  {s.socMovements.length ? (
                    s.socMovements.map((m) => (
                      <tr key={`${m.from.code}-${m.to.code}`}>
                        <td>
                          <Name text={m.from.term} />
                        </td>
                        <td>
                          <Name text={m.to.term} />
                        </td>
                        <td>{m.rows}</td>
                      </tr>
                    ))
                  ) : (
                    <tr>
                      <td colSpan={3}>No row changes primary SOC.</td>
                    </tr>
                  )}
                </tbody>
              </table>
            </div>
            <div class="counts-scroll" tabIndex={0} role="region" aria-label="Row counts by PT">
              <table class="counts pt-deltas">
                <caption>Row counts by PT that change ({s.ptDeltas.length})</caption>
                <thead>
                  <tr>
                    <th scope="col">PT</th>
                    <th scope="col">{report.from}</th>
                    <th scope="col">{report.to}</th>
                    <th scope="col">Change</th>
                  </tr>
                </thead>
                <tbody>
                  {deltas.length ? (
                    deltas.map((d) => (
                      <tr key={d.pt.code}>
                        <td>
                          <Name text={d.pt.term} /> <span class="muted">{d.pt.code}</span>
                        </td>
                        <td>{d.before}</td>
                        <td>{d.after}</td>
                        <td>{d.delta > 0 ? `+${d.delta}` : d.delta}</td>
                      </tr>
                    ))
                  ) : (
                    <tr>
                      <td colSpan={4}>No PT count changes.</td>
                    </tr>
                  )}
                </tbody>
              </table>
              {s.ptDeltas.length > 20 ? (
                <button type="button" onClick={() => setAllDeltas(!allDeltas)}>
                  {allDeltas ? 'Show the first 20 PTs' : `Show all ${s.ptDeltas.length} PTs`}
                </button>
              ) : null}
            </div>
          </div>
          <div class="list-head">
            <div class="field">
              <label for="impact-filter">Show rows</label>
              <select
                id="impact-filter"
                value={filter}
                onChange={(e) => {
                  setFilter((e.currentTarget as HTMLSelectElement).value);
                  setPage(0);
                }}
              >
                <option value="all">All valid rows ({report.rows.length})</option>
                <option value="impacted">Impacted rows ({s.rowsImpacted})</option>
                <option value="unchanged">Unchanged rows ({s.rowsValid - s.rowsImpacted})</option>
                {s.byKind
                  .filter((k) => k.rows)
                  .map((k) => (
                    <option key={k.kind} value={k.kind}>
                      {KIND_LABELS[k.kind]} ({k.rows})
                    </option>
                  ))}
              </select>
            </div>
            <button
              type="button"
              onClick={() => {
                const name = `impact-${report.from}-to-${report.to}.csv`;
                const lines = impactCsvLines(report, result.bad);
                downloadText(name, csvText(lines));
                setDownloaded(`${name}: ${lines.length - 1} lines`);
              }}
            >
              Download CSV
            </button>
          </div>
          {downloaded ? (
            <p class="muted" role="status">
              Downloaded {downloaded}
            </p>
          ) : null}
          <p role="status" class="count">
            {shown.length} {shown.length === 1 ? 'row' : 'rows'}
            {shown.length > PAGE ? ` · page ${page + 1} of ${pages}` : ''}
          </p>
          {pageRows.length ? (
            <div class="table-scroll" tabIndex={0} role="region" aria-label="Rows and their impacts">
              <table class="impact-rows">
                <thead>
                  <tr>
                    <th scope="col">Row</th>
                    <th scope="col">In {report.from}</th>
                    <th scope="col">In {report.to}</th>
                    <th scope="col">Impacts and suggested recode</th>
                  </tr>
                </thead>
                <tbody>
                  {pageRows.map((r) => (
                    <tr key={r.rowId}>
                      <td data-label="Row">
                        <strong>{r.rowId}</strong>
                        <span class="muted block">
                          code{' '}
                          <Link to={{ view: 'browse', v: report.from, code: r.code, lvl: r.before.level === 'LLT' ? 'LLT' : undefined }}>{r.code}</Link>
                        </span>
                        {r.recordedTerm ? <span class="muted block">recorded “{r.recordedTerm}”</span> : null}
                      </td>
                      <td data-label={`In ${report.from}`}>
                        <StateCell s={r.before} />
                      </td>
                      <td data-label={`In ${report.to}`}>
                        <StateCell s={r.after} />
                      </td>
                      <td data-label="Impacts">
                        {r.impacts.length ? (
                          <ul class="impacts">
                            {r.impacts.map((i) => (
                              <li key={i.kind}>
                                <span class="badge impact-kind">{i.kind}</span> {i.details}
                                {i.before || i.after ? (
                                  <span class="block">
                                    <del>{i.before ?? '—'}</del> → <ins>{i.after ?? '—'}</ins>
                                  </span>
                                ) : null}
                                <span class="suggestion block">
                                  <strong>{i.suggestion.action.toLowerCase()}</strong>
                                  {i.suggestion.code && i.suggestion.action !== 'KEEP' ? (
                                    <>
                                      {' '}
                                      to{' '}
                                      <Link to={{ view: 'browse', v: report.to, code: i.suggestion.code, lvl: i.suggestion.level === 'LLT' ? 'LLT' : undefined }}>
                                        {i.suggestion.term ? <Name text={i.suggestion.term} /> : i.suggestion.code}
                                      </Link>{' '}
                                      <span class="muted">{i.suggestion.code}</span>
                                    </>
                                  ) : null}
                                  : {i.suggestion.reason}
                                </span>
                              </li>
                            ))}
                          </ul>
                        ) : (
                          <span class="muted">Not affected: keep.</span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p class="empty">No row matches.</p>
          )}
          {pages > 1 ? (
            <nav class="pager" aria-label="Row pages">
              <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)}>
                Previous rows
              </button>
              <button type="button" disabled={page >= pages - 1} onClick={() => setPage(page + 1)}>
                Next rows
              </button>
            </nav>
          ) : null}
          <h2 id="impact-bad-heading">Bad rows ({result.bad.length})</h2>
          {result.bad.length ? (
            <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="impact-bad-heading">
              <table class="bad-rows">
                <thead>
                  <tr>
                    <th scope="col">Row id</th>
                    <th scope="col">Line</th>
                    <th scope="col">Field</th>
                    <th scope="col">Reason</th>
                  </tr>
                </thead>
                <tbody>
                  {result.bad.map((e) => (
                    <tr key={`${e.position}-${e.field}`}>
                      <td>{e.rowId ?? <span class="muted">(none)</span>}</td>
                      <td>{e.line ?? `row ${e.position}`}</td>
                      <td>{e.field}</td>
                      <td>{e.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p class="muted">Every row could be analysed.</p>
          )}
        </div>
      ) : null}
    </section>
  );
}
