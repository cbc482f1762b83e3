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
import { setShellLanguage } from './api.ts';
import { LanguageContext, resolveLanguages } from './language.ts';
import { LanguageOptions } from './names.tsx';


function App() {
  const params = useParams();
  const view = viewOf(params);
  const versions = useQuery(ExplorerVersionsDocument, {});
  const releases: Release[] = versions.data?.versions.edges.map((e) => e.node) ?? [];
  const latest = releases.find((r) => r.isLatest)?.version ?? releases[0]?.version;
  const selected = params.get('v') ?? latest;
  const binSize = useBin().length;
  const hosted = releases.find((r) => r.version === selected)?.languages ?? [];
  const langs = resolveLanguages(params, hosted, navigator.languages ?? [navigator.language]);
  // Views wait for the language (from the URL at once, else once the release list is known), so
  // every query they send names it; an unknown release still renders (its view shows the error).
  const ready = langs.language !== undefined || !versions.loading;
  // Set while rendering, before the views below run their queries.
  setShellLanguage(langs.language);

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
              const next = releases.find((r) => r.version === v)?.languages ?? [];
              navigate({
                v: v === latest ? undefined : v,
                after: undefined,
                before: undefined,
                lang: params.get('lang') && next.includes(params.get('lang')!) ? params.get('lang')! : undefined,
                lang2: params.get('lang2') && next.includes(params.get('lang2')!) ? params.get('lang2')! : undefined,
              });
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
        <LanguageSwitcher hosted={hosted} language={langs.language} />
      </header>
      {versions.error ? <ErrorBox error={versions.error} title="The releases could not be loaded" /> : null}
      <LanguageContext.Provider value={langs}>
      <main id="main" tabIndex={-1}>
        {!ready ? (
          <p class="loading" role="status">
            Loading releases…
          </p>
        ) : view === 'compare' ? (
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
      </LanguageContext.Provider>
      <footer class="foot">
        <p>
          Reads only the public API: <a href="/graphql">GraphQL</a> · <a href="/docs">REST reference</a>
        </p>
      </footer>
    </>
  );
}

/** The release's hosted languages, each by its own name (English, Deutsch, 日本語); kept in the URL as lang=. */
function LanguageSwitcher({ hosted, language }: { hosted: string[]; language?: string }) {
  if (hosted.length < 2) return null;
  return (
    <div class="release language">
      <label for="language-switcher">Language</label>
      <select
        id="language-switcher"
        value={language ?? ''}
        onChange={(e) => {
          const lang = (e.currentTarget as HTMLSelectElement).value;
          const p = new URLSearchParams(location.search);
          // The second language cannot be the first; search results' cursors are per language.
          navigate({ lang, lang2: p.get('lang2') === lang ? undefined : (p.get('lang2') ?? undefined), after: undefined, before: undefined });
        }}
      >
        <LanguageOptions tags={hosted} />
      </select>
    </div>
  );
}

const root = document.getElementById('app')!;
// The boot message is static HTML (shown until the bundle runs); the app replaces it.
root.textContent = '';
render(<App />, root);
