// One release's names in memory, column-wise, with a trigram posting list per trigram,
// and its hierarchy (hierarchyIndex.ts: parent/child CSR over every level, every PT path,
// LLTs per PT). Releases never change once imported, so the index is built once and
// answers substring and typo-tolerant lookups in milliseconds — what the shared,
// release-agnostic GIN index could not (it scored tens of thousands of candidates from
// every release per typo query; see bench/results.md) — and a whole code page or subtree
// without SQL (src/services/loaders.ts).
// Measured on the full-size synthetic release (113k concepts, 125k links, 39k PT paths),
// PGlite, shared noisy machine: load ≈ 3–5 s in all (statements: concepts with their two
// name ranks ≈ 1.9 s, of which ≈ 0.8 s the ranks; links ≈ 0.8 s; PT paths ≈ 0.2 s), about
// 35 MB of typed arrays plus ~40 MB of strings and maps on the heap; the hierarchy part is
// under 10 MB of it. Hence the snapshot (snapshot.ts): the built index stored as one value,
// loaded in ≈ 0.5 s (parts() / fromParts() below).
import { retainedBytes } from './retainedBytes.ts';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { Concept } from '../concepts.ts';
import { LEVELS, type Level } from '../levels.ts';
import type { HierarchyItem, RelationshipType } from '../hierarchy.ts';
import { csr, PtPaths, type Csr, type LinkRow, type PtPathColumns, type PtPathRow } from './hierarchyIndex.ts';
import { innerTrigramCodes, trigramCodes } from './trigram.ts';
import { BigramPostings, MAX_BIGRAM_POSTING_BYTES } from './bigramPostings.ts';
import { nextTurn } from '../../runtime/nextTurn.ts';
import { allPathsOf, type PathNodes } from './allPaths.ts';
import { intersectLists, NO_ENTRIES, scoreTrigrams, substringTest, typoScratch, type Postings, type SearchableIndex, type Stamps, type TypoScratch } from './searchable.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

/** Edge type names by (parent level, child level) index: made once, not a new string per item of a subtree. */
const EDGE_NAMES = LEVELS.map((p) => LEVELS.map((c) => `${p}_TO_${c}` as RelationshipType));
const NONE = -2147483648;

interface PathRow {
  level: 'PT' | 'HLT' | 'HLGT';
  code: number;
  hlt_code: number | null;
  hlgt_code: number;
  soc_code: number;
}

interface Row {
  level: Level;
  code: number;
  name: string;
  name_norm: string;
  current: boolean;
  pt_code: number | null;
  primary_soc_code: number | null;
  soc_abbrev: string | null;
  intl_order: number | null;
  /** Rank by (name_norm, code) and by (name, code) in the database's collation. */
  nr?: number;
  ar?: number;
}

interface HierarchyRows {
  links: readonly LinkRow[];
  ptPaths: readonly PtPathRow[];
}

/** Per-entry columns (entry i = the i-th concept row, ordered by level, code). */
export interface EntryColumns {
  level: Uint8Array;
  code: Int32Array;
  ptCode: Int32Array;
  current: Uint8Array;
  primarySoc: Int32Array;
  intlOrder: Int32Array;
  /** Rank by (name_norm, code) in the database's collation (the listing's name order). */
  nameRank: Int32Array;
  trigramCount: Uint16Array;
  name: string[];
  norm: string[];
  seqStart: Int32Array;
  pathHlt: Int32Array;
  pathHlgt: Int32Array;
  pathSoc: Int32Array;
}

/** A non-primary language index's own arrays (ReleaseIndex.languageParts()). */
export interface LanguageParts {
  name: string[];
  norm: string[];
  nameRank: Int32Array;
  trigramCount: Uint16Array;
  seqStart: Int32Array;
  trigrams: Float64Array;
  postStart: Int32Array;
  post: Int32Array;
  seq: Uint16Array | Int32Array;
}

export interface ReleaseIndexParts {
  releaseId: number;
  size: number;
  hasHierarchy: boolean;
  columns: EntryColumns;
  /** Entry → SOC abbreviation (SOCs only). */
  socAbbrev: [number, string][];
  /** Packed trigram (trigram.ts) of each trigram id, by id. */
  trigrams: Float64Array;
  postStart: Int32Array;
  post: Int32Array;
  seq: Uint16Array | Int32Array;
  down: Csr;
  up: Csr;
  ptPaths: PtPathColumns;
  /** LLT entries per PT code as compressed rows: pt[k]'s are entries[start[k] .. start[k + 1]). */
  llts: { pt: Int32Array; start: Int32Array; entries: Int32Array };
}

