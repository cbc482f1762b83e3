// The SMQ page's "Apply to coded rows": rows (rowId,code[,caseId]) from a file or pasted, run
// through `applySmq` with the API key — counts, the narrow and broad matches, the rows that
// could not be matched, an algorithmic SMQ's cases — and a CSV of every row with its outcome.
// The rows are client data: they stay in this page's memory and go only to `applySmq`.
import { useState } from 'preact/hooks';
import { gql, type ApiError } from './api.ts';
import { KeyBox, useApiKey } from './apiKey.tsx';
import { csvText, downloadText } from './csv.ts';
import { ExplorerApplySmqDocument, type ExplorerApplySmqQuery } from './operations/generated.ts';
import { readRows, RowsInput, MAX_ROWS, type RowsRead } from './rowsInput.tsx';
import { JobStatus, LevelBadge, toApiError } from './ui.tsx';
import { formatNumber, t, tx } from './i18n.ts';

type Application = ExplorerApplySmqQuery['applySmq'];
type Match = Application['narrow'][number];
/** Matches shown per table; the CSV has them all. */
const SHOWN = 100;
const COLUMNS = 'rowId,code[,caseId]';

export const SMQ_CSV_HEADER = ['rowId', 'caseId', 'code', 'outcome', 'scope', 'matchedCode', 'matchedTerm', 'matchedLevel', 'smqCode', 'category', 'weight', 'problem', 'smq', 'release'];

/** One line per row sent, in its order: narrow, broad, unmatched or problem. */
export function smqCsvLines(rows: RowsRead['rows'], a: Application, smq: string): unknown[][] {
  const byRow = new Map<string, { outcome: string; m?: Match; problem?: string }>();
  for (const m of a.narrow) byRow.set(m.rowId, { outcome: 'narrow', m });
  for (const m of a.broad) byRow.set(m.rowId, { outcome: 'broad', m });
  for (const p of a.problems) byRow.set(p.rowId, { outcome: 'problem', problem: p.reason });
  const lines: unknown[][] = [SMQ_CSV_HEADER];
  for (const r of rows) {
    const o = byRow.get(r.rowId) ?? { outcome: 'unmatched' };
    const m = o.m;
    lines.push([r.rowId, r.caseId ?? '', r.code, o.outcome, m?.scope.toLowerCase() ?? '', m?.matchedCode ?? '', m?.matchedTerm ?? '', m?.matchedLevel ?? '', m?.smqCode ?? '', m?.category ?? '', m?.weight ?? '', o.problem ?? '', smq, a.version.version]);
  }
  return lines;
}

