// The browse view: search and the hierarchy tree beside the selected code's page.
// `version` undefined is the latest release (the API's default): no wait for the release list.
import { ExplorerVersionsDocument } from './operations/generated.ts';
import { Link, useQuery } from './ui.tsx';
import { ownName, useLanguages } from './language.ts';
import { Search } from './search.tsx';
import { Tree } from './tree.tsx';
import { CodePage } from './code.tsx';

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
        <h2 id="tree-heading">Hierarchy</h2>
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
        Release {r.version}
        {r.releaseDate ? <span class="muted"> · {r.releaseDate}</span> : null}
      </h2>
      <p>
        {c.soc} SOCs · {c.hlgt} HLGTs · {c.hlt} HLTs · {c.pt} PTs · {c.llt} LLTs
      </p>
      {r.languages.length > 1 ? (
        <p class="languages">
          In {r.languages.length} languages:{' '}
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
          Since {r.previous.version}: {r.changeCounts.added} added, {r.changeCounts.updated} updated, {r.changeCounts.retired} retired ·{' '}
          <Link to={{ view: 'compare', from: r.previous.version, to: r.version }}>compare the releases</Link>
        </p>
      ) : null}
      <p class="muted">Search above, or browse the hierarchy: expand a SOC with → or a click, open a term with Enter or a click.</p>
    </section>
  );
}
