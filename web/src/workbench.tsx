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
import { ErrorBox, Highlighted, JobStatus, LevelBadge, Link, findAll, pct, toApiError, type Range } from './ui.tsx';
import type { ApiError } from './api.ts';
import { KeyBox, useApiKey } from './apiKey.tsx';
import { CodePicker } from './codePicker.tsx';
import { codedEventsCsv, codedEventsJson, stateOf, type Decision, type ExportEvent, type PickedCode } from './codingExport.ts';
import { downloadText } from './csv.ts';
import { Name } from './names.tsx';
import { t, tx } from './i18n.ts';
import type { MessageKey } from './messages/catalogue.ts';

type Classified = ExplorerClassifyQuery['classify'];
type Prediction = Classified['terminologyCodes'][number];
interface EventResult {
  description: string;
  confidence: number;
  reasons: string[];
  mentions: { start: number; end: number; text: string }[];
  coding?: Classified;
  error?: ApiError;
}

/** Candidates under this confidence (percent) are hidden unless asked for. */
export const DEFAULT_FLOOR = 20;
type Result =
  | { mode: 'narrative'; text: string; identify: ExplorerIdentifyQuery['identify']; events: EventResult[]; overall?: Classified; overallError?: ApiError }
  | { mode: 'label'; text: string; label: ExplorerClassifyLabelQuery['classifyLabel'] };

const CRITERIA: [keyof NonNullable<Classified['seriousness']>['criteria'], MessageKey][] = [
  ['death', 'wb.criterion.death'],
  ['life_threatening', 'wb.criterion.lifeThreatening'],
  ['hospitalization', 'wb.criterion.hospitalisation'],
  ['disability', 'wb.criterion.disability'],
  ['congenital_anomaly', 'wb.criterion.congenitalAnomaly'],
  ['medically_important', 'wb.criterion.medicallyImportant'],
];

type Listed = Prediction & { supportingSnippets?: { start: number; end: number; text: string; section: string; confidence: number }[] | null };

interface Review {
  decision: Decision;
  label: string;
  onAccept: (p: Prediction) => void;
  onReject: (p: Prediction) => void;
}

function Predictions({ list, text, floor, review }: { list: Listed[]; text?: string; floor: Floor; review?: Review }) {
  if (!list.length) return <p class="empty">{t('wb.noCode')}</p>;
  const shown = floor.showAll ? list : list.filter((p) => p.confidence * 100 >= floor.percent);
  const hidden = list.length - shown.length;
  return (
    <>
      <ol class="predictions">
        {shown.map((p) => {
          const accepted = review?.decision.chosen?.source === 'proposed' && review.decision.chosen.code === p.code.code;
          const rejected = !!review?.decision.rejected.includes(p.code.code);
          return (
            <li key={p.code.code} class={accepted ? 'accepted' : rejected ? 'rejected' : undefined}>
              <p class="pred-head">
                <LevelBadge level={p.code.level} />{' '}
                <Link to={{ view: 'browse', code: p.code.code, lvl: undefined, path: undefined, tab: undefined }}>
                  <Name text={p.code.term} />
                </Link> <span class="muted">{p.code.code}</span>{' '}
                <span class="confidence">
                  {tx('wb.confidence', { value: <strong>{pct(p.confidence)}</strong> })}
                </span>
                <meter min={0} max={1} value={p.confidence} aria-label={t('wb.confidenceLabel', { value: pct(p.confidence) })} />
                {accepted ? <span class="badge decision">{t('wb.accepted')}</span> : rejected ? <span class="badge decision">{t('wb.rejected')}</span> : null}
              </p>
              {review ? (
                <p class="decide">
                  <button type="button" aria-pressed={accepted} onClick={() => review.onAccept(p)}>
                    {t('wb.accept')}<span class="sr-only"> {t('wb.termFor', { term: p.code.term, label: review.label })}</span>
                  </button>{' '}
                  <button type="button" aria-pressed={rejected} onClick={() => review.onReject(p)}>
                    {t('wb.reject')}<span class="sr-only"> {t('wb.termFor', { term: p.code.term, label: review.label })}</span>
                  </button>
                </p>
              ) : null}
              {p.matchedTerm && p.matchedTerm.term !== p.code.term ? <p class="muted">{tx('wb.viaLlt', { term: <Name text={p.matchedTerm.term} /> })}</p> : null}
              {p.code.primaryPath ? <p class="path">
                  <Name text={p.code.primaryPath.nodes.map((n) => n.term).join(' › ')} />
                </p> : null}
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
          );
        })}
      </ol>
      {hidden ? (
        <p class="muted small below-floor">
          {t('wb.hidden', { count: hidden, floor: t('common.percent', { value: floor.percent }) })}
        </p>
      ) : null}
      {!shown.length ? <p class="empty">{t('wb.noneAbove', { floor: t('common.percent', { value: floor.percent }) })}</p> : null}
    </>
  );
}