function allocColumns(n: number): EntryColumns {
  return {
    level: new Uint8Array(n),
    code: new Int32Array(n),
    ptCode: new Int32Array(n),
    current: new Uint8Array(n),
    primarySoc: new Int32Array(n),
    intlOrder: new Int32Array(n),
    nameRank: new Int32Array(n),
    trigramCount: new Uint16Array(n),
    name: new Array<string>(n),
    norm: new Array<string>(n),
    seqStart: new Int32Array(n + 1),
    pathHlt: new Int32Array(n).fill(NONE),
    pathHlgt: new Int32Array(n).fill(NONE),
    pathSoc: new Int32Array(n).fill(NONE),
  };
}

function grow(a: Int32Array, fill: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2).fill(fill);
  b.set(a);
  return b;
}

export class ReleaseIndex implements SearchableIndex {
  readonly size: number;
  readonly level: Uint8Array;
  readonly code: Int32Array;
  readonly ptCode: Int32Array;
  readonly current: Uint8Array;
  readonly name: string[];
  readonly norm: string[];
  /** Distinct trigrams per name (the denominator of similarity). */
  readonly trigramCount: Uint16Array;
  private readonly primarySoc: Int32Array;
  private readonly intlOrder: Int32Array;
  private readonly nameRank: Int32Array;
  /** Entries in listing order, built on first use (listingOrder()). */
  private listing: Int32Array | undefined;
  private readonly socAbbrev = new Map<number, string>();
  private readonly byCode: Map<number, number>[] = LEVELS.map(() => new Map());
  /** Trigram → id; entries holding trigram id: post[postStart[id] .. postStart[id + 1]) (ascending). */
  private readonly trigramIds = new Map<number, number>();
  private postStart: Int32Array = new Int32Array(1);
  private post: Int32Array = new Int32Array(0);
  /** Each name's trigram ids in order (duplicates kept): seq[seqStart[i] .. seqStart[i + 1]). */
  private readonly seqStart: Int32Array;
  private seq: Uint16Array | Int32Array = new Uint16Array(0);
  /** Primary path (HLT, HLGT, SOC codes) of a PT, HLT or HLGT; NONE otherwise. */
  private readonly pathHlt: Int32Array;
  private readonly pathHlgt: Int32Array;
  private readonly pathSoc: Int32Array;
  /** Parent → children and child → parents over every level, each in the SQL path's order. */
  private down: Csr = csr(0, []);
  private up: Csr = csr(0, []);
  private ptPaths = PtPaths.of([]);
  /**
   * A PT code's LLT entries as compressed rows: those of the PT at row `at.get(pt)` are
   * entries[start[k] .. start[k + 1]), current before non-current, by name (its own LLT is moved
   * first on read). Rows, not an array per PT: a snapshot load then makes one map, not 26k arrays.
   */
  private llts: { at: Map<number, number>; start: Int32Array; entries: Int32Array } = { at: new Map(), start: new Int32Array(1), entries: new Int32Array(0) };
  /** Whether hierarchy data was loaded (indexes built from names alone answer search only). */
  hasHierarchy = false;
  /** The language of the names when it is not the release's primary one (forLanguage()). */
  language: string | undefined;
  // Scratch for scoring: a stamp per trigram id marks "seen in this pass" without clearing.
  private readonly stamps: Stamps = { stamp: new Int32Array(0), stampValue: 0 };
  /** Per-query scratch of the typo pass (see search.ts), allocated once. */
  readonly scratch: TypoScratch;
  /** Character-bigram postings for CJK partial matches: built on first need (null: over their byte bound). */
  private bigramBuild: Promise<BigramPostings | null> | undefined;
  private bigramLists: BigramPostings | null | undefined;
  /** Told when the index grows after it was first measured (the cache counts the new size). */
  onGrown: (() => void) | undefined;

  private constructor(
    readonly releaseId: number,
    n: number,
    c: EntryColumns = allocColumns(n),
  ) {
    this.size = n;
    this.level = c.level;
    this.code = c.code;
    this.ptCode = c.ptCode;
    this.current = c.current;
    this.primarySoc = c.primarySoc;
    this.intlOrder = c.intlOrder;
    this.nameRank = c.nameRank;
    this.trigramCount = c.trigramCount;
    this.name = c.name;
    this.norm = c.norm;
    this.seqStart = c.seqStart;
    this.pathHlt = c.pathHlt;
    this.pathHlgt = c.pathHlgt;
    this.pathSoc = c.pathSoc;
    this.scratch = typoScratch(n);
  }

  private sizeEstimate: number | undefined;

