// What an impact analysis answers, as the explorer shows and downloads it: the report's types,
// a label per impact kind, and the report as the lines of POST /impact?format=csv.
import type { ExplorerImpactQuery, ImpactKind } from './operations/generated.ts';
import { t } from './i18n.ts';

export type Report = ExplorerImpactQuery['impact'];
export type Row = Report['rows'][number];

/** An impact kind in words of the interface's language (the CSV keeps the kind's code). */
export function kindLabel(kind: ImpactKind): string {
  return t(`kind.${kind}`);
}

const CSV_HEADER = [
  'rowId', 'line', 'code', 'recordedTerm', 'status', 'impact', 'details', 'before', 'after', 'suggestedAction', 'suggestedCode', 'suggestedTerm', 'suggestionReason',
  'fromTerm', 'fromPtCode', 'fromPt', 'fromSocCode', 'fromSoc', 'toTerm', 'toPtCode', 'toPt', 'toSocCode', 'toSoc',
];

export interface BadRow {
  rowId: string | null;
  position: number;
  line: number | null;
  field: string;
  reason: string;
}

/** One line per row and impact (UNCHANGED rows once), then the bad rows: the columns of POST /impact?format=csv. */
export function impactCsvLines(report: Report, bad: BadRow[]): unknown[][] {
  const lines: unknown[][] = [CSV_HEADER];
  type State = Row['before'] | null;
  const state = (s: State) => [s?.term, s?.pt?.code, s?.pt?.term, s?.soc?.code, s?.soc?.term];
  for (const r of report.rows) {
    const head = [r.rowId, r.line, r.code, r.recordedTerm];
    const tail = [...state(r.before), ...state(r.after)];
    if (!r.impacts.length) lines.push([...head, 'UNCHANGED', null, null, null, null, 'KEEP', r.code, r.after?.term, 'Not affected by the upgrade.', ...tail]);
    for (const i of r.impacts) lines.push([...head, 'IMPACTED', i.kind, i.details, i.before, i.after, i.suggestion.action, i.suggestion.code, i.suggestion.term, i.suggestion.reason, ...tail]);
  }
  const pad = new Array(CSV_HEADER.length - 7).fill(null);
  for (const e of bad) lines.push([e.rowId, e.line, null, null, 'INVALID', null, `${e.field}: ${e.reason}`, ...pad]);
  return lines;
}
