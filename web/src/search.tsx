// Search as you type: a combobox whose listbox holds the ranked results (WAI-ARIA combobox
// pattern: focus stays in the field, arrows move the active option, Enter opens it).
import { useEffect, useRef, useState } from 'preact/hooks';
import { ExplorerSearchDocument, ExplorerSocsDocument, type Level } from './operations/generated.ts';
import { current, focusRequest, navigate } from './router.ts';
import { ErrorBox, Highlighted, LevelBadge, Loading, StatusBadge, findAll, useQuery } from './ui.tsx';
import { localName, ownName, useLanguages } from './language.ts';
import { SecondLanguageChooser, SecondName } from './names.tsx';
import { t, tx } from './i18n.ts';
import type { MessageKey } from './messages/catalogue.ts';

const PAGE = 20;
const LEVELS: Level[] = ['SOC', 'HLGT', 'HLT', 'PT', 'LLT'];
const MATCH_NAMES: Record<string, MessageKey> = { EXACT: 'search.match.EXACT', PREFIX: 'search.match.PREFIX', WORD_PREFIX: 'search.match.WORD_PREFIX', FUZZY: 'search.match.FUZZY' };

export function Search({ params, version, compact }: { params: URLSearchParams; version?: string; compact: boolean }) {
  const q = params.get('q') ?? '';
  const level = (params.get('level') as Level | null) ?? undefined;
  const soc = params.get('soc') ?? undefined;
  const after = params.get('after') ?? undefined;
  const before = params.get('before') ?? undefined;
  const { language, second, hosted } = useLanguages();
  // Search in the explorer's language (default) or in every hosted language at once (ql=*).
  const all = params.get('ql') === '*' && hosted.length > 1;
  const searchLanguage = all ? '*' : language;
  const [text, setText] = useState(q);
  const [active, setActive] = useState(-1);
  const timer = useRef<number>();
  // The field follows the URL (back button, links); typing leads the URL by the debounce.
  useEffect(() => {
    if (timer.current === undefined) setText(q);
  }, [q]);

  const socs = useQuery(ExplorerSocsDocument, { version, language });
  const named = { language: searchLanguage, second, withSecond: !!second };
  const vars = before ? { q, level, soc, version, ...named, last: PAGE, before } : { q, level, soc, version, ...named, first: PAGE, after };
  const results = useQuery(ExplorerSearchDocument, vars, { skip: !q.trim() });
  const hits = results.data?.codes.edges.map((e) => e.node) ?? [];
  // Names are searched, not codes: a number gets an option of its own that opens that code.
  const codeLike = /^\d{6,10}$/.test(q.trim());
  const offset = codeLike ? 1 : 0;
  const total = hits.length + offset;
  // A new query clears the active option; its results arriving do not: a code's own option is
  // there before them, and ↓ Enter pressed meanwhile must still open it.
  const varsKey = JSON.stringify(vars);
  useEffect(() => setActive(-1), [varsKey]);
  const expanded = !compact && !!q.trim();

  const commit = (value: string) => {
    window.clearTimeout(timer.current);
    timer.current = undefined;
    const p = current();
    // The first keystroke from a code page or an empty search is a new history entry; the rest replace it.
    const replace = !!p.get('q') && !p.get('code');
    navigate({ view: 'browse', q: value.trim() ? value : undefined, after: undefined, before: undefined, code: undefined, lvl: undefined, path: undefined, tab: undefined }, { replace });
  };
  const open = (i: number) => {
    if (codeLike && i === 0) {
      focusRequest.heading = true;
      navigate({ code: q.trim(), lvl: undefined, path: undefined, tab: undefined });
      return;
    }
    const hit = hits[i - offset];
    if (!hit) return;
    // The listbox disappears: focus goes to the code's heading, where reading continues.
    focusRequest.heading = true;
    navigate({ code: hit.code.code, lvl: hit.code.level === 'LLT' ? 'LLT' : undefined, path: undefined, tab: undefined });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (!expanded || !total) {
      if (e.key === 'Enter') {
        e.preventDefault();
        commit(text);
      }
      return;
    }
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((a) => Math.min(total - 1, a + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(-1, a - 1));
    } else if (e.key === 'Home' && active >= 0) {
      e.preventDefault();
      setActive(0);
    } else if (e.key === 'End' && active >= 0) {
      e.preventDefault();
      setActive(total - 1);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (active >= 0) open(active);
      // A lone result of what the field says (its answer, not a previous query's) opens on Enter.
      else if (total === 1 && text === q && results.data) open(0);
      else commit(text);
    } else if (e.key === 'Escape') {
      setActive(-1);
    }
  };
  useEffect(() => {
    if (active >= 0) document.getElementById(`hit-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  return (
    <section class="search" aria-labelledby="search-heading">
      <h2 id="search-heading" class={compact ? 'sr-only' : undefined}>
        {version ? t('search.headingRelease', { version }) : t('search.headingLatest')}
      </h2>
      <form role="search" onSubmit={(e) => e.preventDefault()} class="search-form">
        <div class="field grow">
          <label for="search-input">{t('search.label')}</label>
          <input
            id="search-input"
            type="search"
            role="combobox"
            autocomplete="off"
            spellcheck={false}
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls="search-results"
            aria-activedescendant={expanded && active >= 0 ? `hit-${active}` : undefined}
            aria-describedby="search-help"
            placeholder={t('search.placeholder')}
            value={text}
            onInput={(e) => {
              const v = (e.currentTarget as HTMLInputElement).value;
              setText(v);
              window.clearTimeout(timer.current);
              timer.current = window.setTimeout(() => commit(v), 200);
            }}
            onKeyDown={onKeyDown}
          />
          <p id="search-help" class="help">
            {t('search.help')}
          </p>
        </div>
        {hosted.length > 1 ? (
          <div class="field">
            <label for="search-language">{t('search.in')}</label>
            <select id="search-language" value={all ? '*' : ''} onChange={(e) => navigate({ ql: (e.currentTarget as HTMLSelectElement).value || undefined, after: undefined, before: undefined })}>
              <option value="">{language ? `${localName(language)} (${ownName(language)})` : t('search.thisLanguage')}</option>
              <option value="*">{t('search.allLanguages')}</option>
            </select>
          </div>
        ) : null}
        <SecondLanguageChooser id="search-lang2" />
        <div class="field">
          <label for="search-level">{t('common.level')}</label>
          <select id="search-level" value={level ?? ''} onChange={(e) => navigate({ level: (e.currentTarget as HTMLSelectElement).value || undefined, after: undefined, before: undefined })}>
            <option value="">{t('common.allLevels')}</option>
            {LEVELS.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="search-soc">{t('level.SOC')}</label>
          <select id="search-soc" value={soc ?? ''} onChange={(e) => navigate({ soc: (e.currentTarget as HTMLSelectElement).value || undefined, after: undefined, before: undefined })}>
            <option value="">{t('search.allSocs')}</option>
            {[...(socs.data?.codes.edges ?? [])]
              .map((e) => e.node.code)
              .sort((a, b) => (a.internationalOrder ?? 0) - (b.internationalOrder ?? 0))
              .map((s) => (
                <option key={s.code} value={s.code} lang={s.language}>
                  {s.term}
                </option>
              ))}
          </select>
        </div>
      </form>
      <div class="results" hidden={!expanded}>
        <p class="count" role="status">
          {results.loading ? t('search.searching') : results.data ? t('search.count', { count: results.data.codes.totalCount }) : ''}
        </p>
        {results.error ? <ErrorBox error={results.error} title={t('search.failed')} /> : null}
        {results.data && !hits.length && !codeLike ? <p class="empty">{version ? t('search.noneRelease', { q, version }) : t('search.noneLatest', { q })}</p> : null}
        <ul id="search-results" role="listbox" aria-label={t('search.resultsFor', { q })} class="hits">
          {expanded && codeLike ? (
            <li id="hit-0" role="option" aria-selected={active === 0} class={active === 0 ? 'hit active' : 'hit'} onClick={() => open(0)} onMouseMove={() => active !== 0 && setActive(0)}>
              <span class="hit-head">
                <span class="term">{t('search.openCode', { code: q.trim() })}</span>
              </span>
              <span class="how">{t('search.codeLookup')}</span>
            </li>
          ) : null}
          {expanded &&
            hits.map((hit, j) => {
              const i = j + offset;
              const m = hit.match;
              const name = m?.isSynonym ? m.term : hit.code.term;
              const ranges = m && m.type !== 'FUZZY' ? findAll(name, [q.trim()]) : [];
              return (
                <li
                  key={hit.code.code + hit.code.level}
                  id={`hit-${i}`}
                  role="option"
                  aria-selected={i === active}
                  class={i === active ? 'hit active' : 'hit'}
                  onClick={() => open(i)}
                  onMouseMove={() => active !== i && setActive(i)}
                >
                  <span class="hit-head">
                    <LevelBadge level={hit.code.level} />
                    <span class="term" lang={hit.code.language}>
                      {m?.isSynonym || (m?.language && m.language !== hit.code.language) ? hit.code.term : <Highlighted text={hit.code.term} ranges={ranges} />}
                    </span>
                    <SecondName text={hit.code.second} />
                    <span class="code">{hit.code.code}</span>
                    <StatusBadge status={hit.code.status} />
                  </span>
                  {m ? (
                    <span class="how">
                      {m.isSynonym ? (
                        <>
                          {tx('search.synonym', { name: <Highlighted text={m.term} ranges={ranges} lang={m.language ?? hit.code.language} /> })} ·{' '}
                        </>
                      ) : m.language && m.language !== hit.code.language ? (
                        <>
                          {tx('search.name', { name: <Highlighted text={m.term} ranges={ranges} lang={m.language} /> })} ·{' '}
                        </>
                      ) : null}
                      {m.language && all ? <span class="matched-language">{t('search.matchedIn', { language: localName(m.language) })} · </span> : null}
                      {MATCH_NAMES[m.type] ? t(MATCH_NAMES[m.type]!) : t('search.match.other', { type: m.type })}
                    </span>
                  ) : null}
                  {hit.code.primaryPath ? <span class="path" lang={hit.code.primaryPath.nodes[0]?.language ?? hit.code.language}>{hit.code.primaryPath.nodes.map((n) => n.term).join(' › ')}</span> : null}
                </li>
              );
            })}
        </ul>
        {results.loading && !results.data ? <Loading label={t('search.searching')} /> : null}
        {results.data && (results.data.codes.pageInfo.hasPreviousPage || results.data.codes.pageInfo.hasNextPage) ? (
          <nav class="pager" aria-label={t('search.pages')}>
            <button type="button" disabled={!results.data.codes.pageInfo.hasPreviousPage} onClick={() => navigate({ before: results.data!.codes.pageInfo.startCursor ?? undefined, after: undefined })}>
              {t('search.previous')}
            </button>
            <button type="button" disabled={!results.data.codes.pageInfo.hasNextPage} onClick={() => navigate({ after: results.data!.codes.pageInfo.endCursor ?? undefined, before: undefined })}>
              {t('search.next')}
            </button>
          </nav>
        ) : null}
      </div>
    </section>
  );
}
