// The coder's decisions on a coded narrative and their export: one line (CSV) or object (JSON) per
// event with the code chosen — a proposal accepted, or another code picked — the proposals
// rejected, and where the narrative names the finding (UTF-16 offsets [start, end), as the API
// gives them). The narrative itself is not in the export: the offsets refer to the text the
// coder keeps.
import { csvText } from './csv.ts';

export interface PickedCode {
  code: string;
  term: string;
  level: string;
}

export interface Decision {
  /** The event's code: an accepted proposal or a code picked by the coder. */
  chosen?: PickedCode & { source: 'proposed' | 'edited'; confidence?: number };
  /** Codes of the proposals rejected. */
  rejected: string[];
}

export interface ExportEvent {
  description: string;
  confidence: number;
  mentions: { start: number; end: number; text: string }[];
  proposals: (PickedCode & { confidence: number })[];
  decision: Decision;
}

export type DecisionState = 'accepted' | 'edited' | 'rejected' | 'pending';

/** accepted / edited: coded; rejected: every proposal shown was rejected and nothing chosen; else pending. */
export function stateOf(d: Decision, proposals: readonly { code: string }[]): DecisionState {
  if (d.chosen) return d.chosen.source === 'edited' ? 'edited' : 'accepted';
  return proposals.length && proposals.every((p) => d.rejected.includes(p.code)) ? 'rejected' : 'pending';
}

export function codedEventsJson(events: readonly ExportEvent[], meta: { release: string; requestId: string }): string {
  const out = {
    release: meta.release,
    requestId: meta.requestId,
    offsets: 'UTF-16 code units of the narrative, start inclusive, end exclusive',
    events: events.map((e, i) => ({
      event: i + 1,
      description: e.description,
      confidence: e.confidence,
      evidence: e.mentions.map((m) => ({ start: m.start, end: m.end, text: m.text })),
      decision: stateOf(e.decision, e.proposals),
      code: e.decision.chosen ? { code: e.decision.chosen.code, term: e.decision.chosen.term, level: e.decision.chosen.level } : null,
      codeConfidence: e.decision.chosen?.confidence ?? null,
      rejected: e.proposals.filter((p) => e.decision.rejected.includes(p.code)).map((p) => ({ code: p.code, term: p.term, confidence: p.confidence })),
    })),
  };
  return JSON.stringify(out, null, 2) + '\n';
}

export const CODED_EVENTS_COLUMNS = [
  'event',
  'description',
  'event_confidence',
  'decision',
  'code',
  'term',
  'level',
  'code_confidence',
  'evidence_offsets',
  'evidence_text',
  'rejected_codes',
  'release',
  'request_id',
];

/** The same as CSV (BOM, CRLF, formula-looking cells defused); offsets as start-end, ';'-separated. */
export function codedEventsCsv(events: readonly ExportEvent[], meta: { release: string; requestId: string }): string {
  return csvText([
    CODED_EVENTS_COLUMNS,
    ...events.map((e, i) => {
      const c = e.decision.chosen;
      return [
        i + 1,
        e.description,
        e.confidence,
        stateOf(e.decision, e.proposals),
        c?.code ?? '',
        c?.term ?? '',
        c?.level ?? '',
        c?.confidence ?? '',
        e.mentions.map((m) => `${m.start}-${m.end}`).join(';'),
        e.mentions.map((m) => m.text).join(' | '),
        e.proposals.filter((p) => e.decision.rejected.includes(p.code)).map((p) => p.code).join(';'),
        meta.release,
        meta.requestId,
      ];
    }),
  ]);
}
