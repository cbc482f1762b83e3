/**
 * Next release: realistic, deterministic changes on top of a previous synthetic release.
 * Each entity receives at most one kind of change (keeps expected diffs easy to reason about);
 * the exceptions are implicit ones (LLTs following a demoted PT, the target PT gaining LLTs).
 */
import { Rng, mixSeed } from './prng.ts';
import { Namer, type Focus } from './names.ts';
import {
  CodeAllocator,
  freeze,
  thaw,
  type ReleaseChanges,
  type State,
  type SynLlt,
  type SynPt,
  type SynSmqTerm,
  type SyntheticRelease,
} from './model.ts';
import { addNewPt, addSecondaryLinks, addVariantLlt } from './build.ts';
import { generateSmqs } from './smq.ts';
import type { SyntheticOptions } from './options.ts';
import { FULL_SIZE_CHANGES } from './rates.ts';
import type { Theme } from './words.ts';

function getOrCreate<K, V>(m: Map<K, V>, k: K, mk: () => V): V {
  let v = m.get(k);
  if (v === undefined) m.set(k, (v = mk()));
  return v;
}

export function nextRelease(opts: SyntheticOptions, prev: SyntheticRelease): SyntheticRelease {
  if (opts.version === prev.version) throw new Error(`next version must differ from ${prev.version}`);
  const scale = opts.scale ?? prev.scale;
  const withSmq = opts.withSmq ?? prev.withSmq;
  const V = opts.version;
  const root = new Rng(mixSeed(opts.seed, 'synthetic-release/next', prev.version, V, scale));
  const codes = new CodeAllocator(root.fork('codes'));
  const st: State = thaw(prev, codes);
  const rng = root.fork('changes');
  const namer = new Namer(root.fork('names'));
  const R = FULL_SIZE_CHANGES;

  const cnt = (x: number): number => Math.max(1, Math.round(x));
  const nPt0 = prev.pts.length;
  const nLlt0 = prev.llts.length;
  const nLinks0 = prev.links.hltPt.length;
  const oldPtCodes = prev.pts.map((p) => p.code);
  const oldLltCodes = prev.llts.map((l) => l.code);
  const touchedPt = new Set<number>();
  const touchedLlt = new Set<number>();
  const themeOfPt = (p: SynPt): Theme => st.themeOfSoc(p.socCode);

  const ch: ReleaseChanges = {
    fromVersion: prev.version,
    toVersion: V,
    newHlts: [],
    newPts: [],
    newLlts: [],
    newLltsOnExistingPts: [],
    renamedPts: [],
    renamedLlts: [],
    lltsMadeNonCurrent: [],
    lltsMadeCurrent: [],
    primarySocMoves: [],
    linksAdded: [],
    linksRemoved: [],
    lltsMoved: [],
    demotedPts: [],
    promotedLlts: [],
    smqRowsChanged: 0,
  };

  // PT → LLT codes index, kept up to date.
  const ptLlts = new Map<number, Set<number>>();
  for (const l of st.llts.values()) getOrCreate(ptLlts, l.ptCode, () => new Set()).add(l.code);
  const setLltPt = (l: SynLlt, to: number): void => {
    ptLlts.get(l.ptCode)?.delete(l.code);
    l.ptCode = to;
    getOrCreate(ptLlts, to, () => new Set()).add(l.code);
  };
  const indexLlt = (code: number): void => {
    const l = st.llts.get(code) as SynLlt;
    getOrCreate(ptLlts, l.ptCode, () => new Set()).add(code);
  };
  const multiSocs = [...st.socs.keys()].filter((s) => st.isMultiaxialSoc(s));
  const hltsBySocMap = (): Map<number, number[]> => new Map([...st.socs.keys()].map((s) => [s, st.hltsOfSoc(s)] as const));
  let hltsBySoc = hltsBySocMap();

  // ---- 1. PTs demoted to LLTs ---------------------------------------------------------
  {
    const want = cnt(R.demotedPts * scale);
    let done = 0;
    for (const pc of rng.shuffle(oldPtCodes.slice())) {
      if (done >= want) break;
      if (touchedPt.has(pc)) continue;
      const p = st.pts.get(pc);
      if (!p) continue;
      // Every HLT of the PT must keep at least one other PT.
      if ((st.ptHlts.get(pc) ?? []).some((h) => (st.hltPts.get(h)?.size ?? 0) < 2)) continue;
      const sibs = [...(st.hltPts.get(p.primaryHltCode) ?? [])].filter((x) => x !== pc && !touchedPt.has(x));
      if (sibs.length === 0) continue;
      const q = rng.pick(sibs);
      const moved: number[] = [];
      for (const lc of [...(ptLlts.get(pc) ?? [])].sort((a, b) => a - b)) {
        const l = st.llts.get(lc) as SynLlt;
        setLltPt(l, q);
        touchedLlt.add(lc);
        if (lc !== pc) moved.push(lc);
      }
      st.removePt(pc);
      touchedPt.add(pc);
      touchedPt.add(q);
      ch.demotedPts.push({ code: pc, toPt: q, movedLlts: moved });
      done++;
    }
  }

  // ---- 2. LLTs promoted to PTs --------------------------------------------------------
  {
    const want = cnt(R.promotedLlts * scale);
    let done = 0;
    for (const lc of rng.shuffle(oldLltCodes.slice())) {
      if (done >= want) break;
      const l = st.llts.get(lc);
      if (!l || l.code === l.ptCode || !l.current || touchedLlt.has(lc)) continue;
      const parent = st.pts.get(l.ptCode);
      if (!parent) continue;
      const hlt = rng.chance(0.6) ? parent.primaryHltCode : rng.pick(hltsBySoc.get(parent.socCode) ?? [parent.primaryHltCode]);
      const hlgt = st.hltHlgts.get(hlt)?.[0] as number;
      const pt: SynPt = {
        code: l.code,
        name: l.name,
        socCode: st.hlgtSoc.get(hlgt) as number,
        primaryHltCode: hlt,
        primaryHlgtCode: hlgt,
      };
      st.addPt(pt);
      const fromPt = l.ptCode;
      setLltPt(l, l.code);
      if (st.isMultiaxialSoc(pt.socCode) && rng.chance(0.3)) addSecondaryLinks(st, rng, pt, multiSocs, hltsBySoc, 1);
      touchedPt.add(l.code);
      touchedLlt.add(l.code);
      ch.promotedLlts.push({ code: l.code, fromPt, hlt });
      done++;
    }
  }

  // ---- 3. new HLTs --------------------------------------------------------------------
  const newHltFocus = new Map<number, Focus>();
  {
    const want = cnt(R.newHlts * scale);
    const hlgtCodes = [...st.hlgts.keys()];
    for (let i = 0; i < want; i++) {
      const hg = rng.pick(hlgtCodes);
      const t = st.themeOfSoc(st.hlgtSoc.get(hg) as number);
      const focus = namer.newFocus(t);
      namer.focus = focus;
      const name = namer.uniqueHltName(t, focus, st.hltNames);
      const code = codes.next();
      st.addHlt({ code, name }, hg);
      newHltFocus.set(code, focus);
      ch.newHlts.push(code);
    }
    hltsBySoc = hltsBySocMap();
  }

  // ---- 4. new PTs (own LLT + 1–4 further LLTs) ------------------------------------------
  {
    const want = cnt(R.newPts * scale);
    const snapshot = [...st.pts.values()];
    for (let i = 0; i < want; i++) {
      const hlt = i < ch.newHlts.length ? (ch.newHlts[i] as number) : rng.pick(snapshot).primaryHltCode;
      const t = st.themeOfSoc(st.hltSoc(hlt));
      namer.focus = newHltFocus.get(hlt) ?? {};
      const pt = addNewPt(st, namer, hlt, t);
      indexLlt(pt.code);
      ch.newPts.push(pt.code);
      ch.newLlts.push(pt.code);
      touchedPt.add(pt.code);
      touchedLlt.add(pt.code);
      const k = rng.int(1, 4);
      for (let j = 0; j < k; j++) {
        const lc = addVariantLlt(st, namer, pt, t, true);
        indexLlt(lc);
        ch.newLlts.push(lc);
        touchedLlt.add(lc);
      }
      if (st.isMultiaxialSoc(pt.socCode) && rng.chance(0.3)) addSecondaryLinks(st, rng, pt, multiSocs, hltsBySoc);
    }
  }

  // ---- 5. new LLTs on existing PTs ----------------------------------------------------
  {
    const want = cnt(R.newLltsOnExistingPts * scale);
    const pool = oldPtCodes.filter((c) => st.pts.has(c));
    namer.focus = {};
    for (let i = 0; i < want; i++) {
      const p = st.pts.get(rng.pick(pool)) as SynPt;
      const lc = addVariantLlt(st, namer, p, themeOfPt(p), true);
      indexLlt(lc);
      ch.newLlts.push(lc);
      ch.newLltsOnExistingPts.push(lc);
      touchedLlt.add(lc);
    }
  }

  const freshName = (old: string, t: Theme): string => namer.uniqueRename(old, t, st.lltNames);

  // ---- 6. PT renames (own LLT follows) -----------------------------------------------
  {
    const want = cnt(R.renamedPtsRate * nPt0);
    let done = 0;
    for (const pc of rng.shuffle(oldPtCodes.slice())) {
      if (done >= want) break;
      const p = st.pts.get(pc);
      if (!p || touchedPt.has(pc)) continue;
      const own = st.llts.get(pc) as SynLlt;
      const from = p.name;
      const to = freshName(from, themeOfPt(p));
      p.name = to;
      own.name = to;
      touchedPt.add(pc);
      touchedLlt.add(pc);
      ch.renamedPts.push({ code: pc, from, to });
      done++;
    }
  }

  // Shuffled pool of untouched, old, non-own LLTs (recomputed per step: touched grows).
  const lltOrder = rng.shuffle(oldLltCodes.slice());
  const nonOwnUntouched = (pred: (l: SynLlt) => boolean): SynLlt[] => {
    const out: SynLlt[] = [];
    for (const c of lltOrder) {
      if (touchedLlt.has(c)) continue;
      const l = st.llts.get(c);
      if (!l || l.code === l.ptCode || !pred(l)) continue;
      out.push(l);
    }
    return out;
  };

  // ---- 7. LLT renames -----------------------------------------------------------------
  {
    const want = cnt(R.renamedLltsRate * nLlt0);
    for (const l of nonOwnUntouched(() => true).slice(0, want)) {
      const p = st.pts.get(l.ptCode) as SynPt;
      const from = l.name;
      l.name = freshName(from, themeOfPt(p));
      touchedLlt.add(l.code);
      ch.renamedLlts.push({ code: l.code, from, to: l.name });
    }
  }

  // ---- 8. current → non-current -----------------------------------------------------
  {
    const pool = nonOwnUntouched((l) => l.current);
    const want = cnt(R.madeNonCurrentRate * pool.length);
    for (const l of pool.slice(0, want)) {
      l.current = false;
      touchedLlt.add(l.code);
      ch.lltsMadeNonCurrent.push(l.code);
    }
  }

  // ---- 9. non-current → current -------------------------------------------------------
  {
    const pool = nonOwnUntouched((l) => !l.current);
    const want = Math.min(Math.ceil(pool.length / 2), cnt(R.madeCurrentRate * nLlt0));
    for (const l of pool.slice(0, want)) {
      l.current = true;
      touchedLlt.add(l.code);
      ch.lltsMadeCurrent.push(l.code);
    }
  }

  const untouchedOldPts = (pred: (p: SynPt) => boolean): SynPt[] => {
    const out: SynPt[] = [];
    for (const c of rng.shuffle(oldPtCodes.slice())) {
      if (touchedPt.has(c)) continue;
      const p = st.pts.get(c);
      if (p && pred(p)) out.push(p);
    }
    return out;
  };

  // ---- 10. primary SOC moves: ~2/3 flag swaps onto an existing path, the rest via a new path --
  {
    const want = cnt(R.primaryMovesRate * nPt0);
    const wantSwaps = Math.round(want * 0.65);
    let done = 0;
    const otherPaths = (p: SynPt): { hlt: number; hlgt: number; soc: number }[] =>
      st.ptPaths(p.code).filter((x) => x.soc !== p.socCode && st.isMultiaxialSoc(x.soc));
    for (const p of untouchedOldPts((x) => st.isMultiaxialSoc(x.socCode) && otherPaths(x).length > 0)) {
      if (done >= wantSwaps) break;
      const fromSoc = p.socCode;
      const target = rng.pick(otherPaths(p));
      p.primaryHltCode = target.hlt;
      p.primaryHlgtCode = target.hlgt;
      p.socCode = target.soc;
      touchedPt.add(p.code);
      ch.primarySocMoves.push({ pt: p.code, fromSoc, toSoc: p.socCode, newPath: false });
      done++;
    }
    for (const p of untouchedOldPts((x) => st.isMultiaxialSoc(x.socCode))) {
      if (done >= want) break;
      const fromSoc = p.socCode;
      const h = addSecondaryLinks(st, rng, p, multiSocs, hltsBySoc, 1)[0];
      if (h === undefined) continue;
      const hg = st.hltHlgts.get(h)?.[0] as number;
      p.primaryHltCode = h;
      p.primaryHlgtCode = hg;
      p.socCode = st.hlgtSoc.get(hg) as number;
      touchedPt.add(p.code);
      ch.primarySocMoves.push({ pt: p.code, fromSoc, toSoc: p.socCode, newPath: true });
      done++;
    }
  }

  // ---- 11. PT↔HLT links added ---------------------------------------------------------
  {
    const want = cnt(R.linksAddedRate * nLinks0);
    let done = 0;
    for (const p of untouchedOldPts((x) => st.isMultiaxialSoc(x.socCode))) {
      if (done >= want) break;
      const added = addSecondaryLinks(st, rng, p, multiSocs, hltsBySoc, 1);
      const h = added[0];
      if (h === undefined) continue;
      touchedPt.add(p.code);
      ch.linksAdded.push({ hlt: h, pt: p.code });
      done++;
    }
  }

  // ---- 12. PT↔HLT links removed (never the primary one, never the last one) ------------
  {
    const want = cnt(R.linksRemovedRate * nLinks0);
    let done = 0;
    for (const p of untouchedOldPts((x) => (st.ptHlts.get(x.code)?.length ?? 0) >= 2)) {
      if (done >= want) break;
      const cands = (st.ptHlts.get(p.code) ?? []).filter(
        (h) => h !== p.primaryHltCode && (st.hltPts.get(h)?.size ?? 0) >= 2,
      );
      if (cands.length === 0) continue;
      const h = rng.pick(cands);
      st.unlinkHltPt(h, p.code);
      touchedPt.add(p.code);
      ch.linksRemoved.push({ hlt: h, pt: p.code });
      done++;
    }
  }

  // ---- 13. LLTs moved to another PT ---------------------------------------------------
  {
    const want = cnt(R.lltsMovedRate * nLlt0);
    const allPts = [...st.pts.keys()];
    for (const l of nonOwnUntouched(() => true).slice(0, want)) {
      const cur = st.pts.get(l.ptCode) as SynPt;
      const sibs = [...(st.hltPts.get(cur.primaryHltCode) ?? [])].filter((x) => x !== cur.code);
      const to = sibs.length > 0 && rng.chance(0.7) ? rng.pick(sibs) : rng.pick(allPts);
      if (to === cur.code) continue;
      const fromPt = l.ptCode;
      setLltPt(l, to);
      touchedLlt.add(l.code);
      ch.lltsMoved.push({ llt: l.code, fromPt, toPt: to });
    }
  }

  // ---- SMQs -----------------------------------------------------------------------------
  if (withSmq) {
    if (st.smqs.length === 0) {
      generateSmqs(st, root.fork('smq'), V, Math.max(3, Math.round(100 * scale)));
    } else {
      ch.smqRowsChanged = updateSmqs(st, rng, V, ch, ptLlts);
    }
  }

  return freeze(st, { version: V, seed: opts.seed, scale, withSmq }, ch);
}

