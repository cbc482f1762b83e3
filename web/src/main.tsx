// The explorer's shell: header (views, release switcher) and the view the URL names.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
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
import { formatNumber, loadCatalogue, setUiLanguage, t, tx, UI_LANGUAGE_NAMES, UI_LANGUAGES, uiLanguage } from './i18n.ts';
import { rememberUi, resolveUi } from './uiChoice.ts';
import type { MessageKey } from './messages/catalogue.ts';


function App() {
  const params = useParams();
  const view = viewOf(params);
  const versions = useQuery(ExplorerVersionsDocument, {});
  const releases: Release[] = versions.data?.versions.edges.map((e) => e.node) ?? [];
  const latest = releases.find((r) => r.isLatest)?.version ?? releases[0]?.version;
  const selected = params.get('v') ?? latest;
  const binSize = useBin().length;
  const hosted = releases.find((r) => r.version === selected)?.languages ?? [];
  const preferred = navigator.languages ?? [navigator.language];
  // The interface language first, so the views below render in it. It is independent of the
  // names' language (lang=); both default from the browser's languages by the same matching.
  const { ui: wanted, chosen } = resolveUi(params.get('ui'), preferred);
  // A catalogue not loaded yet (Back to another ui=, say): the current words stay until it is.
  const [, setLoaded] = useState(0);
  if (!setUiLanguage(wanted)) void loadCatalogue(wanted).then(() => setLoaded((n) => n + 1), () => {});
  const ui = uiLanguage();
  const langs = resolveLanguages(params, hosted, preferred);
  // Views wait for the language (from the URL at once, else once the release list is known), so
  // every query they send names it; an unknown release still renders (its view shows the error).
  const ready = langs.language !== undefined || !versions.loading;
  // Set while rendering, before the views below run their queries.
  setShellLanguage(langs.language);

  useEffect(() => {
    document.documentElement.lang = ui;
  }, [ui]);
  // A remembered choice is put in the URL (replacing the entry), so a link copied from here shares it.
  useEffect(() => {
    if (chosen && !params.get('ui')) navigate({ ui: wanted }, { replace: true });
  });
  // A code's or an SMQ's page titles itself (its name); the other views by their name, in the interface language.
  const ownTitle = (view === 'browse' && params.has('code')) || (view === 'smqs' && params.has('smq'));
  useEffect(() => {
    if (ownTitle) return;
    const names: Record<typeof view, MessageKey> = { browse: 'title.browse', compare: 'title.compare', workbench: 'title.workbench', smqs: 'title.smqs', impact: 'title.impact', bin: 'title.bin' };
    document.title = t('title.page', { page: t(names[view]) });
  }, [view, ui, ownTitle]);

  return (
    <>
      <a class="skip" href="#main">
        {t('shell.skip')}
      </a>
      <header class="top">
        <p class="brand">
          <Link to={{ view: 'browse', q: undefined, code: undefined, path: undefined, tab: undefined }}>{t('shell.brand')}</Link>
        </p>
        <nav aria-label={t('shell.views')}>
          <ul>
            <li>
              <Link to={{ view: 'browse' }} aria-current={view === 'browse' ? 'page' : undefined}>
                {t('nav.browse')}
              </Link>
            </li>
            <li>
              <Link to={{ view: 'compare' }} aria-current={view === 'compare' ? 'page' : undefined}>
                {t('nav.compare')}
              </Link>
            </li>
            <li>
              <Link to={{ view: 'workbench' }} aria-current={view === 'workbench' ? 'page' : undefined}>
                {t('nav.workbench')}
              </Link>
            </li>
            <li>
              <Link to={{ view: 'smqs', smq: undefined, scope: undefined, after: undefined, before: undefined }} aria-current={view === 'smqs' ? 'page' : undefined}>
                {t('nav.smqs')}
              </Link>
            </li>
            <li>
              <Link to={{ view: 'impact' }} aria-current={view === 'impact' ? 'page' : undefined}>
                {t('nav.impact')}
              </Link>
            </li>
            <li>
              <Link to={{ view: 'bin' }} aria-current={view === 'bin' ? 'page' : undefined}>
                {tx('nav.bin', { count: <span class="bin-count">({formatNumber(binSize)})</span> })}
              </Link>
            </li>
          </ul>
        </nav>
        <div class="release">
          <label for="release-switcher">{t('shell.release')}</label>
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
                {r.isLatest ? ` ${t('shell.latest')}` : ''}
              </option>
            ))}
          </select>
        </div>
        <LanguageSwitcher hosted={hosted} language={langs.language} />
        <UiSwitcher ui={ui} />
      </header>
      {versions.error ? <ErrorBox error={versions.error} title={t('shell.releasesFailed')} /> : null}
      <LanguageContext.Provider value={langs}>
      <main id="main" tabIndex={-1}>
        {!ready ? (
          <p class="loading" role="status">
            {t('shell.loadingReleases')}
          </p>
        ) : view === 'compare' ? (
          releases.length ? (
            <Compare params={params} releases={releases} />
          ) : versions.loading ? (
            <p class="loading" role="status">
              {t('shell.loadingReleases')}
            </p>
          ) : null
        ) : view === 'impact' ? (
          releases.length ? (
            <ImpactPage params={params} releases={releases} />
          ) : versions.loading ? (
            <p class="loading" role="status">
              {t('shell.loadingReleases')}
            </p>
          ) : null
        ) : view === 'bin' ? (
          releases.length ? (
            <BinPage params={params} releases={releases} />
          ) : versions.loading ? (
            <p class="loading" role="status">
              {t('shell.loadingReleases')}
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
        <p>{tx('shell.footer', { graphql: <a href="/graphql">GraphQL</a>, rest: <a href="/docs">{t('shell.restReference')}</a> })}</p>
      </footer>
    </>
  );
}

/** The release's hosted languages, each by its own name (English, Deutsch, 日本語); kept in the URL as lang=. */
function LanguageSwitcher({ hosted, language }: { hosted: string[]; language?: string }) {
  if (hosted.length < 2) return null;
  return (
    <div class="release language">
      <label for="language-switcher">{t('shell.namesLanguage')}</label>
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

/** The interface's language (every catalogue, each by its own name); kept in the URL as ui= and in localStorage. */
function UiSwitcher({ ui }: { ui: string }) {
  return (
    <div class="release language">
      <label for="ui-switcher">{t('shell.uiLanguage')}</label>
      <select
        id="ui-switcher"
        value={ui}
        onChange={(e) => {
          const next = (e.currentTarget as HTMLSelectElement).value;
          rememberUi(next);
          // The words change once their catalogue is here (a chunk of a few KB), in one render.
          void loadCatalogue(next).then(() => navigate({ ui: next }), () => navigate({ ui: next }));
        }}
      >
        {UI_LANGUAGES.map((tag) => (
          <option key={tag} value={tag} lang={tag}>
            {UI_LANGUAGE_NAMES[tag]}
          </option>
        ))}
      </select>
    </div>
  );
}

const root = document.getElementById('app')!;
// The boot message is static HTML (shown until the bundle runs); the app replaces it once the
// interface language's catalogue is loaded (at once for English; a failed fetch falls back to it).
const first = resolveUi(new URLSearchParams(location.search).get('ui'), navigator.languages ?? [navigator.language]).ui;
void loadCatalogue(first)
  .catch(() => {})
  .then(() => {
    root.textContent = '';
    render(<App />, root);
  });
