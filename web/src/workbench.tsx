// The coding workbench: a narrative (or a label section) → identified events, each with its
// ranked codes, confidence, reasons and the evidence marked in the text, plus seriousness and
// severity. The API key is typed by the user, kept only in this tab's sessionStorage and sent
// as X-API-Key. The text itself never enters the URL (it may carry patient details).
import { useState } from 'preact/hooks';
import { gql } from './api.ts';
import {
  ExplorerClassifyDocument,
  ExplorerClassifyLabelDocument,
  ExplorerIdentifyDocument,
  type ExplorerClassifyQuery,
  type ExplorerClassifyLabelQuery,
  type ExplorerIdentifyQuery,
} from './operations/generated.ts';
import { navigate } from './router.ts';
import { ErrorBox, Highlighted, LevelBadge, Link, findAll, pct, toApiError, type Range } from './ui.tsx';
import type { ApiError } from './api.ts';
import { KeyBox, useApiKey } from './apiKey.tsx';

type Classified = ExplorerClassifyQuery['classify'];
type Prediction = Classified['terminologyCodes'][number];
interface EventResult {
  description: string;
  confidence: number;
  reasons: string[];
  coding?: Classified;
  error?: ApiError;
}
type Result =
  | { mode: 'narrative'; text: string; identify: ExplorerIdentifyQuery['identify']; events: EventResult[]; overall?: Classified; overallError?: ApiError }
  | { mode: 'label'; text: string; label: ExplorerClassifyLabelQuery['classifyLabel'] };

const CRITERIA: [keyof NonNullable<Classified['seriousness']>['criteria'], string][] = [
  ['death', 'death'],
  ['life_threatening', 'life-threatening'],
  ['hospitalization', 'hospitalisation'],
  ['disability', 'disability'],
  ['congenital_anomaly', 'congenital anomaly'],
  ['medically_important', 'medically important'],
];

