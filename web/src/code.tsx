// A code's page: term, code, level, status, primary SOC, every path (the primary one marked),
// synonyms, parents and children, the SMQs listing it; and its history across every hosted release as a timeline.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ExplorerCodeDocument, type Level } from './operations/generated.ts';
import { focusRequest } from './router.ts';
import { CodeSmqs } from './smq.tsx';
import { BinButton } from './binButton.tsx';
import { CopyButton, ErrorBox, Link, LevelBadge, Loading, StatusBadge, useQuery } from './ui.tsx';
import { useLanguages, ownName } from './language.ts';
import { Name, SecondLanguageChooser, SecondName } from './names.tsx';
import { formatDate, t, tx } from './i18n.ts';
import { changeTypeName } from './changeWords.ts';

type Node = { code: string; term: string; language?: string; second?: string | null; level: string; status?: string };

function CodeLink({ n }: { n: Node }) {
  return (
    <Link to={{ view: 'browse', code: n.code, lvl: n.level === 'LLT' ? 'LLT' : undefined, path: undefined, tab: undefined }}>
      <Name text={n.term} lang={n.language} />
    </Link>
  );
}

/** A code's link with its name in the second language beside it. */
function CodeLinks({ n }: { n: Node }) {
  return (
    <>
      <CodeLink n={n} />
      <SecondName text={n.second} />
    </>
  );
}

