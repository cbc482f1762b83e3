// The explorer's shell: header (views, release switcher) and the view the URL names.
import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import './styles.css';
import { ExplorerVersionsDocument } from './operations/generated.ts';
import { navigate, useParams, viewOf } from './router.ts';
import { ErrorBox, Link, useQuery } from './ui.tsx';
import { Browse } from './browse.tsx';
import { Compare } from './compare.tsx';
import { Workbench } from './workbench.tsx';
import { Smqs } from './smq.tsx';
import { ImpactPage } from './impact.tsx';
import { BinPage } from './binPage.tsx';
import { useBin } from './bin.ts';
import type { Release } from './release.ts';


function App() {
  const params = useParams();
  const view = viewOf(params);
  const versions = useQuery(ExplorerVersionsDocument, {});
  const releases: Release[] = versions.data?.versions.edges.map((e) => e.node) ?? [];
  const latest = releases.find((r) => r.isLatest)?.version ?? releases[0]?.version;
  const selected = params.get('v') ?? latest;
  const binSize = useBin().length;

  useEffect(() => {
    const names = { browse: 'Browse and search', compare: 'Compare releases', workbench: 'Coding workbench', smqs: 'SMQs', impact: 'Upgrade impact', bin: 'Research bin' };
    document.title = `${names[view]} — Terminology Explorer`;
  }, [view]);

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <p class="brand">
          <Link to={{ view: 'browse', q: undefined, code: undefined, path: undefined, tab: undefined }}>Terminology Explorer</Link>
        </p>
        <nav aria-label="Views">
          <ul>
            <li>
              <Link to={{ view: 'browse' }} aria-current={view === 'browse' ? 'page' : undefined}>
                Browse
              </Link>
            </li>
            <li>
              <Link to={{ view: 'compare' }} aria-current={view === 'compare' ? 'page' : undefined}>
                Compare
              </Link>
            </li>
            <li>
              <Link to={{ view: 'workbench' }} aria-current={view === 'workbench' ? 'page' : undefined}>
                Workbench
              </Link>
            </li>
            <li>
              <Link to={{ view: 'smqs', smq: undefined, scope: undefined, after: undefined, before: undefined }} aria-current={view === 'smqs' ? 'page' : undefined}>
                SMQs
              </Link>
            </li>
            <li>
              <Link to={{ view: 'impact' }} aria-current={view === 'impact' ? 'page' : undefined}>
                Upgrade impact
              </Link>
            </li>
            <li>
              <Link to={{ view: 'bin' }} aria-current={view === 'bin' ? 'page' : undefined}>
                Research bin <span class="bin-count">({binSize})</span>
              </Link>
            </li>
          </ul>
        </nav>
        <div class="release">
          <label for="release-switcher">Release</label>
          <select
            id="release-switcher"
            value={selected ?? ''}
            disabled={!releases.length}
            onChange={(e) => {
              const v = (e.currentTarget as HTMLSelectElement).value;
              navigate({ v: v === latest ? undefined : v, after: undefined, before: undefined });
            }}
          >
            {releases.map((r) => (
              <option key={r.version} value={r.version}>
                {r.version}
                {r.isLatest ? ' (latest)' : ''}
              </option>
            ))}
          </select>
        </div>
      </header>
      {versions.error ? <ErrorBox error={versions.error} title="The releases could not be loaded" /> : null}
      <main id="main" tabIndex={-1}>
        {view === 'compare' ? (
          releases.length ? (
            <Compare params={params} releases={releases} />
          ) : versions.loading ? (
            <p class="loading" role="status">
              Loading releases…
            </p>
          ) : null
        ) : view === 'impact' ? (
          releases.length ? (
            <ImpactPage params={params} releases={releases} />
          ) : versions.loading ? (
            <p class="loading" role="status">
              Loading releases…
            </p>
          ) : null
        ) : view === 'bin' ? (
          releases.length ? (
            <BinPage params={params} releases={releases} />
          ) : versions.loading ? (
            <p class="loading" role="status">
              Loading releases…
            </p>
          ) : null
        ) : view === 'smqs' ? (
          <Smqs params={params} version={params.get('v') ?? undefined} />
        ) : view === 'workbench' ? (
          <Workbench params={params} version={params.get('v') ?? undefined} />
        ) : (
          // Without ?v= the API answers from the latest release: the view need not wait for the list.
          <Browse params={params} version={params.get('v') ?? undefined} />
        )}
      </main>
      <footer class="foot">
        <p>
          Reads only the public API: <a href="/graphql">GraphQL</a> · <a href="/docs">REST reference</a>
        </p>
      </footer>
    </>
  );
}

const root = document.getElementById('app')!;
// The boot message is static HTML (shown until the bundle runs); the app replaces it.
root.textContent = '';
render(<App />, root);
