// Small shared pieces: the query hook, links, level badges, errors, copy buttons, highlights.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, gql, type QueryOptions } from './api.ts';
import type { TypedDocumentString } from './operations/generated.ts';
import { hrefWith, onLinkClick, type Params } from './router.ts';
import { useLanguages } from './language.ts';
import { t, tx } from './i18n.ts';
import type { MessageKey } from './messages/catalogue.ts';

export interface QueryState<R> {
  data?: R;
  error?: ApiError;
  loading: boolean;
}

/** Runs `doc` whenever its variables change; `skip` keeps it idle. */
export function useQuery<R, V>(doc: TypedDocumentString<R, V>, variables: V, queryOpts: QueryOptions & { skip?: boolean } = {}): QueryState<R> {
  // Every query carries the explorer's language (Accept-Language), and a new language re-runs it.
  const { language } = useLanguages();
  const opts = { language, ...queryOpts };
  const key = `${JSON.stringify(variables)}\n${opts.language ?? ''}`;
  const [state, setState] = useState<QueryState<R> & { key?: string }>({ loading: !opts.skip });
  useEffect(() => {
    if (opts.skip) {
      setState({ loading: false });
      return;
    }
    let live = true;
    setState((s) => ({ data: s.data, loading: true, key }));
    gql(doc, variables, opts).then(
      (data) => live && setState({ data, loading: false, key }),
      (error: unknown) => live && setState({ error: toApiError(error), loading: false, key }),
    );
    return () => {
      live = false;
    };
  }, [doc, key, opts.skip]);
  // Data of other variables is kept while loading (no flicker) but never shown as an answer.
  return state.key === key ? state : { loading: !opts.skip, data: undefined };
}

export function toApiError(e: unknown): ApiError {
  return e instanceof ApiError ? e : new ApiError(e instanceof Error ? e.message : String(e), 'CLIENT_ERROR', undefined, 0);
}

export function Link(props: { to: Params; children: ComponentChildren; class?: string; 'aria-current'?: 'page' | 'true' | undefined; title?: string }) {
  return (
    <a href={hrefWith(props.to)} onClick={onLinkClick} class={props.class} aria-current={props['aria-current']} title={props.title}>
      {props.children}
    </a>
  );
}

const LEVEL_NAMES: Record<string, MessageKey> = {
  SOC: 'level.SOC',
  HLGT: 'level.HLGT',
  HLT: 'level.HLT',
  PT: 'level.PT',
  LLT: 'level.LLT',
};

/** A level's full name in the interface's language ("Preferred term"); the abbreviation stays MedDRA's. */
export function levelName(level: string): string {
  const key = LEVEL_NAMES[level];
  return key ? t(key) : level;
}

/** The level as text (readable without colour); the colour only repeats it. */
export function LevelBadge({ level }: { level: string }) {
  return (
    <abbr class={`badge level-${level.toLowerCase()}`} title={levelName(level)}>
      {level}
    </abbr>
  );
}

export function StatusBadge({ status }: { status: string | null | undefined }) {
  return status === 'NON_CURRENT' || status === 'non-current' ? <span class="badge noncurrent">{t('status.nonCurrent')}</span> : null;
}

export function Loading({ label = t('common.loading') }: { label?: string }) {
  return (
    <p class="loading" role="status">
      {label}
    </p>
  );
}

/**
 * The live region under a form that runs a job (an upload, a check, coding): "working…" while it
 * runs, then its error; screen readers hear both. `children` follow inside the region.
 */
export function JobStatus({ busy, busyText, error, errorTitle, children }: { busy: boolean; busyText: string; error: ApiError | null | undefined; errorTitle: string; children?: ComponentChildren }) {
  return (
    <div aria-live="polite">
      {busy ? (
        <p class="loading" role="status">
          {busyText}
        </p>
      ) : null}
      {error ? <ErrorBox error={error} title={errorTitle} /> : null}
      {children}
    </div>
  );
}