  /**
   * Heap the index holds, estimated once: its typed arrays, its strings (UTF-16 plus a header)
   * and its maps (~40 bytes an entry). A language index counts the hierarchy it shares with its
   * release's primary index again: an overestimate, so the budget errs on the safe side.
   */
  approximateBytes(): number {
    if (this.sizeEstimate !== undefined) return this.sizeEstimate;
    let bytes = 0;
    // Typed arrays by the buffers they keep (a snapshot's read is one buffer: retainedBytes.ts).
    const arrays: ArrayBufferView[] = [];
    const walk = (v: unknown, depth: number): void => {
      if (depth > 4 || v === null || v === undefined) return;
      if (ArrayBuffer.isView(v)) arrays.push(v);
      else if (typeof v === 'string') bytes += 24 + 2 * v.length;
      else if (Array.isArray(v)) {
        bytes += 8 * v.length;
        for (const x of v) walk(x, depth + 1);
      } else if (typeof v === 'object') for (const x of Object.values(v)) walk(x, depth + 1);
    };
    walk(this.parts(), 0);
    bytes += retainedBytes(arrays);
    let mapEntries = this.trigramIds.size + this.socAbbrev.size + this.llts.at.size;
    for (const m of this.byCode) mapEntries += m.size;
    bytes += 40 * mapEntries + this.stamps.stamp.byteLength + this.scratch.counts.byteLength + this.scratch.more.byteLength + (this.listing?.byteLength ?? 0);
    bytes += this.bigramLists?.bytes() ?? 0;
    return (this.sizeEstimate = bytes);
  }

  /**
   * Builds the character-bigram postings (bigramPostings.ts) once, for CJK searches; concurrent
   * callers share the build. Afterwards bigrams() answers synchronously. The index's size
   * estimate then includes them, and onGrown tells the cache to count it. `maxBytes`: their
   * bound (tests pass 0 to keep the scan).
   */
  prepareBigrams(maxBytes = MAX_BIGRAM_POSTING_BYTES): Promise<void> {
    this.bigramBuild ??= BigramPostings.build(this.norm, maxBytes).then((lists) => {
      this.bigramLists = lists;
      if (lists) {
        this.sizeEstimate = undefined;
        this.onGrown?.();
      }
      return lists;
    });
    return this.bigramBuild.then(() => undefined);
  }

  /** The bigram postings if built and within their bound; undefined otherwise (scan instead). */
  bigrams(): BigramPostings | undefined {
    return this.bigramLists ?? undefined;
  }

  /** Everything the index holds, as arrays (snapshot.ts writes them as they are). */
  parts(): ReleaseIndexParts {
    const lltPt = new Int32Array(this.llts.at.size);
    for (const [pt, k] of this.llts.at) lltPt[k] = pt;
    return {
      releaseId: this.releaseId,
      size: this.size,
      hasHierarchy: this.hasHierarchy,
      columns: {
        level: this.level, code: this.code, ptCode: this.ptCode, current: this.current, primarySoc: this.primarySoc,
        intlOrder: this.intlOrder, nameRank: this.nameRank, trigramCount: this.trigramCount, name: this.name, norm: this.norm, seqStart: this.seqStart,
        pathHlt: this.pathHlt, pathHlgt: this.pathHlgt, pathSoc: this.pathSoc,
      },
      socAbbrev: [...this.socAbbrev],
      trigrams: Float64Array.from(this.trigramIds.keys()),
      postStart: this.postStart,
      post: this.post,
      seq: this.seq,
      down: this.down,
      up: this.up,
      ptPaths: this.ptPaths.columns(),
      llts: { pt: lltPt, start: this.llts.start, entries: this.llts.entries },
    };
  }

  /**
   * The arrays a code page reads, as they are (no copy, unlike parts(): no trigram list made): what
   * an overlay view (overlayView.ts) answers through for the base entries it takes.
   */
  codePageParts(): {
    columns: EntryColumns;
    socAbbrev: ReadonlyMap<number, string>;
    down: Csr;
    up: Csr;
    ptPaths: PtPaths;
    llts: { at: ReadonlyMap<number, number>; start: Int32Array; entries: Int32Array };
  } {
    return {
      columns: {
        level: this.level, code: this.code, ptCode: this.ptCode, current: this.current, primarySoc: this.primarySoc,
        intlOrder: this.intlOrder, nameRank: this.nameRank, trigramCount: this.trigramCount, name: this.name, norm: this.norm, seqStart: this.seqStart,
        pathHlt: this.pathHlt, pathHlgt: this.pathHlgt, pathSoc: this.pathSoc,
      },
      socAbbrev: this.socAbbrev,
      down: this.down,
      up: this.up,
      ptPaths: this.ptPaths,
      llts: this.llts,
    };
  }

