// The result of an impact analysis as the impact page shows it: the summary, the counts (per
// impact kind, SOC-to-SOC movements, per-PT deltas), the rows with their impacts and suggested
// recodes (filtered by kind, paged here), the bad rows, and the result as a CSV download.
import { useMemo } from 'preact/hooks';
import type { Ref } from 'preact';
import { csvText, downloadText } from './csv.ts';
import { LevelBadge, Link } from './ui.tsx';
import { Name } from './names.tsx';
import { impactCsvLines, KIND_LABELS, type BadRow, type Report, type Row } from './impactReport.ts';
import type { ImpactResultData } from './impactJob.ts';

const PAGE = 25;

export function ImpactResult(props: {
  result: ImpactResultData;
  /** The pair chosen now (the result may be for another, analysed before). */
  from: string;
  to: string;
  filter: string;
  /** A new filter starts again at the first page. */
  onFilter: (filter: string) => void;
  page: number;
  onPage: (page: number) => void;
  allDeltas: boolean;
  onAllDeltas: (all: boolean) => void;
  downloaded: string | undefined;
  onDownloaded: (what: string) => void;
  headingRef: Ref<HTMLHeadingElement>;
}) {
  const { result, from, to, filter, page } = props;
  const report = result.report;
  const s = report.summary;
  const shown = useMemo(() => {
    if (filter === 'all') return report.rows;
    if (filter === 'impacted') return report.rows.filter((r) => r.impacts.length);
    if (filter === 'unchanged') return report.rows.filter((r) => !r.impacts.length);
    return report.rows.filter((r) => r.impacts.some((i) => i.kind === filter));
  }, [report, filter]);
  const pages = Math.max(1, Math.ceil(shown.length / PAGE));
  const pageRows = shown.slice(page * PAGE, page * PAGE + PAGE);
  const downloaded = props.downloaded;
  return (
    <div class="impact-result">
      {report.from !== from || report.to !== to ? (
        <p class="change-note" role="status">
          These results are for {report.from} → {report.to}; analyse again for {from} → {to}.
        </p>
      ) : null}
      <h2 id="impact-summary-heading" tabIndex={-1} ref={props.headingRef}>
        Summary: {result.source}, {report.from} → {report.to}
      </h2>
      <ImpactSummary s={s} />
      <ImpactCounts report={report} allDeltas={props.allDeltas} onAllDeltas={props.onAllDeltas} />
      <div class="list-head">
        <div class="field">
          <label for="impact-filter">Show rows</label>
          <select
            id="impact-filter"
            value={filter}
            onChange={(e) => {
              props.onFilter((e.currentTarget as HTMLSelectElement).value);
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
            props.onDownloaded(`${name}: ${lines.length - 1} lines`);
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
      {pageRows.length ? <ImpactRows report={report} rows={pageRows} /> : <p class="empty">No row matches.</p>}
      {pages > 1 ? (
        <nav class="pager" aria-label="Row pages">
          <button type="button" disabled={page === 0} onClick={() => props.onPage(page - 1)}>
            Previous rows
          </button>
          <button type="button" disabled={page >= pages - 1} onClick={() => props.onPage(page + 1)}>
            Next rows
          </button>
        </nav>
      ) : null}
      <BadRows bad={result.bad} />
    </div>
  );
}

function ImpactSummary({ s }: { s: Report['summary'] }) {
  return (
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
  );
}

/** Rows per impact kind, rows moving between primary SOCs, and the PTs whose row counts change (the first 20 unless all are asked for). */
function ImpactCounts({ report, allDeltas, onAllDeltas }: { report: Report; allDeltas: boolean; onAllDeltas: (all: boolean) => void }) {
  const s = report.summary;
  const deltas = allDeltas ? s.ptDeltas : s.ptDeltas.slice(0, 20);
  return (
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
          <button type="button" onClick={() => onAllDeltas(!allDeltas)}>
            {allDeltas ? 'Show the first 20 PTs' : `Show all ${s.ptDeltas.length} PTs`}
          </button>
        ) : null}
      </div>
    </div>
  );
}

/** One page of rows: each row as coded, as it is in both releases, its impacts and suggested recodes. */
function ImpactRows({ report, rows }: { report: Report; rows: Row[] }) {
  return (
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
          {rows.map((r) => (
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
  );
}

/** The rows that could not be analysed (read here or refused by the server), with why. */
function BadRows({ bad }: { bad: BadRow[] }) {
  return (
    <>
      <h2 id="impact-bad-heading">Bad rows ({bad.length})</h2>
      {bad.length ? (
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
              {bad.map((e) => (
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
    </>
  );
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
