// The browse view: search and the hierarchy tree beside the selected code's page.
// `version` undefined is the latest release (the API's default): no wait for the release list.
import { ExplorerVersionsDocument } from './operations/generated.ts';
import { Link, useQuery } from './ui.tsx';
import { ownName, useLanguages } from './language.ts';
import { Search } from './search.tsx';
import { Tree } from './tree.tsx';
import { CodePage } from './code.tsx';
import { formatDate, formatNumber, t } from './i18n.ts';

export function Browse({ params, version }: { params: URLSearchParams; version?: string }) {
  const { language } = useLanguages();
  const code = params.get('code') ?? undefined;
  const path = params.get('path')?.split('.').filter(Boolean);
  return (
    <div class="browse">
      <div class="content">
        <Search params={params} version={version} compact={!!code} />
        {code ? (
          <CodePage code={code} level={params.get('lvl') ?? undefined} tab={params.get('tab') ?? 'overview'} version={version} />
        ) : params.get('q')?.trim() ? null : (
          <ReleaseSummary version={version} />
        )}
      </div>
      <aside class="tree-panel" aria-labelledby="tree-heading">
        <h2 id="tree-heading">{t('browse.hierarchy')}</h2>
        <Tree key={language} version={version} selected={code} selectedLevel={params.get('lvl') ?? undefined} path={path} showNonCurrent={params.get('nc') !== '0'} />
      </aside>
    </div>
  );
}

/** The start page's summary of the release: sizes by level and what changed since the previous one. */
export function ReleaseSummary({ version }: { version?: string }) {
  const q = useQuery(ExplorerVersionsDocument, {});
  const all = q.data?.versions.edges.map((e) => e.node) ?? [];
  const r = version ? all.find((x) => x.version === version) : (all.find((x) => x.isLatest) ?? all[0]);
  if (!r) return null;
  const c = r.counts;
  return (
    <section class="summary" aria-labelledby="summary-heading">
      <h2 id="summary-heading">
        {t('common.release', { version: r.version })}
        {r.releaseDate ? <span class="muted"> · {formatDate(r.releaseDate)}</span> : null}
      </h2>
      <p>
        {formatNumber(c.soc)} SOCs · {formatNumber(c.hlgt)} HLGTs · {formatNumber(c.hlt)} HLTs · {formatNumber(c.pt)} PTs · {formatNumber(c.llt)} LLTs
      </p>
      {r.languages.length > 1 ? (
        <p class="languages">
          {t('browse.inLanguages', { count: r.languages.length })}{' '}
          {r.languages.map((tag, i) => (
            <span key={tag}>
              {i ? ', ' : ''}
              <span lang={tag}>{ownName(tag)}</span>
            </span>
          ))}
        </p>
      ) : null}
      {r.previous && r.changeCounts ? (
        <p>
          {t('browse.since', { version: r.previous.version, added: r.changeCounts.added, updated: r.changeCounts.updated, retired: r.changeCounts.retired })} ·{' '}
          <Link to={{ view: 'compare', from: r.previous.version, to: r.version }}>{t('browse.compareLink')}</Link>
        </p>
      ) : null}
      <p class="muted">{t('browse.hint')}</p>
    </section>
  );
}