  /** The index from parts() output (snapshot.ts); typed arrays are used as given, not copied. */
  static fromParts(p: ReleaseIndexParts): ReleaseIndex {
    const ix = new ReleaseIndex(p.releaseId, p.size, p.columns);
    const { level, code } = p.columns;
    // Maps are rebuilt: one pass over entries (~10 ms at full size), cheaper than storing hash tables.
    for (let i = 0; i < p.size; i++) ix.byCode[level[i]!]!.set(code[i]!, i);
    for (const [i, a] of p.socAbbrev) ix.socAbbrev.set(i, a);
    // Trigram ids are their positions in insertion order, as build() assigned them.
    p.trigrams.forEach((t, id) => ix.trigramIds.set(t, id));
    ix.postStart = p.postStart;
    ix.post = p.post;
    ix.seq = p.seq;
    ix.stamps.stamp = new Int32Array(p.trigrams.length);
    ix.down = p.down;
    ix.up = p.up;
    ix.ptPaths = PtPaths.fromColumns(p.ptPaths);
    const { pt, start, entries } = p.llts;
    const at = new Map<number, number>();
    for (let k = 0; k < pt.length; k++) at.set(pt[k]!, k);
    ix.llts = { at, start, entries };
    ix.hasHierarchy = p.hasHierarchy;
    return ix;
  }

  /**
   * Builds the index from the release's concept rows and primary paths. The work is cut
   * into slices with a yield between them, so a build (about a second of CPU at full
   * size) never holds up requests being answered meanwhile.
   */
  static async build(releaseId: number, rows: readonly Row[], paths: readonly PathRow[] = [], hier?: HierarchyRows): Promise<ReleaseIndex> {
    const n = rows.length;
    const ix = new ReleaseIndex(releaseId, n);
    for (let i = 0; i < n; i++) {
      const r = rows[i]!;
      const lv = LEVELS.indexOf(r.level);
      ix.level[i] = lv;
      ix.code[i] = r.code;
      ix.ptCode[i] = r.pt_code ?? NONE;
      ix.current[i] = r.current ? 1 : 0;
      ix.primarySoc[i] = r.primary_soc_code ?? NONE;
      ix.intlOrder[i] = r.intl_order ?? NONE;
      ix.nameRank[i] = r.nr ?? 0;
      if (r.soc_abbrev !== null) ix.socAbbrev.set(i, r.soc_abbrev);
      ix.name[i] = r.name;
      ix.norm[i] = r.name_norm;
      ix.byCode[lv]!.set(r.code, i);
    }
    await ix.indexTrigrams();
    // Rows come ordered, so a code's first row is the path pathsOf() calls primary.
    for (const p of paths) {
      const i = ix.find(p.level, p.code);
      if (i < 0 || ix.pathSoc[i] !== NONE) continue;
      ix.pathHlt[i] = p.hlt_code ?? NONE;
      ix.pathHlgt[i] = p.hlgt_code;
      ix.pathSoc[i] = p.soc_code;
    }
    if (hier) ix.addHierarchy(hier, rows);
    return ix;
  }

  /**
   * Trigram postings of the names in `norm`. Pass 1: each name's trigram ids into one flat
   * buffer (a name of L characters has at most L + 2 trigrams), and how many names hold each
   * id. Flat typed arrays, not arrays of arrays: those left hundreds of MB of garbage behind a
   * full-size build. The work is cut into slices with a yield between them.
   */
  private async indexTrigrams(): Promise<void> {
    const n = this.size;
    let bound = 0;
    for (let i = 0; i < n; i++) bound += this.norm[i]!.length + 2;
    const seq = new Int32Array(bound);
    let holders = new Int32Array(1024);
    let lastHolder = new Int32Array(1024).fill(-1);
    let used = 0;
    let ids = 0;
    for (let i = 0; i < n; i++) {
      if (i > 0 && i % 2048 === 0) await nextTurn();
      let distinct = 0;
      for (const t of trigramCodes(this.norm[i]!)) {
        let id = this.trigramIds.get(t);
        if (id === undefined) {
          id = ids++;
          this.trigramIds.set(t, id);
          if (id >= holders.length) {
            holders = grow(holders, 0);
            lastHolder = grow(lastHolder, -1);
          }
        }
        seq[used++] = id;
        if (lastHolder[id] !== i) {
          lastHolder[id] = i;
          holders[id]!++;
          distinct++;
        }
      }
      this.trigramCount[i] = Math.min(distinct, 65535);
      this.seqStart[i + 1] = used;
    }
    // Pass 2: postings as compressed rows (offsets by id), filled in entry order: sorted.
    const postStart = new Int32Array(ids + 1);
    for (let id = 0; id < ids; id++) postStart[id + 1] = postStart[id]! + holders[id]!;
    const post = new Int32Array(postStart[ids]!);
    const fill = postStart.slice(0, ids);
    lastHolder.fill(-1);
    for (let i = 0; i < n; i++) {
      for (let k = this.seqStart[i]!; k < this.seqStart[i + 1]!; k++) {
        const id = seq[k]!;
        if (lastHolder[id] === i) continue;
        lastHolder[id] = i;
        post[fill[id]!++] = i;
      }
    }
    this.postStart = postStart;
    this.post = post;
    // Ids fit 16 bits in any real release (~20k distinct trigrams): half the memory.
    this.seq = ids <= 65536 ? Uint16Array.from(seq.subarray(0, used)) : seq.slice(0, used);
    this.stamps.stamp = new Int32Array(ids);
  }

