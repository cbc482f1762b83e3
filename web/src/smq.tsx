// SMQs: the list of a release's standardised queries (search by name, paged) and one SMQ's page
// (definition, level, parent and sub-SMQs, the algorithm of an algorithmic one, its terms by
// scope, paged, each linking to its code page; applying it to coded rows). Also the code page's "In SMQs" section.
// Names are shown as the API gives them (the demo releases' SMQs say "(demo SMQ)").
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { ExplorerCodeSmqsDocument, ExplorerSmqDocument, ExplorerSmqsDocument, type Level, type SmqScope } from './operations/generated.ts';
import { navigate } from './router.ts';
import { ErrorBox, LevelBadge, Link, Loading, useQuery } from './ui.tsx';
import { SmqApply } from './smqApply.tsx';
import { Name } from './names.tsx';
import { t, tx } from './i18n.ts';

const LIST_PAGE = 25;
const TERM_PAGE = 25;

interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

function Pager({ info, label, previous, next }: { info: PageInfo; label: string; previous: string; next: string }) {
  if (!info.hasNextPage && !info.hasPreviousPage) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={!info.hasPreviousPage} onClick={() => navigate({ before: info.startCursor ?? undefined, after: undefined })}>
        {previous}
      </button>
      <button type="button" disabled={!info.hasNextPage} onClick={() => navigate({ after: info.endCursor ?? undefined, before: undefined })}>
        {next}
      </button>
    </nav>
  );
}

const paging = (params: URLSearchParams, size: number) => {
  const before = params.get('before') ?? undefined;
  return before ? { last: size, before } : { first: size, after: params.get('after') ?? undefined };
};

const smqLink = (code: string) => ({ view: 'smqs', smq: code, sq: undefined, scope: undefined, after: undefined, before: undefined });

export function Smqs({ params, version }: { params: URLSearchParams; version?: string }) {
  const code = params.get('smq');
  return code ? <SmqPage code={code} params={params} version={version} /> : <SmqList params={params} version={version} />;
}

function SmqList({ params, version }: { params: URLSearchParams; version?: string }) {
  const sq = params.get('sq') ?? '';
  const [draft, setDraft] = useState(sq);
  useEffect(() => setDraft(sq), [sq]);
  // The URL follows the field 200 ms after the last keystroke (replacing the history entry).
  useEffect(() => {
    if (draft === sq) return;
    const timer = setTimeout(() => navigate({ sq: draft.trim() ? draft : undefined, after: undefined, before: undefined }, { replace: true }), 200);
    return () => clearTimeout(timer);
  }, [draft]);
  const q = useQuery(ExplorerSmqsDocument, { q: sq.trim() || undefined, version, ...paging(params, LIST_PAGE) });
  const conn = q.data?.smqs;
  return (
    <section class="smqs" aria-labelledby="smqs-heading">
      <h1 id="smqs-heading">{t('title.smqs')}</h1>
      <p class="muted">{version ? t('smq.intro', { version }) : t('smq.introLatest')}</p>
      <form class="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <div class="field grow">
          <label for="smq-search">{t('smq.search')}</label>
          <input id="smq-search" type="search" value={draft} autocomplete="off" onInput={(e) => setDraft((e.currentTarget as HTMLInputElement).value)} />
        </div>
      </form>
      {q.error ? <ErrorBox error={q.error} title={t('smq.listFailed')} /> : null}
      {!conn ? (
        q.loading ? <Loading label={t('smq.loadingList')} /> : null
      ) : (
        <>
          <p role="status" class="count">
            {sq.trim() ? t('smq.countNamed', { count: conn.totalCount, q: sq.trim() }) : t('smq.count', { count: conn.totalCount })}
          </p>
          {conn.edges.length ? (
            <ul class="smq-list links">
              {conn.edges.map(({ node: s }) => (
                <li key={s.code}>
                  <Link to={smqLink(s.code)}>{s.name}</Link> <span class="muted">{s.code}</span> <span class="badge">{t('smq.levelN', { level: s.level })}</span>
                  {s.isAlgorithmic ? <span class="badge">{t('smq.algorithmic')}</span> : null}
                  {s.status === 'INACTIVE' ? <span class="badge noncurrent">{t('smq.inactive')}</span> : null}
                  {s.parent ? <span class="muted"> · {t('smq.subOf', { name: s.parent.name })}</span> : null}
                </li>
              ))}
            </ul>
          ) : (
            <p class="empty">{t('smq.none')}</p>
          )}
          <Pager info={conn.pageInfo} label={t('smq.pages')} previous={t('smq.previous')} next={t('smq.next')} />
        </>
      )}
    </section>
  );
}

