// The result of an impact analysis as the impact page shows it: the summary, the counts (per
// impact kind, SOC-to-SOC movements, per-PT deltas), the rows with their impacts and suggested
// recodes (filtered by kind, paged here), the bad rows, and the result as a CSV download.
import { useMemo } from 'preact/hooks';
import type { Ref } from 'preact';
import { csvText, downloadText } from './csv.ts';
import { LevelBadge, Link } from './ui.tsx';
import { Name } from './names.tsx';
import { impactCsvLines, kindLabel, type BadRow, type Report, type Row } from './impactReport.ts';
import type { ImpactResultData } from './impactJob.ts';
import { formatNumber, t, uiLanguage } from './i18n.ts';

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
          {t('impact.stale', { from: report.from, to: report.to, nowFrom: from, nowTo: to })}
        </p>
      ) : null}
      <h2 id="impact-summary-heading" tabIndex={-1} ref={props.headingRef}>
        {t('impact.summary', { source: result.source, from: report.from, to: report.to })}
      </h2>
      <ImpactSummary s={s} />
      <ImpactCounts report={report} allDeltas={props.allDeltas} onAllDeltas={props.onAllDeltas} />
      <div class="list-head">
        <div class="field">
          <label for="impact-filter">{t('impact.showRows')}</label>
          <select
            id="impact-filter"
            value={filter}
            onChange={(e) => {
              props.onFilter((e.currentTarget as HTMLSelectElement).value);
            }}
          >
            <option value="all">{t('impact.allRows', { count: report.rows.length })}</option>
            <option value="impacted">{t('impact.impactedRows', { count: s.rowsImpacted })}</option>
            <option value="unchanged">{t('impact.unchangedRows', { count: s.rowsValid - s.rowsImpacted })}</option>
            {s.byKind
              .filter((k) => k.rows)
              .map((k) => (
                <option key={k.kind} value={k.kind}>
                  {kindLabel(k.kind)} ({formatNumber(k.rows)})
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
            props.onDownloaded(t('impact.downloaded', { name, count: lines.length - 1 }));
          }}
        >
          {t('common.downloadCsv')}
        </button>
      </div>
      {downloaded ? (
        <p class="muted" role="status">
          {t('common.downloadedFile', { file: downloaded })}
        </p>
      ) : null}
      <p role="status" class="count">
        {t('impact.rowCount', { count: shown.length })}
        {shown.length > PAGE ? ` · ${t('common.pageOf', { page: page + 1, pages })}` : ''}
      </p>
      {pageRows.length ? <ImpactRows report={report} rows={pageRows} /> : <p class="empty">{t('impact.noRow')}</p>}
      {pages > 1 ? (
        <nav class="pager" aria-label={t('impact.rowPages')}>
          <button type="button" disabled={page === 0} onClick={() => props.onPage(page - 1)}>
            {t('impact.previous')}
          </button>
          <button type="button" disabled={page >= pages - 1} onClick={() => props.onPage(page + 1)}>
            {t('impact.next')}
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
        <dt>{t('impact.uploaded')}</dt>
        <dd data-k="uploaded">{formatNumber(s.rowsUploaded)}</dd>
      </div>
      <div>
        <dt>{t('impact.valid')}</dt>
        <dd data-k="valid">{formatNumber(s.rowsValid)}</dd>
      </div>
      <div>
        <dt>{t('impact.bad')}</dt>
        <dd data-k="invalid">{formatNumber(s.rowsInvalid)}</dd>
      </div>
      <div>
        <dt>{t('impact.impacted')}</dt>
        <dd data-k="impacted">
          {formatNumber(s.rowsImpacted)} <span class="muted">({t('impact.percentOfValid', { value: oneDecimal(s.impactedPercent) })})</span>
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
      <div class="counts-scroll" tabIndex={0} role="region" aria-label={t('impact.perKind')}>
        <table class="counts by-kind">
          <caption>{t('impact.perKind')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('impact.impact')}</th>
              <th scope="col">{t('impact.rows')}</th>
            </tr>
          </thead>
          <tbody>
            {s.byKind.map((k) => (
              <tr key={k.kind} data-kind={k.kind}>
                <th scope="row">
                  {kindLabel(k.kind)} <code class="muted">{k.kind}</code>
                </th>
                <td>{formatNumber(k.rows)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div class="counts-scroll" tabIndex={0} role="region" aria-label={t('impact.socMoves')}>
        <table class="counts soc-moves">
          <caption>{t('impact.socMovesCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('impact.fromSoc')}</th>
              <th scope="col">{t('impact.toSoc')}</th>
              <th scope="col">{t('impact.rows')}</th>
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
                  <td>{formatNumber(m.rows)}</td>
                </tr>
              ))
            ) : (
              <tr>
                <td colSpan={3}>{t('impact.noSocMove')}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <div class="counts-scroll" tabIndex={0} role="region" aria-label={t('impact.ptRegion')}>
        <table class="counts pt-deltas">
          <caption>{t('impact.ptCaption', { count: s.ptDeltas.length })}</caption>
          <thead>
            <tr>
              <th scope="col">PT</th>
              <th scope="col">{report.from}</th>
              <th scope="col">{report.to}</th>
              <th scope="col">{t('impact.change')}</th>
            </tr>
          </thead>
          <tbody>
            {deltas.length ? (
              deltas.map((d) => (
                <tr key={d.pt.code}>
                  <td>
                    <Name text={d.pt.term} /> <span class="muted">{d.pt.code}</span>
                  </td>
                  <td>{formatNumber(d.before)}</td>
                  <td>{formatNumber(d.after)}</td>
                  <td>{d.delta > 0 ? `+${formatNumber(d.delta)}` : formatNumber(d.delta)}</td>
                </tr>
              ))
            ) : (
              <tr>
                <td colSpan={4}>{t('impact.noPtChange')}</td>
              </tr>
            )}
          </tbody>
        </table>
        {s.ptDeltas.length > 20 ? (
          <button type="button" onClick={() => onAllDeltas(!allDeltas)}>
            {allDeltas ? t('impact.first20', { count: 20 }) : t('impact.allPts', { count: s.ptDeltas.length })}
          </button>
        ) : null}
      </div>
    </div>
  );
}

/** One page of rows: each row as coded, as it is in both releases, its impacts and suggested recodes. */
function ImpactRows({ report, rows }: { report: Report; rows: Row[] }) {
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label={t('impact.rowsRegion')}>
      <table class="impact-rows">
        <thead>
          <tr>
            <th scope="col">{t('impact.row')}</th>
            <th scope="col">{t('impact.inRelease', { version: report.from })}</th>
            <th scope="col">{t('impact.inRelease', { version: report.to })}</th>
            <th scope="col">{t('impact.impactsRecode')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.rowId}>
              <td data-label={t('impact.row')}>
                <strong>{r.rowId}</strong>
                <span class="muted block">
                  {t('impact.codeWord')}{' '}
                  <Link to={{ view: 'browse', v: report.from, code: r.code, lvl: r.before.level === 'LLT' ? 'LLT' : undefined }}>{r.code}</Link>
                </span>
                {r.recordedTerm ? <span class="muted block">{t('impact.recorded', { term: r.recordedTerm })}</span> : null}
              </td>
              <td data-label={t('impact.inRelease', { version: report.from })}>
                <StateCell s={r.before} />
              </td>
              <td data-label={t('impact.inRelease', { version: report.to })}>
                <StateCell s={r.after} />
              </td>
              <td data-label={t('impact.impacts')}>
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
                          <strong>{actionName(i.suggestion.action)}</strong>
                          {i.suggestion.code && i.suggestion.action !== 'KEEP' ? (
                            <>
                              {' '}
                              {t('impact.toWord')}{' '}
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
                  <span class="muted">{t('impact.notAffected')}</span>
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
      <h2 id="impact-bad-heading">{t('impact.badHeading', { count: bad.length })}</h2>
      {bad.length ? (
        <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="impact-bad-heading">
          <table class="bad-rows">
            <thead>
              <tr>
                <th scope="col">{t('impact.rowId')}</th>
                <th scope="col">{t('impact.line')}</th>
                <th scope="col">{t('impact.field')}</th>
                <th scope="col">{t('impact.reason')}</th>
              </tr>
            </thead>
            <tbody>
              {bad.map((e) => (
                <tr key={`${e.position}-${e.field}`}>
                  <td>{e.rowId ?? <span class="muted">{t('impact.noneId')}</span>}</td>
                  <td>{e.line ?? t('impact.rowN', { n: e.position })}</td>
                  <td>{e.field}</td>
                  <td>{e.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p class="muted">{t('impact.allAnalysed')}</p>
      )}
    </>
  );
}

function StateCell({ s }: { s: Row['before'] | null }) {
  if (!s) return <span class="muted">{t('impact.notInRelease')}</span>;
  return (
    <>
      <LevelBadge level={s.level} /> {s.term ? <Name text={s.term} /> : null}
      {s.current ? null : <span class="badge noncurrent">{t('status.nonCurrent')}</span>}
      {s.pt && s.level !== 'PT' ? <span class="muted block">
          PT <Name text={s.pt.term} />
        </span> : null}
      {s.soc ? <span class="muted block">
          SOC <Name text={s.soc.term} />
        </span> : null}
    </>
  );
}

/** A suggested action (KEEP, RECODE, …) as a word of the interface's language; an unknown one as given. */
function actionName(action: string): string {
  const known = ['KEEP', 'RECODE', 'REVIEW'];
  return known.includes(action) ? t(`action.${action as 'KEEP'}`) : action.toLowerCase();
}

function oneDecimal(x: number): string {
  return new Intl.NumberFormat(uiLanguage(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(x);
}