  /**
   * The index of a release's names in another language (issue 28): its own names, folded
   * names, name ranks and trigram postings; everything else — entry order, codes, hierarchy,
   * paths, LLTs per PT — is the primary index's, shared, not copied. `names[i]`, `norms[i]`
   * and `ranks[i]` belong to the base's entry i. Sibling and synonym orders stay the primary
   * language's.
   */
  static async forLanguage(base: ReleaseIndex, language: string, names: string[], norms: string[], ranks: Int32Array): Promise<ReleaseIndex> {
    const ix = ReleaseIndex.languageShell(base, language, { name: names, norm: norms, nameRank: ranks, trigramCount: new Uint16Array(base.size), seqStart: new Int32Array(base.size + 1) });
    await ix.indexTrigrams();
    return ix;
  }

  /** What a language index holds of its own (snapshot.ts writes a language snapshot of it). */
  languageParts(): LanguageParts {
    return {
      name: this.name, norm: this.norm, nameRank: this.nameRank, trigramCount: this.trigramCount, seqStart: this.seqStart,
      trigrams: Float64Array.from(this.trigramIds.keys()), postStart: this.postStart, post: this.post, seq: this.seq,
    };
  }

  /** The language index from languageParts() output over its release's primary index (snapshot.ts). */
  static languageFromParts(base: ReleaseIndex, language: string, p: LanguageParts): ReleaseIndex {
    const ix = ReleaseIndex.languageShell(base, language, p);
    p.trigrams.forEach((t, id) => ix.trigramIds.set(t, id));
    ix.postStart = p.postStart;
    ix.post = p.post;
    ix.seq = p.seq;
    ix.stamps.stamp = new Int32Array(p.trigrams.length);
    return ix;
  }

  /** A language index's own columns over the base's shared ones, trigram postings not yet set. */
  private static languageShell(base: ReleaseIndex, language: string, own: Pick<EntryColumns, 'name' | 'norm' | 'nameRank' | 'trigramCount' | 'seqStart'>): ReleaseIndex {
    const ix = new ReleaseIndex(base.releaseId, base.size, {
      level: base.level, code: base.code, ptCode: base.ptCode, current: base.current, primarySoc: base.primarySoc,
      intlOrder: base.intlOrder, pathHlt: base.pathHlt, pathHlgt: base.pathHlgt, pathSoc: base.pathSoc, ...own,
    });
    ix.language = language;
    for (let lv = 0; lv < base.byCode.length; lv++) ix.byCode[lv] = base.byCode[lv]!;
    for (const [i, a] of base.socAbbrev) ix.socAbbrev.set(i, a);
    ix.down = base.down;
    ix.up = base.up;
    ix.ptPaths = base.ptPaths;
    ix.llts = base.llts;
    ix.hasHierarchy = base.hasHierarchy;
    return ix;
  }