export function ErrorBox({ error, title = t('error.requestFailed') }: { error: ApiError; title?: string }) {
  return (
    <div class="error" role="alert">
      <p>
        {tx('error.title', { title: <strong>{title}</strong> })} {errorMessage(error)}
      </p>
      <p class="meta">
        {tx('error.code', { code: <code>{error.code}</code> })}
        {error.requestId ? (
          <>
            {' '}
            · {tx('error.requestId', { id: <code class="request-id">{error.requestId}</code> })}
          </>
        ) : null}
      </p>
    </div>
  );
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      class={done ? 'copy done' : 'copy'}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setDone(true);
          setTimeout(() => setDone(false), 2000);
        } catch {
          // Clipboard refused (permissions): the text stays selectable.
        }
      }}
    >
      {label}
      <span class="sr-only" role="status">
        {done ? ` — ${t('common.copied')}` : ''}
      </span>
    </button>
  );
}

export interface Range {
  start: number;
  end: number;
  label?: string;
}

/** `text` with the ranges marked (overlaps merged), for evidence and search matches. */
export function Highlighted({ text, ranges, lang }: { text: string; ranges: Range[]; lang?: string | null }) {
  const sorted = ranges.filter((r) => r.end > r.start && r.start >= 0 && r.end <= text.length).sort((a, b) => a.start - b.start);
  const merged: Range[] = [];
  for (const r of sorted) {
    const last = merged[merged.length - 1];
    if (last && r.start <= last.end) {
      last.end = Math.max(last.end, r.end);
      if (r.label && last.label !== r.label) last.label = [last.label, r.label].filter(Boolean).join(', ');
    } else merged.push({ ...r });
  }
  const out: ComponentChildren[] = [];
  let at = 0;
  merged.forEach((r, i) => {
    if (r.start > at) out.push(text.slice(at, r.start));
    out.push(
      <mark key={i} title={r.label}>
        {text.slice(r.start, r.end)}
      </mark>,
    );
    at = r.end;
  });
  if (at < text.length) out.push(text.slice(at));
  return lang ? <span lang={lang}>{out}</span> : <>{out}</>;
}

/** Case- and accent-insensitive positions of each needle in text. */
export function findAll(text: string, needles: string[], label?: string): Range[] {
  const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  // NFD folding can change lengths; fall back to plain lower-casing when it does.
  const folded = fold(text);
  const hay = folded.length === text.length ? folded : text.toLowerCase();
  const out: Range[] = [];
  for (const n of needles) {
    const needle = (folded.length === text.length ? fold(n) : n.toLowerCase()).trim();
    if (!needle) continue;
    for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + needle.length)) out.push({ start: i, end: i + needle.length, label });
  }
  return out;
}

export function PathTrail({ nodes, version }: { nodes: { code: string; term: string; level: string }[]; version?: string }) {
  return (
    <ol class="trail">
      {nodes.map((n) => (
        <li key={n.code + n.level}>
          {version !== undefined ? (
            <Link to={{ view: 'browse', code: n.code, lvl: n.level === 'LLT' ? 'LLT' : undefined, tab: undefined, path: undefined, q: undefined }}>
              <span class="sr-only">{n.level} </span>
              {n.term}
            </Link>
          ) : (
            <>
              <span class="sr-only">{n.level} </span>
              {n.term}
            </>
          )}
        </li>
      ))}
    </ol>
  );
}

export function pct(x: number): string {
  return t('common.percent', { value: Math.round(x * 100) });
}

/**
 * The error's sentence: the API's own message as it gave it (the API answers in English), the
 * explorer's own failures (no connection, an unreadable answer) in the interface's language.
 */
export function errorMessage(error: ApiError): string {
  if (error.code === 'NETWORK_ERROR') return t('error.network');
  if (error.code === 'BAD_RESPONSE') return t('error.badResponse', { status: String(error.status) });
  return error.message;
}
