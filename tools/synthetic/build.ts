/** Building blocks shared by the base generator and the next-release generator. */
import type { Rng } from './prng.ts';
import type { Namer } from './names.ts';
import type { State, SynPt } from './model.ts';
import type { Theme } from './words.ts';

/** Create a PT under `hlt` (primary path through the HLT's first HLGT) with its own LLT. */
export function addNewPt(st: State, namer: Namer, hlt: number, t: Theme, name?: string): SynPt {
  const ptName = name ?? namer.uniquePtName(t, st.lltNames);
  const code = st.codes.next();
  const hlgt = st.hltHlgts.get(hlt)?.[0] as number;
  const pt: SynPt = {
    code,
    name: ptName,
    socCode: st.hlgtSoc.get(hlgt) as number,
    primaryHltCode: hlt,
    primaryHlgtCode: hlgt,
  };
  st.addPt(pt);
  st.addLlt({ code, name: ptName, ptCode: code, current: true });
  return pt;
}

/** Link a PT to 1–3 HLTs in other multiaxial SOCs (one HLT per SOC). */
export function addSecondaryLinks(
  st: State,
  rng: Rng,
  p: SynPt,
  multiSocs: number[],
  hltsBySoc: Map<number, number[]>,
  k?: number,
): number[] {
  const want = k ?? rng.weighted<number>([
    [1, 60],
    [2, 30],
    [3, 10],
  ]);
  const have = st.ptSocs(p.code);
  const socs = rng.sample(
    multiSocs.filter((s) => !have.has(s)),
    want,
  );
  const added: number[] = [];
  for (const s of socs) {
    const pool = hltsBySoc.get(s) ?? [];
    if (pool.length === 0) continue;
    const h = rng.pick(pool);
    if (st.ptHlts.get(p.code)?.includes(h)) continue;
    st.linkHltPt(h, p.code);
    added.push(h);
  }
  return added;
}

/** Add one non-own LLT to PT p with a unique variant name. Returns its code. */
export function addVariantLlt(st: State, namer: Namer, p: SynPt, t: Theme, current: boolean): number {
  const name = namer.uniqueLltName(p.name, t, st.lltNames);
  const code = st.codes.next();
  st.addLlt({ code, name, ptCode: p.code, current });
  return code;
}