  /**
   * Parent/child CSR and LLTs per PT from the release's links, ordered per key as the
   * SQL path orders them. Name orders follow the database's collation, so they come as
   * ranks computed by the loading statement (`nr`: by name_norm, code; `ar`: by name, code)
   * and are only compared here as integers.
   */
  private addHierarchy(h: HierarchyRows, rows: readonly Row[]): void {
    const n = this.size;
    const nr = this.nameRank;
    const ar = new Int32Array(n);
    rows.forEach((r, i) => (ar[i] = r.ar ?? 0));
    const down: { from: number; to: number; primary: boolean }[] = [];
    const up: { from: number; to: number; primary: boolean }[] = [];
    for (const r of h.links) {
      const p = this.find(r.pl, r.pc);
      const c = this.find(r.cl, r.cc);
      // The SQL path joins both ends to concept: a dangling link shows nowhere.
      if (p < 0 || c < 0) continue;
      down.push({ from: p, to: c, primary: r.p });
      up.push({ from: c, to: p, primary: r.p });
    }
    const io = (i: number) => (this.intlOrder[i] === NONE ? 2147483647 : this.intlOrder[i]!);
    // childrenOf(): intl_order NULLS LAST, name_norm, code. parentsOf(): is_primary DESC, name.
    down.sort((x, y) => x.from - y.from || io(x.to) - io(y.to) || nr[x.to]! - nr[y.to]!);
    up.sort((x, y) => x.from - y.from || Number(y.primary) - Number(x.primary) || ar[x.to]! - ar[y.to]!);
    this.down = csr(n, down);
    this.up = csr(n, up);
    this.ptPaths = PtPaths.of(h.ptPaths);
    // synonymPages(): current before non-current, then name_norm, code (own LLT first on read).
    const llt = LEVELS.indexOf('LLT');
    const llts: number[] = [];
    for (let i = 0; i < n; i++) if (this.level[i] === llt && this.ptCode[i] !== NONE) llts.push(i);
    llts.sort((x, y) => this.current[y]! - this.current[x]! || nr[x]! - nr[y]!);
    const byPt = new Map<number, number[]>();
    for (const i of llts) {
      const list = byPt.get(this.ptCode[i]!);
      if (list) list.push(i);
      else byPt.set(this.ptCode[i]!, [i]);
    }
    const at = new Map<number, number>();
    const start = new Int32Array(byPt.size + 1);
    const entries = new Int32Array(llts.length);
    for (const [pt, list] of byPt) {
      const k = at.size;
      at.set(pt, k);
      entries.set(list, start[k]!);
      start[k + 1] = start[k]! + list.length;
    }
    this.llts = { at, start, entries };
    this.hasHierarchy = true;
  }

  /** Entries of every level a code exists at, highest level first. */
  byCodeAll(code: number): number[] {
    const out: number[] = [];
    for (const m of this.byCode) {
      const i = m.get(code);
      if (i !== undefined) out.push(i);
    }
    return out;
  }

  private items(i: number, g: Csr, down: boolean, version: string | undefined): HierarchyItem[] {
    const out: HierarchyItem[] = [];
    for (let k = g.start[i]!; k < g.start[i + 1]!; k++) {
      const j = g.to[k]!;
      const [p, c] = down ? [i, j] : [j, i];
      out.push({ relationshipType: EDGE_NAMES[this.level[p]!]![this.level[c]!]!, isPrimary: g.primary[k] === 1, concept: this.concept(j, version) });
    }
    return out;
  }

  /** As childrenOf() in src/domain/hierarchy.ts; each concept carries `version` when given (see concept()). */
  children(level: Level, code: number, version?: string): HierarchyItem[] {
    const i = this.find(level, code);
    return i < 0 ? [] : this.items(i, this.down, true, version);
  }

  /** As parentsOf(): a PT's primary SOC (SOC_TO_PT) first, then its links. */
  parents(level: Level, code: number, version?: string): HierarchyItem[] {
    const i = this.find(level, code);
    if (i < 0) return [];
    const out = this.items(i, this.up, false, version);
    if (level === 'PT' && this.primarySoc[i] !== NONE) {
      const s = this.find('SOC', this.primarySoc[i]!);
      if (s >= 0) out.unshift({ relationshipType: 'SOC_TO_PT', isPrimary: true, concept: this.concept(s, version) });
    }
    return out;
  }

  /** As pathsOf(): every path up to a SOC, primary first (exactly one primary). */
  allPaths(level: Level, code: number): PathNodes[] {
    return allPathsOf(
      {
        find: (l, c) => this.find(l, c),
        ptCodeOf: (i) => this.ptCode[i]!,
        ptPaths: (pt) => this.ptPaths.of(pt),
        ups: (i) => {
          const out: { i: number; p: boolean }[] = [];
          for (let k = this.up.start[i]!; k < this.up.start[i + 1]!; k++) out.push({ i: this.up.to[k]!, p: this.up.primary[k] === 1 });
          return out;
        },
        codeAt: (i) => this.code[i]!,
      },
      level,
      code,
      NONE,
    );
  }

  /** LLT entries of a PT code: its own LLT first, then current before non-current, by name. */
  synonyms(ptCode: number): number[] {
    const k = this.llts.at.get(ptCode);
    if (k === undefined) return [];
    const list = Array.from(this.llts.entries.subarray(this.llts.start[k], this.llts.start[k + 1]));
    const own = list.findIndex((i) => this.code[i] === ptCode);
    return own <= 0 ? list : [list[own]!, ...list.slice(0, own), ...list.slice(own + 1)];
  }