function SmqPage({ code, params, version }: { code: string; params: URLSearchParams; version?: string }) {
  const scopeParam = params.get('scope');
  const scope: SmqScope | undefined = scopeParam === 'narrow' ? 'NARROW' : scopeParam === 'broad' ? 'BROAD' : undefined;
  const q = useQuery(ExplorerSmqDocument, { code, version, scope, ...paging(params, TERM_PAGE) });
  const s = q.data?.smq;
  useLayoutEffect(() => {
    if (s) document.title = t('title.smq', { name: s.name, code: s.code });
  }, [s]);
  if (q.error) return <ErrorBox error={q.error} title={version ? t('smq.failed', { code, version }) : t('smq.failedLatest', { code })} />;
  if (!s) return <Loading label={t('smq.loading', { code })} />;
  const terms = s.terms;
  const scopeOptions: [string, string][] = [
    ['', t('smq.scopeBoth', { count: terms.counts.narrow + terms.counts.broad })],
    ['narrow', t('smq.scopeNarrow', { count: terms.counts.narrow })],
    ['broad', t('smq.scopeBroad', { count: terms.counts.broad })],
  ];
  return (
    <article class="smq-page" aria-labelledby="smq-title">
      <p class="small">
        <Link to={{ view: 'smqs', smq: undefined, scope: undefined, after: undefined, before: undefined }}>{t('smq.all')}</Link>
      </p>
      <header class="code-head">
        <h1 id="smq-title">{s.name}</h1>
        <p class="facts">
          <span>
            {tx('smq.code', { code: <code>{s.code}</code> })}
          </span>
          <span>{t('smq.levelCap', { level: s.level })}</span>
          <span>{t('code.status', { status: s.status === 'INACTIVE' ? t('smq.inactive') : t('smq.active') })}</span>
          <span>{t('common.release', { version: s.release.version })}</span>
          <span>{t('smq.definitionChanged', { version: s.definitionVersion })}</span>
        </p>
        {s.parent ? (
          <p>
            {tx('smq.subOfCap', { name: <Link to={smqLink(s.parent.code)}>{s.parent.name}</Link> })}
          </p>
        ) : null}
      </header>
      <section aria-labelledby="smq-def-heading">
        <h2 id="smq-def-heading">{t('smq.definition')}</h2>
        <p class="smq-description">{s.description || '—'}</p>
        {s.source ? <p class="muted">{t('smq.source', { source: s.source })}</p> : null}
        {s.note ? <p class="muted">{t('smq.note', { note: s.note })}</p> : null}
        {s.isAlgorithmic ? (
          <p>
            {tx('smq.algorithm', { algorithm: <code class="algorithm">{s.algorithm}</code> })} <span class="muted">{t('smq.algorithmNote')}</span>
          </p>
        ) : null}
      </section>
      {s.children.length ? (
        <section aria-labelledby="smq-children-heading">
          <h2 id="smq-children-heading">{t('smq.children', { count: s.children.length })}</h2>
          <ul class="links">
            {s.children.map((c) => (
              <li key={c.code}>
                <Link to={smqLink(c.code)}>{c.name}</Link> <span class="muted">{c.code} · {t('smq.levelN', { level: c.level })}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="smq-terms-heading">
        <h2 id="smq-terms-heading">{t('smq.terms')}</h2>
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          <div class="field">
            <label for="smq-scope">{t('smq.scope')}</label>
            <select id="smq-scope" value={scopeParam ?? ''} onChange={(e) => navigate({ scope: (e.currentTarget as HTMLSelectElement).value || undefined, after: undefined, before: undefined })}>
              {scopeOptions.map(([v, text]) => (
                <option key={v} value={v}>
                  {text}
                </option>
              ))}
            </select>
          </div>
        </form>
        <p role="status" class="count">
          {t(s.children.length ? 'smq.termCountSub' : 'smq.termCount', { count: terms.totalCount, narrow: terms.counts.narrow, broad: terms.counts.broad })}
        </p>
        {terms.edges.length ? (
          <div class="table-scroll" tabIndex={0} role="region" aria-label={t('smq.termsRegion')}>
            <table class="smq-terms">
              <thead>
                <tr>
                  <th scope="col">{t('common.term')}</th>
                  <th scope="col">{t('common.level')}</th>
                  <th scope="col">{t('smq.scope')}</th>
                  {s.isAlgorithmic ? <th scope="col">{t('smq.category')}</th> : null}
                  <th scope="col">{t('smq.status')}</th>
                  {s.children.length ? <th scope="col">{t('smq.listedBy')}</th> : null}
                </tr>
              </thead>
              <tbody>
                {terms.edges.map(({ node: term }) => (
                  <tr key={`${term.code}-${term.level}-${term.smq?.code ?? ''}`}>
                    <td>
                      <Link to={{ view: 'browse', code: term.code, lvl: term.level === 'LLT' ? 'LLT' : undefined, path: undefined, tab: undefined, q: undefined }}>{term.term ? <Name text={term.term} /> : term.code}</Link>{' '}
                      <span class="muted">{term.code}</span>
                    </td>
                    <td>
                      <LevelBadge level={term.level} />
                    </td>
                    <td>{term.scope ? scopeName(term.scope) : '—'}</td>
                    {s.isAlgorithmic ? (
                      <td>
                        {term.category}
                        {term.weight ? ` (${term.weight})` : ''}
                      </td>
                    ) : null}
                    <td>{term.status === 'INACTIVE' ? t('smq.inactive') : t('smq.active')}</td>
                    {s.children.length ? <td>{term.smq && term.smq.code !== s.code ? <Link to={smqLink(term.smq.code)}>{term.smq.name}</Link> : t('smq.thisSmq')}</td> : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p class="empty">{t('smq.noTerms')}</p>
        )}
        <Pager info={terms.pageInfo} label={t('smq.termPages')} previous={t('smq.previousTerms')} next={t('smq.nextTerms')} />
      </section>
      <SmqApply code={s.code} name={s.name} version={version} isAlgorithmic={s.isAlgorithmic} />
    </article>
  );
}

/** The code page's "In SMQs": which SMQs list the PT or LLT (an LLT also through its PT), in which scope. */
export function CodeSmqs({ code, level, version }: { code: string; level: string; version?: string }) {
  const listed = level === 'PT' || level === 'LLT';
  const q = useQuery(ExplorerCodeSmqsDocument, { code, level: level as Level, version }, { skip: !listed });
  if (!listed) return null;
  const smqs = q.data?.code.smqs;
  return (
    <section aria-labelledby="code-smqs-heading" class="code-smqs">
      <h2 id="code-smqs-heading">{smqs ? t('smq.inSmqsN', { count: smqs.length }) : t('smq.inSmqs')}</h2>
      {q.error ? <ErrorBox error={q.error} title={t('smq.codeFailed')} /> : null}
      {!smqs ? (
        q.loading ? <Loading label={t('smq.loadingList')} /> : null
      ) : smqs.length ? (
        <ul class="links">
          {smqs.map((m, i) => (
            <li key={`${m.smq.code}-${m.termCode}-${i}`}>
              <Link to={smqLink(m.smq.code)}>{m.smq.name}</Link> <span class="muted">{m.smq.code}</span> <span class="badge">{m.scope ? scopeName(m.scope) : t('smq.noScope')}</span>
              {m.status === 'INACTIVE' ? <span class="badge noncurrent">{t('smq.inactive')}</span> : null}
              {m.direct ? null : <span class="muted"> · {t('smq.throughPt', { code: m.termCode })}</span>}
              {m.smq.parent ? <span class="muted"> · {t('smq.subOf', { name: m.smq.parent.name })}</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">{t('smq.notListed')}</p>
      )}
    </section>
  );
}

/** An SMQ scope (NARROW, BROAD) as a word of the interface's language. */
export function scopeName(scope: string): string {
  return scope === 'NARROW' ? t('smq.narrow') : scope === 'BROAD' ? t('smq.broad') : scope.toLowerCase();
}
