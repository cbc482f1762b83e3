// Compare two releases: counts by change type and level, a filterable, paged list of changes
// with before/after, and a CSV of the filtered list (every page, fetched on demand).
import { useEffect, useState } from 'preact/hooks';
import { gql } from './api.ts';
import { ExplorerChangesDocument, type ChangeType, type Level } from './operations/generated.ts';
import { navigate } from './router.ts';
import { csvText, downloadText } from './csv.ts';
import { changeTypeName, codesOf, describeSide, namesIn, type Meta, type Names } from './changeWords.ts';
import { useLanguages } from './language.ts';
import { ErrorBox, LevelBadge, Link, Loading, toApiError, useQuery } from './ui.tsx';
import type { ApiError } from './api.ts';
import type { Release } from './release.ts';
import { formatDate, formatNumber, t } from './i18n.ts';

const PAGE = 25;
const LEVELS = ['SOC', 'HLGT', 'HLT', 'PT', 'LLT'] as const;
const TYPES: ChangeType[] = ['ADDED', 'UPDATED', 'RETIRED'];

/** Names of the codes the listed changes refer to: before-codes in `from`, after-codes in `to`. */
function useSideNames(from: string, to: string, metas: Meta[]): { before: Names; after: Names } {
  const beforeCodes = [...new Set(metas.flatMap((m) => codesOf(m.before)))].sort();
  const afterCodes = [...new Set(metas.flatMap((m) => codesOf(m.after)))].sort();
  const key = JSON.stringify([from, to, beforeCodes, afterCodes]);
  const [names, setNames] = useState<{ key: string; before: Names; after: Names }>();
  useEffect(() => {
    let live = true;
    Promise.all([namesIn(from, beforeCodes), namesIn(to, afterCodes)]).then(
      ([before, after]) => live && setNames({ key, before, after }),
      // Without names the codes still show (as numbers): the list stays usable.
      () => live && setNames({ key, before: new Map(), after: new Map() }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return names?.key === key ? names : { before: new Map(), after: new Map() };
}

export function Compare({ params, releases }: { params: URLSearchParams; releases: Release[] }) {
  const latest = releases.find((r) => r.isLatest)?.version ?? releases[0]?.version ?? '';
  const to = params.get('to') ?? params.get('v') ?? latest;
  const toIdx = releases.findIndex((r) => r.version === to);
  const from = params.get('from') ?? releases[toIdx + 1]?.version ?? '';
  const ct = (params.get('ct') as ChangeType | null) ?? undefined;
  const level = (params.get('level') as Level | null) ?? undefined;
  const after = params.get('after') ?? undefined;
  const before = params.get('before') ?? undefined;
  const valid = !!from && !!to && from !== to;
  const paging = before ? { last: PAGE, before } : { first: PAGE, after };
  const { language } = useLanguages();
  const q = useQuery(ExplorerChangesDocument, { to, from, level, changeType: ct, language, ...paging }, { skip: !valid });
  const [csv, setCsv] = useState<{ busy: boolean; error?: ApiError; done?: string }>({ busy: false });
  const v = q.data?.version;
  const conn = v?.changes;
  const names = useSideNames(from, to, (conn?.edges ?? []).map((e) => (e.node.metadata ?? {}) as Meta));

  const set = (changes: Record<string, string | undefined>) => navigate({ ...changes, after: undefined, before: undefined });

  async function download() {
    setCsv({ busy: true });
    try {
      const rows: string[][] = [['code', 'level', 'change_type', 'kinds', 'term', 'previous_term', 'details', 'before', 'after', 'from', 'to']];
      let cursor: string | undefined;
      for (;;) {
        const d = await gql(ExplorerChangesDocument, { to, from, level, changeType: ct, language, first: 200, after: cursor });
        const c = d.version.changes;
        const metas = c.edges.map((e) => (e.node.metadata ?? {}) as Meta);
        const [bn, an] = await Promise.all([namesIn(from, metas.flatMap((m) => codesOf(m.before))), namesIn(to, metas.flatMap((m) => codesOf(m.after)))]);
        c.edges.forEach((e, k) => {
          const m = metas[k]!;
          rows.push([e.node.code, e.node.level, e.node.changeType, e.node.kinds.join(' '), e.node.term, e.node.previousTerm ?? '', e.node.details, describeSide(m.before, e.node.level, bn), describeSide(m.after, e.node.level, an), c.from.version, c.to.version]);
        });
        if (!c.pageInfo.hasNextPage || !c.pageInfo.endCursor) break;
        cursor = c.pageInfo.endCursor;
      }
      const name = `changes-${from}-to-${to}${level ? `-${level}` : ''}${ct ? `-${ct.toLowerCase()}` : ''}.csv`;
      downloadText(name, csvText(rows));
      setCsv({ busy: false, done: t('compare.downloaded', { name, count: rows.length - 1 }) });
    } catch (e) {
      setCsv({ busy: false, error: toApiError(e) });
    }
  }

  const select = (id: string, label: string, value: string, onChange: (v: string) => void, options: [string, string][]) => (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value)}>
        {options.map(([val, text]) => (
          <option key={val} value={val}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
  const versions: [string, string][] = releases.map((r) => [r.version, `${r.version}${r.releaseDate ? ` (${formatDate(r.releaseDate)})` : ''}`]);

  return (
    <section class="compare" aria-labelledby="compare-heading">
      <h1 id="compare-heading">{t('title.compare')}</h1>
      {valid ? (
        <p class="small">
          <Link to={{ view: 'impact', from, to }}>{t('compare.impactLink')}</Link>
        </p>
      ) : null}
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        {select('compare-from', t('compare.from'), from, (x) => set({ from: x }), versions)}
        {select('compare-to', t('compare.to'), to, (x) => set({ to: x }), versions)}
        <div class="field">
          <span class="label-spacer" aria-hidden="true">
            &nbsp;
          </span>
          <button type="button" onClick={() => set({ from: to, to: from })}>
            {t('compare.swap')}
          </button>
        </div>
        {select('compare-type', t('compare.changeType'), ct ?? '', (x) => set({ ct: x || undefined }), [['', t('compare.allTypes')], ...TYPES.map((ty) => [ty, changeTypeName(ty)] as [string, string])])}
        {select('compare-level', t('common.level'), level ?? '', (x) => set({ level: x || undefined }), [['', t('common.allLevels')], ...LEVELS.map((l) => [l, l] as [string, string])])}
      </form>
      {!valid ? <p class="empty">{t('common.chooseTwo')}</p> : null}
      {q.error ? <ErrorBox error={q.error} title={t('compare.failed')} /> : null}
      {q.loading && !v ? <Loading label={t('compare.comparing')} /> : null}
      {v && conn ? (
        <>
          <div class="counts-scroll" tabIndex={0} role="region" aria-label={t('compare.countsRegion')}>
          <table class="counts">
            <caption>
              {t('compare.caption', { from: conn.from.version, to: conn.to.version })}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('common.level')}</th>
                {TYPES.map((ty) => (
                  <th scope="col" key={ty}>
                    {changeTypeName(ty)}
                  </th>
                ))}
                <th scope="col">{t('compare.total')}</th>
              </tr>
            </thead>
            <tbody>
              {LEVELS.map((l) => {
                const c = v[l.toLowerCase() as 'soc'];
                return (
                  <tr key={l}>
                    <th scope="row">
                      <LevelBadge level={l} />
                    </th>
                    <td>{formatNumber(c.counts.added)}</td>
                    <td>{formatNumber(c.counts.updated)}</td>
                    <td>{formatNumber(c.counts.retired)}</td>
                    <td>{formatNumber(c.totalCount)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          </div>
          <div class="list-head">
            <p role="status">
              {t(level || ct ? 'compare.countFiltered' : 'compare.count', { count: conn.totalCount, added: conn.counts.added, updated: conn.counts.updated, retired: conn.counts.retired })}
            </p>
            <button type="button" onClick={download} disabled={csv.busy || !conn.totalCount}>
              {csv.busy ? t('common.preparingCsv') : t('common.downloadCsv')}
            </button>
          </div>
          {csv.error ? <ErrorBox error={csv.error} title={t('common.csvFailed')} /> : null}
          {csv.done ? (
            <p class="muted" role="status">
              {t('common.downloadedFile', { file: csv.done })}
            </p>
          ) : null}
          {conn.edges.length ? (
            <div class="table-scroll" tabIndex={0} role="region" aria-label={t('compare.changesRegion')}>
              <table class="changes-table">
                <thead>
                  <tr>
                    <th scope="col">{t('common.code')}</th>
                    <th scope="col">{t('common.level')}</th>
                    <th scope="col">{t('compare.type')}</th>
                    <th scope="col">{t('common.term')}</th>
                    <th scope="col">{t('compare.beforeAfter')}</th>
                  </tr>
                </thead>
                <tbody>
                  {conn.edges.map(({ node: n }) => {
                    const m = (n.metadata ?? {}) as Meta;
                    const inRelease = n.changeType === 'RETIRED' && n.kinds.includes('retired') ? conn.from.version : conn.to.version;
                    return (
                      <tr key={n.code + n.level}>
                        <td>
                          <Link to={{ view: 'browse', v: inRelease, code: n.code, lvl: n.level === 'LLT' ? 'LLT' : undefined }}>{n.code}</Link>
                        </td>
                        <td>
                          <LevelBadge level={n.level} />
                        </td>
                        <td>
                          <span class={`badge ct-${n.changeType.toLowerCase()}`}>{changeTypeName(n.changeType)}</span>
                          <span class="kinds">{n.kinds.join(', ')}</span>
                        </td>
                        <td lang={n.language ?? language}>
                          {n.previousTerm ? (
                            <>
                              <del>{n.previousTerm}</del> → <ins>{n.term}</ins>
                            </>
                          ) : (
                            n.term
                          )}
                        </td>
                        <td>
                          {m.before || m.after ? (
                            <dl class="ba">
                              <dt>{t('compare.before')}</dt>
                              <dd>{describeSide(m.before, n.level, names.before) || '—'}</dd>
                              <dt>{t('compare.after')}</dt>
                              <dd>{describeSide(m.after, n.level, names.after) || '—'}</dd>
                            </dl>
                          ) : null}
                          <span class="details">{n.details}</span>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          ) : (
            <p class="empty">{t('compare.none')}</p>
          )}
          {conn.pageInfo.hasNextPage || conn.pageInfo.hasPreviousPage ? (
            <nav class="pager" aria-label={t('compare.pages')}>
              <button type="button" disabled={!conn.pageInfo.hasPreviousPage} onClick={() => navigate({ before: conn.pageInfo.startCursor ?? undefined, after: undefined })}>
                {t('compare.previous')}
              </button>
              <button type="button" disabled={!conn.pageInfo.hasNextPage} onClick={() => navigate({ after: conn.pageInfo.endCursor ?? undefined, before: undefined })}>
                {t('compare.next')}
              </button>
            </nav>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