  /**
   * Every entry in the order of a listing without a query (level, intl_order NULLS LAST,
   * name_norm, code: the name part as its database rank), sorted once per index.
   */
  listingOrder(): Int32Array {
    if (!this.listing) {
      const io = (i: number) => (this.intlOrder[i] === NONE ? 2147483647 : this.intlOrder[i]!);
      const order = Int32Array.from({ length: this.size }, (_, i) => i);
      order.sort((a, b) => this.level[a]! - this.level[b]! || io(a) - io(b) || this.nameRank[a]! - this.nameRank[b]!);
      this.listing = order;
    }
    return this.listing;
  }

  /** Every PT path of the release as columns, one row per hierarchy_path row (underNode.ts). */
  pathRows(): PtPathColumns {
    return this.ptPaths.columns();
  }

  static async load(db: Db, releaseId: number): Promise<ReleaseIndex> {
    const [rows, paths, links, ptPaths] = await Promise.all([
      db.$queryRawUnsafe<Row[]>(
        `SELECT level::text AS level, code, name, name_norm, current, pt_code, primary_soc_code, soc_abbrev, intl_order,
                (row_number() OVER (ORDER BY name_norm, code))::int AS nr, (row_number() OVER (ORDER BY name, code))::int AS ar
         FROM concept_at($1) ORDER BY level, code`,
        releaseId,
      ),
      // Primary paths as pathsOf() (src/domain/hierarchy.ts) picks them: of a PT from mdhier,
      // of an HLT and an HLGT along primary links; the lowest (SOC, HLGT, HLT) when several.
      db.$queryRawUnsafe<PathRow[]>(
        `SELECT 'PT' AS level, pt_code AS code, hlt_code, hlgt_code, soc_code FROM hierarchy_path_at($1)
         WHERE is_primary
         UNION ALL
         SELECT 'HLT', g.child_code, g.child_code, g.parent_code, s.parent_code
         FROM hierarchy_link_at($1) g JOIN hierarchy_link_at($1) s ON s.child_level = 'HLGT' AND s.child_code = g.parent_code
         WHERE g.child_level = 'HLT' AND g.is_primary AND s.is_primary
         UNION ALL
         SELECT 'HLGT', child_code, NULL, child_code, parent_code FROM hierarchy_link_at($1)
         WHERE child_level = 'HLGT' AND is_primary
         ORDER BY 1, 2, 5, 4, 3`,
        releaseId,
      ),
      db.$queryRawUnsafe<LinkRow[]>(
        `SELECT parent_level::text AS pl, parent_code AS pc, child_level::text AS cl, child_code AS cc, is_primary AS p
         FROM hierarchy_link_at($1)`,
        releaseId,
      ),
      db.$queryRawUnsafe<PtPathRow[]>(
        `SELECT pt_code AS pt, hlt_code AS hlt, hlgt_code AS hlgt, soc_code AS soc, is_primary AS p FROM hierarchy_path_at($1)
         ORDER BY pt_code, is_primary DESC, soc_code, hlgt_code, hlt_code`,
        releaseId,
      ),
    ]);
    return ReleaseIndex.build(releaseId, rows, paths, { links, ptPaths });
  }

  /** Codes of a concept's primary path, from the SOC down to it; null when it has none or does not exist. */
  primaryPath(level: Level, code: number): { level: Level; code: number }[] | null {
    const self = this.find(level, code);
    if (self < 0) return null;
    if (level === 'SOC') return [{ level, code }];
    const at = level === 'LLT' ? this.find('PT', this.ptCode[self]!) : self;
    if (at < 0 || this.pathSoc[at] === NONE) return null;
    const nodes: { level: Level; code: number }[] = [{ level: 'SOC', code: this.pathSoc[at]! }, { level: 'HLGT', code: this.pathHlgt[at]! }];
    if (level === 'HLGT') return nodes;
    nodes.push({ level: 'HLT', code: this.pathHlt[at]! });
    if (level === 'HLT') return nodes;
    nodes.push({ level: 'PT', code: this.code[at]! });
    if (level === 'LLT') nodes.push({ level: 'LLT', code });
    return nodes;
  }

  levelOf(i: number): Level {
    return LEVELS[this.level[i]!]!;
  }

  // Column reads by entry, as search.ts asks them of a SearchableIndex (an overlay's search view too).
  levelAt(i: number): number {
    return this.level[i]!;
  }
  codeAt(i: number): number {
    return this.code[i]!;
  }
  ptCodeAt(i: number): number {
    return this.ptCode[i]!;
  }
  currentAt(i: number): number {
    return this.current[i]!;
  }
  nameAt(i: number): string {
    return this.name[i]!;
  }
  normAt(i: number): string {
    return this.norm[i]!;
  }
  trigramCountAt(i: number): number {
    return this.trigramCount[i]!;
  }