interface Floor {
  percent: number;
  showAll: boolean;
}

/** The confidence floor and "show all", kept in the URL like every view setting. */
function FloorControl({ floor }: { floor: Floor }) {
  return (
    <div class="filters floor">
      <div class="field">
        <label for="wb-floor">{t('wb.floor')}</label>
        <input
          id="wb-floor"
          type="number"
          min={0}
          max={100}
          step={5}
          value={floor.percent}
          onChange={(e) => {
            const v = Math.round(Number((e.currentTarget as HTMLInputElement).value));
            navigate({ floor: Number.isFinite(v) && v >= 0 && v <= 100 && v !== DEFAULT_FLOOR ? String(v) : undefined }, { replace: true });
          }}
        />
      </div>
      <label class="check">
        <input type="checkbox" checked={floor.showAll} onChange={(e) => navigate({ all: (e.currentTarget as HTMLInputElement).checked ? '1' : undefined }, { replace: true })} /> {t('wb.showBelow')}
      </label>
    </div>
  );
}

function Notice({ a }: { a: { notice: string; provider: string; requestId: string; version: string; fallbackReason: string | null } }) {
  return (
    <div class="notice" role="note" aria-label={t('wb.aiNotice')}>
      <p>
        <strong>{t('wb.aiGenerated')}</strong> {a.notice}
      </p>
      <p class="meta">
        {t('wb.provider', { provider: a.provider })} · {t('wb.release', { version: a.version })} · {tx('error.requestId', { id: <code class="request-id">{a.requestId}</code> })}
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
          <h3>{t('wb.seriousness')}</h3>
          <p>
            <strong>{s.serious ? t('wb.serious') : t('wb.notSerious')}</strong> · {t('wb.confidence', { value: pct(s.confidence) })}
          </p>
          <ul class="criteria">
            {CRITERIA.map(([k, nameKey]) => {
              const cr = s.criteria[k];
              return (
                <li key={k} class={cr.met ? 'met' : ''}>
                  {cr.met ? `✔ ${t('wb.met')}` : `✘ ${t('wb.notMet')}`}: {t(nameKey)}
                  {cr.met && cr.reasons.length ? <span class="muted"> — {cr.reasons.join('; ')}</span> : null}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
      {sev?.simple || sev?.ctcae ? (
        <div>
          <h3>{t('wb.severity')}</h3>
          {sev.simple ? (
            <p>
              {tx('wb.threeLevel', { grade: <strong>{sev.simple.grade}</strong> })} · {pct(sev.simple.confidence)}
              {sev.simple.reasons.length ? <span class="muted"> — {sev.simple.reasons.join('; ')}</span> : null}
            </p>
          ) : null}
          {sev.ctcae ? (
            <p>
              CTCAE: <strong>{t('wb.grade', { grade: sev.ctcae.grade })}</strong> ({sev.ctcae.label}) · {pct(sev.ctcae.confidence)}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** One identified event: its evidence, its proposed codes to accept or reject, another code to pick. */
function EventCard({ ev, n, floor, decision, version, onDecide }: { ev: EventResult; n: number; floor: Floor; decision: Decision; version?: string; onDecide: (d: Decision) => void }) {
  const label = t('wb.eventLabel', { n });
  const proposals = ev.coding?.terminologyCodes ?? [];
  const state = stateOf(decision, proposals.map((p) => ({ code: p.code.code })));
  const accept = (p: Prediction) => {
    const again = decision.chosen?.source === 'proposed' && decision.chosen.code === p.code.code;
    onDecide({
      chosen: again ? undefined : { code: p.code.code, term: p.code.term, level: p.code.level, source: 'proposed', confidence: p.confidence },
      rejected: decision.rejected.filter((c) => c !== p.code.code),
    });
  };
  const reject = (p: Prediction) => {
    const was = decision.rejected.includes(p.code.code);
    onDecide({
      chosen: decision.chosen?.code === p.code.code && decision.chosen.source === 'proposed' ? undefined : decision.chosen,
      rejected: was ? decision.rejected.filter((c) => c !== p.code.code) : [...decision.rejected, p.code.code],
    });
  };
  const pick = (c: PickedCode) => onDecide({ ...decision, chosen: { ...c, source: 'edited' } });
  return (
    <li class="event">
      <h3>
        {t('wb.event', { n, description: ev.description })} <span class="muted">· {pct(ev.confidence)}</span>
      </h3>
      {ev.mentions.length || ev.reasons.length ? (
        <p>
          {t('wb.evidence')}{' '}
          {(ev.mentions.length ? ev.mentions.map((m) => m.text) : ev.reasons.slice(0, 1)).map((r, j) => (
            <q key={j}>
              <mark>{r}</mark>
            </q>
          ))}
          {ev.mentions.length ? <span class="muted small"> ({t('wb.characters', { ranges: ev.mentions.map((m) => `${m.start}–${m.end}`).join(', ') })})</span> : null}
          {ev.reasons.length > 1 ? (
            <span class="muted small">
              {' '}
              {tx('wb.in', { quote: <q>{ev.reasons[ev.reasons.length - 1]}</q> })}
            </span>
          ) : null}
        </p>
      ) : null}
      <p class={`coded coded-${state}`} role="status">
        {decision.chosen ? (
          <>
            {tx('wb.coded', { term: <strong>{decision.chosen.term}</strong> })} <span class="muted">{decision.chosen.code}</span> ({state === 'edited' ? t('wb.chosenByYou') : t('wb.proposalAccepted')})
            {state === 'edited' ? (
              <>
                {' '}
                <button type="button" onClick={() => onDecide({ ...decision, chosen: undefined })}>
                  {t('wb.clear')}<span class="sr-only"> {t('wb.codeOf', { label })}</span>
                </button>
              </>
            ) : null}
          </>
        ) : state === 'rejected' ? (
          t('wb.allRejected')
        ) : (
          t('wb.notYet')
        )}
      </p>
      {ev.error ? <ErrorBox error={ev.error} title={t('wb.eventFailed')} /> : null}
      {ev.coding ? <Predictions list={ev.coding.terminologyCodes} floor={floor} review={{ decision, label, onAccept: accept, onReject: reject }} /> : null}
      <CodePicker id={`pick-${n}`} label={label} version={version} onPick={pick} />
    </li>
  );
}

function CodedEventsExport({ events, decisions, meta }: { events: EventResult[]; decisions: Decision[]; meta: { release: string; requestId: string } }) {
  const list: ExportEvent[] = events.map((e, i) => ({
    description: e.description,
    confidence: e.confidence,
    mentions: e.mentions,
    proposals: (e.coding?.terminologyCodes ?? []).map((p) => ({ code: p.code.code, term: p.code.term, level: p.code.level, confidence: p.confidence })),
    decision: decisions[i] ?? { rejected: [] },
  }));
  const coded = list.filter((e) => e.decision.chosen).length;
  const base = `coded-events-${meta.release}`;
  return (
    <div class="list-head export">
      <p role="status">
        {t('wb.codedCount', { coded, count: list.length })}
      </p>
      <p>
        <button type="button" onClick={() => downloadText(`${base}.csv`, codedEventsCsv(list, meta))}>
          {t('common.downloadCsv')}
        </button>{' '}
        <button type="button" onClick={() => downloadText(`${base}.json`, codedEventsJson(list, meta), 'application/json')}>
          {t('wb.downloadJson')}
        </button>
      </p>
    </div>
  );
}

export function Workbench({ params, version }: { params: URLSearchParams; version?: string }) {
  const mode = params.get('mode') === 'label' ? 'label' : 'narrative';
  const floorParam = Number(params.get('floor'));
  const floor: Floor = { percent: params.get('floor') !== null && floorParam >= 0 && floorParam <= 100 ? floorParam : DEFAULT_FLOOR, showAll: params.get('all') === '1' };
  const [key, saveKey] = useApiKey();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [result, setResult] = useState<Result>();
  // The coder's decisions, one per event; client data like the text: never in the URL or storage.
  const [decisions, setDecisions] = useState<Decision[]>([]);

  async function run() {
    if (!text.trim() || !key) return;
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    setDecisions([]);
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
        setDecisions(events.map(() => ({ rejected: [] })));
        setResult({ mode, text, identify: id.identify, events, overall: 'ok' in overall ? overall.ok : undefined, overallError: 'err' in overall ? overall.err : undefined });
      }
    } catch (e) {
      setError(toApiError(e));
    } finally {
      setBusy(false);
    }
  }

  // The matched words of each event (the API's mention spans), not the whole clause; an answer
  // without them (a model's) falls back to the first quote found in the text.
  const evidence: Range[] =
    result?.mode === 'narrative'
      ? result.events.flatMap((e, i) =>
          e.mentions.length ? e.mentions.map((m) => ({ start: m.start, end: m.end, label: t('wb.eventLabel', { n: i + 1 }) })) : findAll(result.text, e.reasons.slice(0, 1), t('wb.eventLabel', { n: i + 1 })),
        )
      : result?.mode === 'label'
        ? result.label.terminologyCodes.flatMap((p) => (p.supportingSnippets ?? []).map((s) => ({ start: s.start, end: s.end, label: p.code.term })))
        : [];

  return (
    <section class="workbench" aria-labelledby="wb-heading">
      <h1 id="wb-heading">{t('title.workbench')}</h1>
      <KeyBox apiKey={key} onChange={saveKey} />
      <form
        class="wb-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <fieldset class="modes">
          <legend>{t('wb.text')}</legend>
          <label>
            <input type="radio" name="mode" value="narrative" checked={mode === 'narrative'} onChange={() => navigate({ mode: undefined }, { replace: true })} /> {t('wb.narrative')}
          </label>
          <label>
            <input type="radio" name="mode" value="label" checked={mode === 'label'} onChange={() => navigate({ mode: 'label' }, { replace: true })} /> {t('wb.label')}
          </label>
        </fieldset>
        <label for="wb-text">{mode === 'label' ? t('wb.labelText') : t('wb.narrativeText')}</label>
        <textarea id="wb-text" rows={7} value={text} onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)} />
        <p>
          <button type="submit" class="primary" disabled={busy || !key || !text.trim()}>
            {busy ? t('wb.coding') : mode === 'label' ? t('wb.codeLabel') : t('wb.codeNarrative')}
          </button>{' '}
          {!key ? <span class="muted">{t('key.first')}</span> : null}
        </p>
      </form>
      <JobStatus busy={busy} busyText={t('wb.coding')} error={error} errorTitle={t('wb.failed')}>
        {result ? (
          <div class="wb-result">
            <Notice a={result.mode === 'label' ? result.label : result.identify} />
            <h2>{t('wb.evidenceHeading')}</h2>
            <p class="evidence">
              <Highlighted text={result.text} ranges={evidence} />
            </p>
            {result.mode === 'narrative' ? (
              <>
                {result.overall ? <Assessments c={result.overall} /> : null}
                {result.overallError ? <ErrorBox error={result.overallError} title={t('wb.assessFailed')} /> : null}
                <h2>{t('wb.events', { count: result.events.length })}</h2>
                {!result.events.length ? <p class="empty">{t('wb.noEvents')}</p> : null}
                {result.events.length ? (
                  <>
                    <FloorControl floor={floor} />
                    <p class="muted small">{t('wb.reviewHelp')}</p>
                    <ol class="events">
                      {result.events.map((ev, i) => (
                        <EventCard
                          key={i}
                          ev={ev}
                          n={i + 1}
                          floor={floor}
                          version={result.identify.version}
                          decision={decisions[i] ?? { rejected: [] }}
                          onDecide={(d) => setDecisions((all) => all.map((x, k) => (k === i ? d : x)))}
                        />
                      ))}
                    </ol>
                    <CodedEventsExport events={result.events} decisions={decisions} meta={{ release: result.identify.version, requestId: result.identify.requestId }} />
                  </>
                ) : null}
              </>
            ) : (
              <>
                <h2>{t('wb.reactions', { count: result.label.terminologyCodes.length })}</h2>
                {result.label.terminologyCodes.length ? <FloorControl floor={floor} /> : null}
                <Predictions list={result.label.terminologyCodes} text={result.text} floor={floor} />
              </>
            )}
          </div>
        ) : null}
      </JobStatus>
    </section>
  );
}
