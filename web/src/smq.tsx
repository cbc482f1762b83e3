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

const LIST_PAGE = 25;
const TERM_PAGE = 25;

interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

function Pager({ info, label, noun }: { info: PageInfo; label: string; noun: string }) {
  if (!info.hasNextPage && !info.hasPreviousPage) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={!info.hasPreviousPage} onClick={() => navigate({ before: info.startCursor ?? undefined, after: undefined })}>
        Previous {noun}
      </button>
      <button type="button" disabled={!info.hasNextPage} onClick={() => navigate({ after: info.endCursor ?? undefined, before: undefined })}>
        Next {noun}
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
    const t = setTimeout(() => navigate({ sq: draft.trim() ? draft : undefined, after: undefined, before: undefined }, { replace: true }), 200);
    return () => clearTimeout(t);
  }, [draft]);
  const q = useQuery(ExplorerSmqsDocument, { q: sq.trim() || undefined, version, ...paging(params, LIST_PAGE) });
  const conn = q.data?.smqs;
  return (
    <section class="smqs" aria-labelledby="smqs-heading">
      <h1 id="smqs-heading">SMQs</h1>
      <p class="muted">Standardised queries of release {version ?? '(latest)'}: groups of PTs and LLTs with a narrow and a broad scope.</p>
      <form class="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <div class="field grow">
          <label for="smq-search">SMQ name contains</label>
          <input id="smq-search" type="search" value={draft} autocomplete="off" onInput={(e) => setDraft((e.currentTarget as HTMLInputElement).value)} />
        </div>
      </form>
      {q.error ? <ErrorBox error={q.error} title="The SMQs could not be loaded" /> : null}
      {!conn ? (
        q.loading ? <Loading label="Loading SMQs…" /> : null
      ) : (
        <>
          <p role="status" class="count">
            {conn.totalCount} {conn.totalCount === 1 ? 'SMQ' : 'SMQs'}
            {sq.trim() ? ` with “${sq.trim()}” in the name` : ''}
          </p>
          {conn.edges.length ? (
            <ul class="smq-list links">
              {conn.edges.map(({ node: s }) => (
                <li key={s.code}>
                  <Link to={smqLink(s.code)}>{s.name}</Link> <span class="muted">{s.code}</span> <span class="badge">level {s.level}</span>
                  {s.isAlgorithmic ? <span class="badge">algorithmic</span> : null}
                  {s.status === 'INACTIVE' ? <span class="badge noncurrent">inactive</span> : null}
                  {s.parent ? <span class="muted"> · sub-SMQ of {s.parent.name}</span> : null}
                </li>
              ))}
            </ul>
          ) : (
            <p class="empty">No SMQ matches.</p>
          )}
          <Pager info={conn.pageInfo} label="SMQ pages" noun="SMQs" />
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
    if (s) document.title = `${s.name} (SMQ ${s.code}) — Terminology Explorer`;
  }, [s]);
  if (q.error) return <ErrorBox error={q.error} title={`SMQ ${code} could not be shown in release ${version ?? '(latest)'}`} />;
  if (!s) return <Loading label={`Loading SMQ ${code}…`} />;
  const terms = s.terms;
  const scopeOptions: [string, string][] = [
    ['', `Narrow and broad (${terms.counts.narrow + terms.counts.broad})`],
    ['narrow', `Narrow (${terms.counts.narrow})`],
    ['broad', `Broad (${terms.counts.broad})`],
  ];
  return (
    <article class="smq-page" aria-labelledby="smq-title">
      <p class="small">
        <Link to={{ view: 'smqs', smq: undefined, scope: undefined, after: undefined, before: undefined }}>All SMQs</Link>
      </p>
      <header class="code-head">
        <h1 id="smq-title">{s.name}</h1>
        <p class="facts">
          <span>
            SMQ <code>{s.code}</code>
          </span>
          <span>Level {s.level}</span>
          <span>Status: {s.status === 'INACTIVE' ? 'inactive' : 'active'}</span>
          <span>Release {s.release.version}</span>
          <span>Definition last changed in {s.definitionVersion}</span>
        </p>
        {s.parent ? (
          <p>
            Sub-SMQ of <Link to={smqLink(s.parent.code)}>{s.parent.name}</Link>
          </p>
        ) : null}
      </header>
      <section aria-labelledby="smq-def-heading">
        <h2 id="smq-def-heading">Definition</h2>
        <p class="smq-description">{s.description || '—'}</p>
        {s.source ? <p class="muted">Source: {s.source}</p> : null}
        {s.note ? <p class="muted">Note: {s.note}</p> : null}
        {s.isAlgorithmic ? (
          <p>
            Algorithm: <code class="algorithm">{s.algorithm}</code> <span class="muted">(categories of the terms below)</span>
          </p>
        ) : null}
      </section>
      {s.children.length ? (
        <section aria-labelledby="smq-children-heading">
          <h2 id="smq-children-heading">Sub-SMQs ({s.children.length})</h2>
          <ul class="links">
            {s.children.map((c) => (
              <li key={c.code}>
                <Link to={smqLink(c.code)}>{c.name}</Link> <span class="muted">{c.code} · level {c.level}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="smq-terms-heading">
        <h2 id="smq-terms-heading">Terms</h2>
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          <div class="field">
            <label for="smq-scope">Scope</label>
            <select id="smq-scope" value={scopeParam ?? ''} onChange={(e) => navigate({ scope: (e.currentTarget as HTMLSelectElement).value || undefined, after: undefined, before: undefined })}>
              {scopeOptions.map(([v, t]) => (
                <option key={v} value={v}>
                  {t}
                </option>
              ))}
            </select>
          </div>
        </form>
        <p role="status" class="count">
          {terms.totalCount} {terms.totalCount === 1 ? 'term' : 'terms'} ({terms.counts.narrow} narrow, {terms.counts.broad} broad
          {s.children.length ? ', sub-SMQs’ included' : ''})
        </p>
        {terms.edges.length ? (
          <div class="table-scroll" tabIndex={0} role="region" aria-label="SMQ terms">
            <table class="smq-terms">
              <thead>
                <tr>
                  <th scope="col">Term</th>
                  <th scope="col">Level</th>
                  <th scope="col">Scope</th>
                  {s.isAlgorithmic ? <th scope="col">Category (weight)</th> : null}
                  <th scope="col">Status</th>
                  {s.children.length ? <th scope="col">Listed by</th> : null}
                </tr>
              </thead>
              <tbody>
                {terms.edges.map(({ node: t }) => (
                  <tr key={`${t.code}-${t.level}-${t.smq?.code ?? ''}`}>
                    <td>
                      <Link to={{ view: 'browse', code: t.code, lvl: t.level === 'LLT' ? 'LLT' : undefined, path: undefined, tab: undefined, q: undefined }}>{t.term ? <Name text={t.term} /> : t.code}</Link>{' '}
                      <span class="muted">{t.code}</span>
                    </td>
                    <td>
                      <LevelBadge level={t.level} />
                    </td>
                    <td>{t.scope ? t.scope.toLowerCase() : '—'}</td>
                    {s.isAlgorithmic ? (
                      <td>
                        {t.category}
                        {t.weight ? ` (${t.weight})` : ''}
                      </td>
                    ) : null}
                    <td>{t.status === 'INACTIVE' ? 'inactive' : 'active'}</td>
                    {s.children.length ? <td>{t.smq && t.smq.code !== s.code ? <Link to={smqLink(t.smq.code)}>{t.smq.name}</Link> : 'this SMQ'}</td> : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p class="empty">No terms in this scope.</p>
        )}
        <Pager info={terms.pageInfo} label="Term pages" noun="terms" />
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
      <h2 id="code-smqs-heading">In SMQs{smqs ? ` (${smqs.length})` : ''}</h2>
      {q.error ? <ErrorBox error={q.error} title="The SMQs of this code could not be loaded" /> : null}
      {!smqs ? (
        q.loading ? <Loading label="Loading SMQs…" /> : null
      ) : smqs.length ? (
        <ul class="links">
          {smqs.map((m, i) => (
            <li key={`${m.smq.code}-${m.termCode}-${i}`}>
              <Link to={smqLink(m.smq.code)}>{m.smq.name}</Link> <span class="muted">{m.smq.code}</span> <span class="badge">{m.scope ? m.scope.toLowerCase() : 'no scope'}</span>
              {m.status === 'INACTIVE' ? <span class="badge noncurrent">inactive</span> : null}
              {m.direct ? null : <span class="muted"> · through its PT {m.termCode}</span>}
              {m.smq.parent ? <span class="muted"> · sub-SMQ of {m.smq.parent.name}</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">No SMQ of this release lists this term.</p>
      )}
    </section>
  );
}