  /** The release's PT path rows, one segment (underNode.ts). */
  pathSegments(): { rows: PtPathColumns }[] {
    return [{ rows: this.ptPaths.columns() }];
  }

  /** The id of a packed trigram (trigram.ts) among this index's, or undefined (an overlay's search view extends them). */
  trigramIdOf(t: number): number | undefined {
    return this.trigramIds.get(t);
  }

  /** How many trigram ids the index has. */
  trigramIdCount(): number {
    return this.postStart.length - 1;
  }

  /** Trigram ids of entry i's name in order (duplicates kept), as a view of the index's own array. */
  trigramSeq(i: number): Uint16Array | Int32Array {
    return this.seq.subarray(this.seqStart[i]!, this.seqStart[i + 1]!);
  }

  /** Entry of the concept (level, code), or -1. */
  find(level: Level, code: number): number {
    return this.byCode[LEVELS.indexOf(level)]!.get(code) ?? -1;
  }

  /**
   * The concept at entry i, a new object. With `version` it also carries its release's version
   * (the shape the API layers hand around), made in the same literal: a 28k-node subtree then
   * costs one object per node, not a copy per layer.
   */
  concept(i: number): Concept;
  concept<V extends string | undefined>(i: number, version: V): V extends string ? Concept & { version: string } : Concept;
  concept(i: number, version?: string): Concept & { version?: string | undefined } {
    const opt = (v: number) => (v === NONE ? null : v);
    if (this.language !== undefined) {
      return {
        releaseId: this.releaseId, level: this.levelOf(i), code: this.code[i]!, name: this.name[i]!, current: this.current[i] === 1,
        ptCode: opt(this.ptCode[i]!), primarySocCode: opt(this.primarySoc[i]!), socAbbrev: this.socAbbrev.get(i) ?? null,
        intlOrder: opt(this.intlOrder[i]!), version, language: this.language,
      };
    }
    return {
      releaseId: this.releaseId,
      level: this.levelOf(i),
      code: this.code[i]!,
      name: this.name[i]!,
      current: this.current[i] === 1,
      ptCode: opt(this.ptCode[i]!),
      primarySocCode: opt(this.primarySoc[i]!),
      socAbbrev: this.socAbbrev.get(i) ?? null,
      intlOrder: opt(this.intlOrder[i]!),
      version,
    };
  }

  /** A query's distinct trigrams: how many, and the ids of those this release knows. */
  queryTrigrams(text: string): { size: number; ids: number[] } {
    const codes = new Set(trigramCodes(text));
    const ids: number[] = [];
    for (const c of codes) {
      const id = this.trigramIds.get(c);
      if (id !== undefined) ids.push(id);
    }
    return { size: codes.size, ids };
  }


  /** The entries holding trigram id, ascending: a view of the index's own array. */
  postingList(id: number): Int32Array {
    return this.post.subarray(this.postStart[id]!, this.postStart[id + 1]!);
  }

  postings(id: number): Postings {
    return { head: this.postingList(id), tail: NO_ENTRIES };
  }

  /** Every handle of a release index is one of its entries. */
  dropped(_h: number): boolean {
    return false;
  }

  /** A mask of the given trigram ids, for score(). */
  mask(ids: Iterable<number>): Uint8Array {
    const m = new Uint8Array(this.postStart.length - 1);
    for (const id of ids) m[id] = 1;
    return m;
  }

  /**
   * pg_trgm similarity and word_similarity of a query (trigram mask `q` of `qSize` distinct
   * trigrams, some possibly unknown to this release) against entry i, on integer ids.
   */
  score(i: number, q: Uint8Array, qSize: number): { sim: number; full: number } {
    return scoreTrigrams(this.seq, this.seqStart[i]!, this.seqStart[i + 1]!, this.trigramCount[i]!, q, qSize, this.stamps);
  }

  /** Entries whose normalised name contains `q`, ascending; `seen` told each one's name and where `q` first is in it, in that order. */
  containing(q: string, seen?: (name: string, at: number) => void): number[] {
    const inner = innerTrigramCodes(q);
    const out: number[] = [];
    const holds = substringTest(q, seen);
    if (inner.length === 0) {
      // Under three consecutive letters: nothing to look up, scan (still a few ms).
      for (let i = 0; i < this.size; i++) if (holds(this.norm[i]!)) out.push(i);
      return out;
    }
    const ids = inner.map((t) => this.trigramIds.get(t));
    if (ids.some((id) => id === undefined)) return out;
    return intersectLists((ids as number[]).map((id) => this.postings(id)), (i) => holds(this.norm[i]!));
  }
}