/** Keep SMQ content consistent with the new hierarchy and add some new PTs. Returns rows changed/added. */
function updateSmqs(
  st: State,
  rng: Rng,
  V: string,
  ch: ReleaseChanges,
  ptLlts: Map<number, Set<number>>,
): number {
  const changedSmqs = new Set<number>();
  let n = 0;
  for (const row of st.smqContent) {
    if (row.termLevel === 4 && !st.pts.has(row.termCode)) {
      row.termLevel = 5; // demoted PT
    } else if (row.termLevel === 5 && st.pts.has(row.termCode)) {
      row.termLevel = 4; // promoted LLT
    } else continue;
    row.modifiedVersion = V;
    changedSmqs.add(row.smqCode);
    n++;
  }
  // PT → SMQ memberships (level-4 rows)
  const member = new Map<number, { smq: number; scope: 0 | 1 | 2 }[]>();
  const present = new Set<string>();
  for (const row of st.smqContent) {
    present.add(`${row.smqCode}:${row.termCode}`);
    if (row.termLevel !== 4) continue;
    getOrCreate(member, row.termCode, () => []).push({ smq: row.smqCode, scope: row.scope });
  }
  const add = (r: SynSmqTerm): void => {
    const key = `${r.smqCode}:${r.termCode}`;
    if (present.has(key)) return;
    present.add(key);
    st.smqContent.push(r);
    changedSmqs.add(r.smqCode);
    n++;
  };
  for (const pc of ch.newPts) {
    if (!rng.chance(0.5)) continue;
    const p = st.pts.get(pc) as SynPt;
    const sibs = [...(st.hltPts.get(p.primaryHltCode) ?? [])].filter((x) => x !== pc && member.has(x));
    if (sibs.length === 0) continue;
    const m = rng.pick(member.get(rng.pick(sibs)) ?? []);
    const base = { smqCode: m.smq, category: 'A', weight: 0, status: 'A' as const, addedVersion: V, modifiedVersion: V };
    add({ ...base, termCode: pc, termLevel: 4, scope: m.scope });
    for (const lc of [...(ptLlts.get(pc) ?? [])].sort((a, b) => a - b)) if (lc !== pc) add({ ...base, termCode: lc, termLevel: 5, scope: m.scope });
  }
  for (const s of st.smqs) if (changedSmqs.has(s.code)) s.version = V;
  return n;
}