function Predictions({ list, text }: { list: (Prediction & { supportingSnippets?: { start: number; end: number; text: string; section: string; confidence: number }[] | null })[]; text?: string }) {
  if (!list.length) return <p class="empty">No code reaches the confidence threshold.</p>;
  return (
    <ol class="predictions">
      {list.map((p) => (
        <li key={p.code.code}>
          <p class="pred-head">
            <LevelBadge level={p.code.level} />{' '}
            <Link to={{ view: 'browse', code: p.code.code, lvl: undefined, path: undefined, tab: undefined }}>{p.code.term}</Link> <span class="muted">{p.code.code}</span>{' '}
            <span class="confidence">
              confidence <strong>{pct(p.confidence)}</strong>
            </span>
            <meter min={0} max={1} value={p.confidence} aria-label={`Confidence ${pct(p.confidence)}`} />
          </p>
          {p.matchedTerm && p.matchedTerm.term !== p.code.term ? <p class="muted">via LLT “{p.matchedTerm.term}”</p> : null}
          {p.code.primaryPath ? <p class="path">{p.code.primaryPath.nodes.map((n) => n.term).join(' › ')}</p> : null}
          {p.reasons.length ? (
            <ul class="reasons">
              {p.reasons.map((r, i) => (
                <li key={i}>{r}</li>
              ))}
            </ul>
          ) : null}
          {text && p.supportingSnippets?.length ? (
            <ul class="snippets">
              {p.supportingSnippets.map((s, i) => (
                <li key={i}>
                  <span class="muted">
                    {s.section} · {pct(s.confidence)}:
                  </span>{' '}
                  <q>
                    <mark>{text.slice(s.start, s.end)}</mark>
                  </q>
                </li>
              ))}
            </ul>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

function Notice({ a }: { a: { notice: string; provider: string; requestId: string; version: string; fallbackReason: string | null } }) {
  return (
    <div class="notice" role="note" aria-label="AI notice">
      <p>
        <strong>AI-generated assessment.</strong> {a.notice}
      </p>
      <p class="meta">
        Provider {a.provider} · release {a.version} · request id <code class="request-id">{a.requestId}</code>
        {a.fallbackReason ? ` · ${a.fallbackReason}` : ''}
      </p>
    </div>
  );
}

function Assessments({ c }: { c: Classified }) {
  const s = c.seriousness;
  const sev = c.severity;
  return (
    <div class="assessments">
      {s ? (
        <div>
          <h3>Seriousness (ICH E2A)</h3>
          <p>
            <strong>{s.serious ? 'Serious' : 'Not serious'}</strong> · confidence {pct(s.confidence)}
          </p>
          <ul class="criteria">
            {CRITERIA.map(([k, name]) => {
              const cr = s.criteria[k];
              return (
                <li key={k} class={cr.met ? 'met' : ''}>
                  {cr.met ? '✔ met' : '✘ not met'}: {name}
                  {cr.met && cr.reasons.length ? <span class="muted"> — {cr.reasons.join('; ')}</span> : null}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
      {sev?.simple || sev?.ctcae ? (
        <div>
          <h3>Severity</h3>
          {sev.simple ? (
            <p>
              Three-level: <strong>{sev.simple.grade}</strong> · {pct(sev.simple.confidence)}
              {sev.simple.reasons.length ? <span class="muted"> — {sev.simple.reasons.join('; ')}</span> : null}
            </p>
          ) : null}
          {sev.ctcae ? (
            <p>
              CTCAE: <strong>grade {sev.ctcae.grade}</strong> ({sev.ctcae.label}) · {pct(sev.ctcae.confidence)}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

export function Workbench({ params, version }: { params: URLSearchParams; version?: string }) {
  const mode = params.get('mode') === 'label' ? 'label' : 'narrative';
  const [key, saveKey] = useApiKey();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [result, setResult] = useState<Result>();

  async function run() {
    if (!text.trim() || !key) return;
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    const opts = { apiKey: key, cache: false };
    try {
      if (mode === 'label') {
        const d = await gql(ExplorerClassifyLabelDocument, { input: { description: text, version } }, opts);
        setResult({ mode, text, label: d.classifyLabel });
      } else {
        const [id, overall] = await Promise.all([
          gql(ExplorerIdentifyDocument, { description: text, version }, opts),
          // The whole narrative for seriousness and severity (criteria like a hospital stay are often in another sentence).
          gql(ExplorerClassifyDocument, { input: { description: text, version, terminology: false, seriousness: true, severity: ['THREE_LEVEL', 'FIVE_LEVEL'] } }, opts).then(
            (d) => ({ ok: d.classify }),
            (e: unknown) => ({ err: toApiError(e) }),
          ),
        ]);
        const events: EventResult[] = id.identify.events.edges.map((e) => ({ ...e.node }));
        await Promise.all(
          events.map(async (ev) => {
            try {
              ev.coding = (await gql(ExplorerClassifyDocument, { input: { description: ev.description, version, limit: 5 } }, opts)).classify;
            } catch (e) {
              ev.error = toApiError(e);
            }
          }),
        );
        setResult({ mode, text, identify: id.identify, events, overall: 'ok' in overall ? overall.ok : undefined, overallError: 'err' in overall ? overall.err : undefined });
      }
    } catch (e) {
      setError(toApiError(e));
    } finally {
      setBusy(false);
    }
  }

  const evidence: Range[] =
    result?.mode === 'narrative'
      ? result.events.flatMap((e, i) => findAll(result.text, e.reasons.length ? e.reasons : [e.description], `event ${i + 1}`))
      : result?.mode === 'label'
        ? result.label.terminologyCodes.flatMap((p) => (p.supportingSnippets ?? []).map((s) => ({ start: s.start, end: s.end, label: p.code.term })))
        : [];

  return (
    <section class="workbench" aria-labelledby="wb-heading">
      <h1 id="wb-heading">Coding workbench</h1>
      <KeyBox apiKey={key} onChange={saveKey} />
      <form
        class="wb-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <fieldset class="modes">
          <legend>Text</legend>
          <label>
            <input type="radio" name="mode" value="narrative" checked={mode === 'narrative'} onChange={() => navigate({ mode: undefined }, { replace: true })} /> Case narrative
          </label>
          <label>
            <input type="radio" name="mode" value="label" checked={mode === 'label'} onChange={() => navigate({ mode: 'label' }, { replace: true })} /> Label section
          </label>
        </fieldset>
        <label for="wb-text">{mode === 'label' ? 'Label text (e.g. the Adverse Reactions section)' : 'Narrative text'}</label>
        <textarea id="wb-text" rows={7} value={text} onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)} />
        <p>
          <button type="submit" class="primary" disabled={busy || !key || !text.trim()}>
            {busy ? 'Coding…' : mode === 'label' ? 'Code the label' : 'Code the narrative'}
          </button>{' '}
          {!key ? <span class="muted">Enter an API key first.</span> : null}
        </p>
      </form>
      <div aria-live="polite">
        {busy ? (
          <p class="loading" role="status">
            Coding…
          </p>
        ) : null}
        {error ? <ErrorBox error={error} title="Coding failed" /> : null}
        {result ? (
          <div class="wb-result">
            <Notice a={result.mode === 'label' ? result.label : result.identify} />
            <h2>Evidence in the text</h2>
            <p class="evidence">
              <Highlighted text={result.text} ranges={evidence} />
            </p>
            {result.mode === 'narrative' ? (
              <>
                {result.overall ? <Assessments c={result.overall} /> : null}
                {result.overallError ? <ErrorBox error={result.overallError} title="Seriousness and severity could not be assessed" /> : null}
                <h2>Events ({result.events.length})</h2>
                {!result.events.length ? <p class="empty">No adverse event was identified.</p> : null}
                <ol class="events">
                  {result.events.map((ev, i) => (
                    <li key={i} class="event">
                      <h3>
                        Event {i + 1}: {ev.description} <span class="muted">· {pct(ev.confidence)}</span>
                      </h3>
                      {ev.reasons.length ? (
                        <p>
                          Evidence:{' '}
                          {ev.reasons.map((r, j) => (
                            <q key={j}>
                              <mark>{r}</mark>
                            </q>
                          ))}
                        </p>
                      ) : null}
                      {ev.error ? <ErrorBox error={ev.error} title="This event could not be coded" /> : null}
                      {ev.coding ? <Predictions list={ev.coding.terminologyCodes} /> : null}
                    </li>
                  ))}
                </ol>
              </>
            ) : (
              <>
                <h2>Adverse reactions ({result.label.terminologyCodes.length})</h2>
                <Predictions list={result.label.terminologyCodes} text={result.text} />
              </>
            )}
          </div>
        ) : null}
      </div>
    </section>
  );
}
