// A change's before/after in words: "primary SOC: Respiratory, thoracic and mediastinal disorders
// (10038738)", not the metadata's field names and bare codes. Codes in the metadata may be numbers
// or strings; their names come from the release each side belongs to (before: from, after: to).
import { gql } from './api.ts';
import { ExplorerCodeNamesDocument } from './operations/generated.ts';
import { t } from './i18n.ts';

export interface Meta {
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

/** Code → term in one release. */
export type Names = ReadonlyMap<string, string>;

const CODE_FIELDS = ['ptCode', 'primarySocCode', 'parents'];
// The level of a concept's parents (an LLT's parent is its PT, under ptCode).
const PARENTS: Record<string, string> = { HLGT: 'SOC', HLT: 'HLGT', PT: 'HLT', LLT: 'PT' };
const ORDER = ['level', 'term', 'status', 'ptCode', 'primarySocCode', 'parents', 'abbreviation', 'internationalOrder'];

/** Every code a side of the metadata names. */
export function codesOf(side: Record<string, unknown> | undefined): string[] {
  if (!side) return [];
  return CODE_FIELDS.flatMap((k) => {
    const v = side[k];
    return v === null || v === undefined ? [] : (Array.isArray(v) ? v : [v]).map(String);
  });
}

/** A change type (ADDED, UPDATED, RETIRED) as a word of the interface's language. */
export function changeTypeName(type: string): string {
  return type === 'ADDED' || type === 'UPDATED' || type === 'RETIRED' ? t(`change.${type}`) : type.toLowerCase();
}

const named = (code: unknown, names: Names) => {
  const c = String(code);
  const n = names.get(c);
  return n ? `${n} (${c})` : c;
};

/** One side in words, the fields in a reading order; '' for an empty side. */
export function describeSide(side: Record<string, unknown> | undefined, level: string, names: Names): string {
  if (!side) return '';
  const keys = Object.keys(side).sort((a, b) => (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99));
  const parts: string[] = [];
  for (const k of keys) {
    const v = side[k];
    if (v === null || v === undefined) continue;
    switch (k) {
      case 'level':
        parts.push(t('words.level', { value: String(v) }));
        break;
      case 'term':
        parts.push(t('words.term', { value: String(v) }));
        break;
      case 'status':
        parts.push(t('words.status', { value: String(v) }));
        break;
      case 'ptCode':
        parts.push(t('words.pt', { value: named(v, names) }));
        break;
      case 'primarySocCode':
        parts.push(t('words.primarySoc', { value: named(v, names) }));
        break;
      case 'parents': {
        const list = Array.isArray(v) ? v : [v];
        const pl = PARENTS[level];
        const value = list.length ? list.map((c) => named(c, names)).join('; ') : t('words.none');
        parts.push(pl ? t('words.parentsOf', { count: list.length || 2, level: pl, value }) : t('words.parents', { count: list.length || 2, value }));
        break;
      }
      case 'abbreviation':
        parts.push(t('words.abbreviation', { value: String(v) }));
        break;
      case 'internationalOrder':
        parts.push(t('words.order', { value: String(v) }));
        break;
      default:
        // A field this page does not know yet: its name in words, the value as given.
        parts.push(`${k.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
    }
  }
  return parts.join(' · ');
}

/** The names of `codes` in `version` (one batched, cached validateCodes call). */
export async function namesIn(version: string, codes: Iterable<string>): Promise<Names> {
  const list = [...new Set(codes)];
  if (!list.length) return new Map();
  const d = await gql(ExplorerCodeNamesDocument, { codes: list.map((code) => ({ code })), version });
  return new Map(d.validateCodes.items.filter((i) => i.term).map((i) => [i.code, i.term!]));
}
