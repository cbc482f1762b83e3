// Stable codes for everything the demo invents, from the reserved range
// 90000000-99999999 (never a MedDRA code). A committed mapping
// (scripts/demo/code-map.json) remembers every code handed out, so re-running
// the build never renumbers anything; a new key gets the next free code of its
// namespace.
import { existsSync, readFileSync } from 'node:fs';

export const NAMESPACES = {
  /** Invented HLGTs. */
  hlgt: { base: 90100000, label: 'HLGT' },
  /** Invented HLTs. */
  hlt: { base: 90200000, label: 'HLT' },
  /** Lexical and lay variant LLTs (current and non-current). */
  llt: { base: 90300000, label: 'variant LLT' },
  /** Terms (PTs and LLTs) new in the made-up release 5.0.1. */
  new: { base: 90400000, label: 'new term in 5.0.1' },
} as const;

export type Namespace = keyof typeof NAMESPACES;
const NAMESPACE_SIZE = 100000;

export const RESERVED_MIN = 90000000;
export const RESERVED_MAX = 99999999;

export function isReserved(code: number): boolean {
  return code >= RESERVED_MIN && code <= RESERVED_MAX;
}

type MapFile = { _comment?: string } & Partial<Record<Namespace, Record<string, number>>>;

export class CodeMap {
  private readonly maps = new Map<Namespace, Map<string, number>>();
  private readonly added: string[] = [];

  constructor(private readonly file: string) {
    const raw: MapFile = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as MapFile) : {};
    for (const ns of Object.keys(NAMESPACES) as Namespace[]) {
      const m = new Map<string, number>();
      const seen = new Set<number>();
      for (const [key, code] of Object.entries(raw[ns] ?? {})) {
        const { base } = NAMESPACES[ns];
        if (!Number.isInteger(code) || code <= base || code >= base + NAMESPACE_SIZE) {
          throw new Error(`${file}: ${ns} code ${code} for ${JSON.stringify(key)} is outside ${base + 1}-${base + NAMESPACE_SIZE - 1}`);
        }
        if (seen.has(code)) throw new Error(`${file}: ${ns} code ${code} is used twice`);
        seen.add(code);
        m.set(key, code);
      }
      this.maps.set(ns, m);
    }
  }

  /** The code for key in namespace ns, handing out the next free one if it is new. */
  get(ns: Namespace, key: string): number {
    const m = this.maps.get(ns)!;
    const k = key.trim().toLowerCase();
    const found = m.get(k);
    if (found !== undefined) return found;
    const { base } = NAMESPACES[ns];
    let next = base + 1;
    for (const c of m.values()) if (c >= next) next = c + 1;
    if (next >= base + NAMESPACE_SIZE) throw new Error(`Namespace ${ns} is full`);
    m.set(k, next);
    this.added.push(`${ns}:${k}=${next}`);
    return next;
  }

  get addedKeys(): readonly string[] {
    return this.added;
  }

  /** Serialised form: namespaces in fixed order, entries sorted by code. */
  toJson(): string {
    const out: Record<string, unknown> = {
      _comment:
        'Codes handed out by scripts/build-demo.ts for invented demo concepts (reserved range 90000000-99999999). Keys are lower-case names. Never edit or reuse a code; remove nothing.',
    };
    for (const ns of Object.keys(NAMESPACES) as Namespace[]) {
      const entries = [...this.maps.get(ns)!.entries()].sort((a, b) => a[1] - b[1]);
      out[ns] = Object.fromEntries(entries);
    }
    return JSON.stringify(out, null, 2) + '\n';
  }
}
