// The research bin: terms collected while browsing, kept in this browser's localStorage (terms of
// the terminology, not client data), with where each stood when collected (release, PT, primary
// SOC) so that a later check can tell a term that moved. Exported as CSV or JSON and read back
// from either (or from any CSV with a `code` column).
import { useEffect, useState } from 'preact/hooks';
import { csvRecords, csvText } from './csv.ts';
import { t } from './i18n.ts';

export interface BinItem {
  code: string;
  term: string;
  level: string;
  /** The release it was collected from. */
  release?: string;
  /** For an LLT: its PT then. */
  ptCode?: string;
  /** Its primary SOC then. */
  primarySocCode?: string;
}

const STORAGE = 'terminology-explorer.researchBin';
/** As many codes as one validateCodes call checks. */
export const MAX_BIN = 10_000;

const listeners = new Set<() => void>();

function load(): BinItem[] {
  try {
    const v = JSON.parse(localStorage.getItem(STORAGE) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is BinItem => !!x && typeof x === 'object' && typeof (x as BinItem).code === 'string') : [];
  } catch {
    return [];
  }
}

function save(items: BinItem[]): void {
  try {
    if (items.length) localStorage.setItem(STORAGE, JSON.stringify(items));
    else localStorage.removeItem(STORAGE);
  } catch {
    // Storage full or disabled: the bin lasts as long as the page.
  }
  memory = items;
  for (const l of listeners) l();
}

let memory: BinItem[] | undefined;
const current = () => (memory ??= load());

// Another tab changed the bin.
window.addEventListener('storage', (e) => {
  if (e.key !== STORAGE && e.key !== null) return;
  memory = load();
  for (const l of listeners) l();
});

const same = (a: BinItem, b: { code: string; level: string }) => a.code === b.code && a.level === b.level;

export const bin = {
  items: current,
  has: (c: { code: string; level: string }) => current().some((x) => same(x, c)),
  add(item: BinItem): void {
    if (bin.has(item) || current().length >= MAX_BIN) return;
    save([...current(), item]);
  },
  /** Adds the items not in the bin yet, up to its size limit; how many were added. */
  addAll(items: readonly BinItem[]): number {
    const next = [...current()];
    let added = 0;
    for (const i of items) {
      if (next.length >= MAX_BIN) break;
      if (next.some((x) => same(x, i))) continue;
      next.push(i);
      added++;
    }
    if (added) save(next);
    return added;
  },
  remove(c: { code: string; level: string }): void {
    save(current().filter((x) => !same(x, c)));
  },
  clear(): void {
    save([]);
  },
};

/** The bin's items, re-rendering on every change (this tab or another). */
export function useBin(): BinItem[] {
  const [items, setItems] = useState(current);
  useEffect(() => {
    const l = () => setItems(current());
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return items;
}

export const BIN_COLUMNS = ['code', 'term', 'level', 'release', 'ptCode', 'primarySocCode'] as const;

export function binCsv(items: readonly BinItem[]): string {
  return csvText([[...BIN_COLUMNS], ...items.map((i) => BIN_COLUMNS.map((k) => i[k] ?? ''))]);
}

export function binJson(items: readonly BinItem[]): string {
  return JSON.stringify({ researchBin: items.map((i) => Object.fromEntries(BIN_COLUMNS.filter((k) => i[k] !== undefined && i[k] !== '').map((k) => [k, i[k]]))) }, null, 2) + '\n';
}

const ALIASES: Record<string, keyof BinItem> = {
  code: 'code',
  term: 'term',
  name: 'term',
  level: 'level',
  release: 'release',
  version: 'release',
  ptcode: 'ptCode',
  pt_code: 'ptCode',
  primarysoccode: 'primarySocCode',
  primary_soc_code: 'primarySocCode',
};

/** Items from an exported bin (JSON or CSV), or any CSV whose header names `code`; without a header: code[,term]. */
export function parseBinList(text: string): { items: BinItem[]; skipped: number } {
  const src = text.replace(/^\uFEFF/, '').trim();
  const items: BinItem[] = [];
  let skipped = 0;
  const push = (raw: Partial<Record<keyof BinItem, unknown>>) => {
    const code = String(raw.code ?? '').trim();
    if (!/^\d{1,12}$/.test(code)) return void skipped++;
    const str = (v: unknown) => (v === undefined || v === null || String(v).trim() === '' ? undefined : String(v).trim());
    items.push({ code, term: str(raw.term) ?? '', level: str(raw.level)?.toUpperCase() ?? '', release: str(raw.release), ptCode: str(raw.ptCode), primarySocCode: str(raw.primarySocCode) });
  };
  if (src.startsWith('{') || src.startsWith('[')) {
    const v = JSON.parse(src) as unknown;
    const list = Array.isArray(v) ? v : v && typeof v === 'object' && Array.isArray((v as { researchBin?: unknown }).researchBin) ? (v as { researchBin: unknown[] }).researchBin : null;
    if (!list) throw new Error(t('binPage.jsonExpected'));
    for (const x of list) push(typeof x === 'object' && x !== null ? (x as Record<string, unknown>) : { code: x });
  } else {
    const recs = csvRecords(src);
    const head = (recs[0] ?? []).map((h) => ALIASES[h.trim().toLowerCase()] ?? null);
    const hasHeader = head.includes('code');
    const cols: (keyof BinItem | null)[] = hasHeader ? head : ['code', 'term'];
    for (const r of hasHeader ? recs.slice(1) : recs) push(Object.fromEntries(cols.map((c, k) => [c, r[k]]).filter(([c]) => c)));
  }
  if (items.length > MAX_BIN) throw new Error(t('binPage.tooMany', { max: MAX_BIN }));
  return { items, skipped };
}
