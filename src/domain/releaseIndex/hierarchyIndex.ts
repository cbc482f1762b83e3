// One release's hierarchy in memory beside its names (releaseIndex.ts): parent→child and
// child→parent edges of every level as compressed rows (CSR) over index entries, every
// mdhier path of each PT, and each PT's LLTs. With it a code page (parents, children,
// paths, synonyms) needs no SQL. Orders that depend on the database's collation (names)
// come as integer ranks from the loading statement (releaseIndex.ts), so answers match the
// SQL path byte for byte on PGlite and PostgreSQL alike. Full size (~130k concepts, ~150k links,
// ~40k paths): about 3 MB of typed arrays.
import type { Level } from '../levels.ts';

export interface LinkRow {
  pl: Level;
  pc: number;
  cl: Level;
  cc: number;
  p: boolean;
}

export interface PtPathRow {
  pt: number;
  hlt: number;
  hlgt: number;
  soc: number;
  p: boolean;
}

/** Adjacency lists as CSR: entry i's neighbours are to[start[i] .. start[i + 1]). */
export interface Csr {
  start: Int32Array;
  to: Int32Array;
  primary: Uint8Array;
}

/** Edges already sorted by `from` (and within it, in answer order) into CSR over `n` entries. */
export function csr(n: number, edges: readonly { from: number; to: number; primary: boolean }[]): Csr {
  const start = new Int32Array(n + 1);
  for (const e of edges) start[e.from + 1]!++;
  for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
  const fill = start.slice(0, n);
  const to = new Int32Array(edges.length);
  const primary = new Uint8Array(edges.length);
  // Stable: edges of one entry keep the statement's order.
  for (const e of edges) {
    const k = fill[e.from]!++;
    to[k] = e.to;
    primary[k] = e.primary ? 1 : 0;
  }
  return { start, to, primary };
}

/** PT paths as columns, one row per path (snapshot.ts stores them as they are). */
export interface PtPathColumns {
  pt: Int32Array;
  hlt: Int32Array;
  hlgt: Int32Array;
  soc: Int32Array;
  primary: Uint8Array;
}

/** Every path of each PT (HLT, HLGT, SOC per path), primary first, then by (SOC, HLGT, HLT). */
export class PtPaths {
  private readonly at = new Map<number, number>();
  private readonly count = new Map<number, number>();

  private constructor(private readonly c: PtPathColumns) {
    const pt = c.pt;
    for (let k = 0; k < pt.length; k++) {
      const code = pt[k]!;
      if (!this.at.has(code)) this.at.set(code, k);
      this.count.set(code, (this.count.get(code) ?? 0) + 1);
    }
  }

  /** From the statement's rows, grouped by PT. */
  static of(rows: readonly PtPathRow[]): PtPaths {
    const n = rows.length;
    const c: PtPathColumns = { pt: new Int32Array(n), hlt: new Int32Array(n), hlgt: new Int32Array(n), soc: new Int32Array(n), primary: new Uint8Array(n) };
    rows.forEach((r, k) => {
      c.pt[k] = r.pt;
      c.hlt[k] = r.hlt;
      c.hlgt[k] = r.hlgt;
      c.soc[k] = r.soc;
      c.primary[k] = r.p ? 1 : 0;
    });
    return new PtPaths(c);
  }

  static fromColumns(c: PtPathColumns): PtPaths {
    return new PtPaths(c);
  }

  columns(): PtPathColumns {
    return this.c;
  }

  of(pt: number): { soc: number; hlgt: number; hlt: number; isPrimary: boolean }[] {
    const from = this.at.get(pt);
    if (from === undefined) return [];
    const out = [];
    for (let k = from; k < from + this.count.get(pt)!; k++) {
      out.push({ soc: this.c.soc[k]!, hlgt: this.c.hlgt[k]!, hlt: this.c.hlt[k]!, isPrimary: this.c.primary[k] === 1 });
    }
    return out;
  }
}