function Matches({ list, caption }: { list: Match[]; caption: string }) {
  if (!list.length) return null;
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label={caption}>
      <table class="smq-matches">
        <caption>
          {list.length > SHOWN ? t('apply.captionShown', { caption, count: list.length, shown: SHOWN }) : t('apply.caption', { caption, count: list.length })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t('impact.row')}</th>
            <th scope="col">{t('apply.case')}</th>
            <th scope="col">{t('common.code')}</th>
            <th scope="col">{t('apply.matchedTerm')}</th>
            <th scope="col">{t('smq.category')}</th>
          </tr>
        </thead>
        <tbody>
          {list.slice(0, SHOWN).map((m) => (
            <tr key={m.rowId}>
              <td>{m.rowId}</td>
              <td>{m.caseId ?? '—'}</td>
              <td>
                <LevelBadge level={m.level} /> {m.term} <span class="muted">{m.code}</span>
              </td>
              <td>
                {m.matchedTerm ?? m.matchedCode} <span class="muted">{m.matchedCode}</span>
                {m.matchedCode !== m.code ? <span class="muted block">{t('apply.throughPt')}</span> : null}
              </td>
              <td>
                {m.category} ({m.weight})
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function SmqApply({ code, name, version, isAlgorithmic }: { code: string; name: string; version?: string; isAlgorithmic: boolean }) {
  const [key, saveKey] = useApiKey();
  const [text, setText] = useState('');
  const [file, setFile] = useState<RowsRead>();
  const [readError, setReadError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [result, setResult] = useState<{ a: Application; rows: RowsRead['rows']; source: string }>();

  async function run() {
    const src = file ?? (text.trim() ? readRows(text, t('rows.pasted'), COLUMNS) : undefined);
    if (typeof src === 'string') return setReadError(src);
    if (!src || !key) return;
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    try {
      const rowsData = src.rows.map((r) => ({ rowId: r.rowId, code: r.code, ...(r.caseId ? { caseId: r.caseId } : {}) }));
      const d = await gql(ExplorerApplySmqDocument, { code, version, rowsData }, { apiKey: key, cache: false });
      setResult({ a: d.applySmq, rows: src.rows, source: src.source });
    } catch (e) {
      setError(toApiError(e));
    } finally {
      setBusy(false);
    }
  }

  const a = result?.a;
  return (
    <section aria-labelledby="smq-apply-heading" class="smq-apply">
      <h2 id="smq-apply-heading">{t('apply.heading')}</h2>
      <p class="muted">{tx(isAlgorithmic ? 'apply.introAlgorithmic' : 'apply.intro', { op: <code>applySmq</code> })}</p>
      <KeyBox apiKey={key} onChange={saveKey} />
      <form
        class="impact-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <RowsInput
          id="smq-rows"
          fileLabel={t('impact.file', { columns: COLUMNS })}
          pasteLabel={t('rows.paste')}
          columns={COLUMNS}
          help={
            <>{tx('apply.fileHelp', { rowId: <code>rowId</code>, code: <code>code</code>, caseId: <code>caseId</code>, max: MAX_ROWS })}</>
          }
          placeholder={'rowId,code,caseId\n1,10006482,A'}
          text={text}
          onText={setText}
          file={file}
          onFile={(f) => {
            setFile(f);
            setResult(undefined);
          }}
          error={readError}
          onError={setReadError}
        />
        <p>
          <button type="submit" class="primary" disabled={busy || !key || (!file && !text.trim())}>
            {busy ? t('apply.applying') : t('apply.run')}
          </button>{' '}
          {!key ? <span class="muted">{t('key.first')}</span> : null}
        </p>
      </form>
      <JobStatus busy={busy} busyText={t('apply.applying')} error={error} errorTitle={t('apply.failed')} />
      {a && result ? (
        <div class="smq-apply-result">
          <h3>
            {t('apply.resultHeading', { source: result.source, name, version: a.version.version })}
          </h3>
          <dl class="impact-summary">
            {(
              [
                [t('impact.rows'), a.counts.rows, 'rows'],
                [t('apply.narrow'), a.counts.narrow, 'narrow'],
                [t('apply.broadOnly'), a.counts.broad, 'broad'],
                [t('apply.broadSearch'), a.counts.broadSearch, 'broadSearch'],
                [t('apply.unmatched'), a.counts.unmatched, 'unmatched'],
                [t('apply.problems'), a.counts.problems, 'problems'],
              ] as const
            ).map(([label, n, k]) => (
              <div key={k}>
                <dt>{label}</dt>
                <dd data-k={k}>{formatNumber(n)}</dd>
              </div>
            ))}
          </dl>
          <p>
            <button type="button" onClick={() => downloadText(`smq-${code}-${a.version.version}.csv`, csvText(smqCsvLines(result.rows, a, code)))}>
              {t('common.downloadCsv')}
            </button>
          </p>
          <Matches list={a.narrow} caption={t('apply.narrowMatches')} />
          <Matches list={a.broad} caption={t('apply.broadMatches')} />
          {a.problems.length ? (
            <div class="table-scroll" tabIndex={0} role="region" aria-label={t('apply.problemsRegion')}>
              <table class="bad-rows">
                <caption>{t('apply.problemsCaption', { count: a.problems.length })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('impact.row')}</th>
                    <th scope="col">{t('common.code')}</th>
                    <th scope="col">{t('impact.reason')}</th>
                  </tr>
                </thead>
                <tbody>
                  {a.problems.slice(0, SHOWN).map((p) => (
                    <tr key={p.rowId}>
                      <td>{p.rowId}</td>
                      <td>{p.code}</td>
                      <td>{p.reason === 'UNKNOWN_CODE' ? t('apply.unknownCode', { version: a.version.version }) : t('apply.wrongLevel')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {a.algorithm ? (
            <div class="smq-cases">
              <h3>{t('apply.algorithm', { expression: a.algorithm.expression })}</h3>
              {a.algorithm.error ? (
                <p class="error">{t('apply.ruleError', { error: a.algorithm.error })}</p>
              ) : (
                <p role="status">
                  {t('apply.casesMatched', { matched: a.algorithm.matchedCases ?? 0, count: a.algorithm.cases.length })}
                </p>
              )}
              {a.algorithm.cases.length ? (
                <ul class="links">
                  {a.algorithm.cases.slice(0, SHOWN).map((c, i) => (
                    <li key={c.caseId ?? `row-${i}`}>
                      {t('apply.caseLine', { case: c.caseId ?? t('apply.caseRows', { rows: c.rowIds.join(', ') }), categories: c.categories.map((k) => `${k.category} (${k.weight})`).join(', '), weight: c.weight })} ·{' '}
                      <strong>{c.matched === null ? t('apply.notEvaluated') : c.matched ? t('apply.meets') : t('apply.doesNotMeet')}</strong>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
