/** Synthetic SMQs (smq_list.asc / smq_content.asc). */
import type { Rng } from './prng.ts';
import { decap } from './names.ts';
import type { State, SynSmq, SynSmqTerm } from './model.ts';
import { roman } from './words.ts';

function smqBase(groupName: string): string {
  return groupName.replace(/ \(excl infective\)$/, '').replace(/ NEC$/, '');
}

function uniqueSmqName(st: State, base: string): string {
  let name = `${base} (SMQ)`;
  for (let k = 2; st.smqNames.has(name); k++) name = `${base} ${roman(k)} (SMQ)`;
  st.smqNames.add(name);
  return name;
}

export function ptLltIndex(st: State): Map<number, number[]> {
  const m = new Map<number, number[]>();
  for (const l of st.llts.values()) {
    let a = m.get(l.ptCode);
    if (!a) m.set(l.ptCode, (a = []));
    a.push(l.code);
  }
  for (const a of m.values()) a.sort((x, y) => x - y);
  return m;
}

export function generateSmqs(st: State, rng: Rng, version: string, count: number): void {
  const ptLlts = ptLltIndex(st);
  const allHlts = [...st.hlts.keys()];
  const rich = allHlts.filter((h) => (st.hltPts.get(h)?.size ?? 0) >= 2);
  const candidates = rich.length > 0 ? rich : allHlts;
  const hlgtCodes = [...st.hlgts.keys()];

  const mk = (name: string, level: number, base: string): SynSmq => {
    const smq: SynSmq = {
      code: st.codes.next(),
      name,
      level,
      description: `Synthetic standardised query grouping ${decap(base)} and related terms (generated test data, not a real SMQ).`,
      source: 'Synthetic generator',
      note: '',
      version,
      status: 'A',
      algorithm: 'N',
    };
    st.smqs.push(smq);
    return smq;
  };

  const row = (smqCode: number, termCode: number, termLevel: 0 | 4 | 5, scope: 0 | 1 | 2): SynSmqTerm => ({
    smqCode,
    termCode,
    termLevel,
    scope,
    category: termLevel === 0 ? 'S' : 'A',
    weight: 0,
    status: 'A',
    addedVersion: version,
    modifiedVersion: version,
  });

  const leaf = (level: number, hlt1: number): SynSmq => {
    const base = smqBase(st.hlts.get(hlt1)?.name ?? 'Synthetic');
    const smq = mk(uniqueSmqName(st, base), level, base);
    const sameSoc = st.hltsOfSoc(st.hltSoc(hlt1)).filter((h) => h !== hlt1);
    const extra: number[] = [];
    const nExtra = rng.int(0, 2);
    for (let i = 0; i < nExtra; i++) {
      const pool = rng.chance(0.7) && sameSoc.length > 0 ? sameSoc : candidates;
      const h = rng.pick(pool);
      if (h !== hlt1 && !extra.includes(h)) extra.push(h);
    }
    const narrow = [...(st.hltPts.get(hlt1) ?? [])].sort((a, b) => a - b).slice(0, 60);
    const narrowSet = new Set(narrow);
    const broadSet = new Set<number>();
    for (const h of extra) for (const p of st.hltPts.get(h) ?? []) if (!narrowSet.has(p)) broadSet.add(p);
    const broad = [...broadSet].sort((a, b) => a - b).slice(0, 60);
    for (const [pts, scope] of [
      [narrow, 2],
      [broad, 1],
    ] as const) {
      for (const p of pts) {
        st.smqContent.push(row(smq.code, p, 4, scope));
        for (const l of ptLlts.get(p) ?? []) if (l !== p) st.smqContent.push(row(smq.code, l, 5, scope));
      }
    }
    return smq;
  };

  let made = 0;
  while (made < count) {
    const remaining = count - made;
    if (remaining >= 3 && rng.chance(0.15)) {
      const kids = rng.int(2, Math.min(3, remaining - 1));
      const hg = rng.pick(hlgtCodes);
      const base = smqBase(st.hlgts.get(hg)?.name ?? 'Synthetic');
      const top = mk(uniqueSmqName(st, base), 1, base);
      made++;
      const own = (st.hlgtHlts.get(hg) ?? []).filter((h) => candidates.includes(h));
      const picks = rng.sample(own.length >= kids ? own : candidates, kids);
      for (const h of picks) {
        const child = leaf(2, h);
        made++;
        st.smqContent.push(row(top.code, child.code, 0, 0));
      }
    } else {
      leaf(1, rng.pick(candidates));
      made++;
    }
  }
}