export function CodePage({ code, level, tab, version }: { code: string; level?: string; tab: string; version?: string }) {
  const { language, second } = useLanguages();
  const q = useQuery(ExplorerCodeDocument, { code, level: (level as Level | undefined) ?? undefined, version, language, second, withSecond: !!second });
  const [hideNonCurrent, setHideNonCurrent] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const c = q.data?.code;
  useLayoutEffect(() => {
    if (!c) return;
    document.title = t('title.code', { term: c.term, code: c.code });
    // The first meaningful paint of a code page, for the performance test and for anyone profiling.
    performance.mark('explorer:code-page');
    if (focusRequest.heading) {
      focusRequest.heading = false;
      heading.current?.focus();
    }
  }, [c]);

  if (q.error) return <ErrorBox error={q.error} title={version ? t('code.failed', { code, version }) : t('code.failedLatest', { code })} />;
  if (!c) return <Loading label={t('code.loading', { code })} />;
  const synonyms = c.synonyms.edges.map((e) => e.node);
  const shownSynonyms = hideNonCurrent ? synonyms.filter((s) => s.status !== 'NON_CURRENT') : synonyms;
  const nonCurrent = synonyms.filter((s) => s.status === 'NON_CURRENT').length;
  // The API lists a PT's primary SOC among its parents (SOC_TO_PT, as the contract has it); the
  // header shows it as the primary SOC, so the parents here are the hierarchy's: a PT's HLTs.
  const parents = c.parents.filter((p) => p.relationshipType !== 'SOC_TO_PT');

  return (
    <article class="code-page" aria-labelledby="code-title">
      <header class="code-head">
        <div class="code-names">
          <h1 id="code-title" ref={heading} tabIndex={-1} lang={c.language}>
            {c.term}
          </h1>
          {second && c.second != null ? (
            <p class="name2-head">
              <span class="lang-label" lang={second}>
                {ownName(second)}
              </span>{' '}
              <span class="name2-text" lang={second}>
                {c.second}
              </span>
            </p>
          ) : null}
        </div>
        <p class="facts">
          <LevelBadge level={c.level} />
          <span>
            {tx('code.code', { code: <code>{c.code}</code> })} <CopyButton text={c.code} label={t('code.copyCode')} />
          </span>
          <span>
            <CopyButton text={c.term} label={t('code.copyTerm')} />
          </span>
          <span class="status">{t('code.status', { status: c.status === 'NON_CURRENT' ? t('status.nonCurrent') : t('status.current') })}</span>
          <span>{t('common.release', { version: c.release.version })}</span>
          <BinButton item={{ code: c.code, term: c.term, level: c.level, release: c.release.version, ptCode: c.level === 'LLT' ? c.pt?.code : undefined, primarySocCode: c.primarySoc?.code }} />
        </p>
        {c.names.length > 1 ? (
          <details class="all-names">
            <summary>{t('code.namesIn', { count: c.names.length })}</summary>
            <dl>
              {c.names.map((n) => (
                <div key={n.language}>
                  <dt lang={n.language}>{ownName(n.language)}</dt>
                  <dd lang={n.language}>{n.name}</dd>
                </div>
              ))}
            </dl>
          </details>
        ) : null}
        <SecondLanguageChooser id="code-lang2" />
        {c.primarySoc ? (
          <p>
            {tx('code.primarySoc', { soc: <CodeLinks n={c.primarySoc} /> })}
            {c.socAbbreviation ? ` (${c.socAbbreviation})` : ''}
          </p>
        ) : null}
        {c.pt ? (
          <p>
            {tx('code.pt', { pt: <CodeLinks n={c.pt} /> })}
          </p>
        ) : null}
        {c.change ? (
          <p class="change-note">
            {t('code.changed', { type: changeTypeName(c.change.changeType) })} {c.change.details}
          </p>
        ) : null}
      </header>
      <nav class="tabs" aria-label={t('code.sections')}>
        <Link to={{ tab: undefined }} aria-current={tab !== 'history' ? 'page' : undefined}>
          {t('code.overview')}
        </Link>
        <Link to={{ tab: 'history' }} aria-current={tab === 'history' ? 'page' : undefined}>
          {t('code.historyTab', { count: c.history.length })}
        </Link>
      </nav>
      {tab === 'history' ? (
        <section aria-labelledby="history-heading">
          <h2 id="history-heading">{t('code.historyHeading')}</h2>
          <ol class="timeline">
            {c.history.map((h) => (
              <li key={h.version.version} class={h.snapshot.exists ? '' : 'absent'}>
                <h3>
                  {t('common.release', { version: h.version.version })}
                  {h.version.releaseDate ? <span class="date"> · {formatDate(h.version.releaseDate)}</span> : null}
                </h3>
                {h.snapshot.exists ? (
                  <p>
                    {h.snapshot.level ? <LevelBadge level={h.snapshot.level} /> : null} {h.snapshot.term != null ? <Name text={h.snapshot.term} /> : null} <StatusBadge status={h.snapshot.status} />
                  </p>
                ) : (
                  <p>{t('code.notInRelease')}</p>
                )}
                {h.changes.length ? (
                  <ul class="changes">
                    {h.changes.map((ch, i) => (
                      <li key={i}>
                        <span class={`badge ct-${ch.changeType.toLowerCase()}`}>{changeTypeName(ch.changeType)}</span> {ch.details}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p class="muted">{h === c.history[0] ? t('code.oldest') : t('code.unchanged')}</p>
                )}
              </li>
            ))}
          </ol>
        </section>
      ) : (
        <>
          <section aria-labelledby="paths-heading">
            <h2 id="paths-heading">{t('code.paths', { count: c.paths.length })}</h2>
            <ul class="paths">
              {c.paths.map((p, i) => (
                <li key={i}>
                  {p.isPrimary ? <span class="badge primary">{t('common.primary')}</span> : <span class="badge secondary">{t('common.secondary')}</span>}
                  <ol class="trail">
                    {p.nodes.map((n) => (
                      <li key={n.code + n.level}>
                        <LevelBadge level={n.level} /> <CodeLinks n={n} />
                      </li>
                    ))}
                  </ol>
                  <Link to={{ path: p.nodes.map((n) => n.code).join('.') }} class="small">
                    {t('code.showInTree')}<span class="sr-only"> ({p.isPrimary ? t('code.primaryPathN', { n: i + 1 }) : t('code.secondaryPathN', { n: i + 1 })})</span>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
          {parents.length ? (
            <section aria-labelledby="parents-heading">
              <h2 id="parents-heading">{t('code.parents', { count: parents.length })}</h2>
              <ul class="links">
                {parents.map((p) => (
                  <li key={p.code.code + p.relationshipType}>
                    <LevelBadge level={p.code.level} /> <CodeLinks n={p.code} /> <span class="muted">{p.code.code}</span>
                    {p.isPrimary ? <span class="badge primary">{t('common.primary')}</span> : null}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {c.level !== 'PT' && c.children.length ? (
            <section aria-labelledby="children-heading">
              <h2 id="children-heading">{t('code.children', { count: c.children.length })}</h2>
              <ul class="links">
                {c.children.map((p) => (
                  <li key={p.code.code + p.code.level}>
                    <LevelBadge level={p.code.level} /> <CodeLinks n={p.code} /> <span class="muted">{p.code.code}</span>
                    {p.isPrimary ? null : <span class="badge secondary">{t('common.secondary')}</span>}
                    <StatusBadge status={p.code.status} />
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {synonyms.length ? (
            <section aria-labelledby="synonyms-heading">
              <h2 id="synonyms-heading">{t('code.synonyms', { count: c.synonyms.totalCount })}</h2>
              {nonCurrent ? (
                <label class="check">
                  <input type="checkbox" checked={hideNonCurrent} onChange={(e) => setHideNonCurrent((e.currentTarget as HTMLInputElement).checked)} /> {t('code.hideNonCurrent', { count: nonCurrent })}
                </label>
              ) : null}
              <ul class="links">
                {shownSynonyms.map((s) => (
                  <li key={s.code}>
                    <Link to={{ view: 'browse', code: s.code, lvl: 'LLT', path: undefined, tab: undefined }}>
                      <Name text={s.term} lang={s.language} />
                    </Link>
                    <SecondName text={s.second} /> <span class="muted">{s.code}</span>
                    {s.isPrimary ? <span class="badge primary">{t('code.ownLlt')}</span> : null}
                    <StatusBadge status={s.status} />
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <CodeSmqs code={c.code} level={c.level} version={version} />
        </>
      )}
    </article>
  );
}
