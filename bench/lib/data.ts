// Benchmark data: three chained synthetic releases (90.0 → 90.1 → 90.2, realistic
// changes between each), written as MedAscii folders, and the request inputs derived
// from them (codes, search queries, narratives, a ~100 KB product label).
import path from 'node:path';
import { generateRelease, writeMedAscii, releaseCounts, type SyntheticRelease } from '../../tools/synthetic/generate.ts';

export const VERSIONS = ['90.0', '90.1', '90.2'] as const;

export interface BenchData {
  scale: number;
  dirs: Record<(typeof VERSIONS)[number], string>;
  latest: SyntheticRelease;
  counts: Record<string, Record<string, number>>;
  generateMs: number;
}

export async function writeReleases(root: string, scale: number, seed = 42): Promise<BenchData> {
  const t0 = performance.now();
  const r0 = generateRelease({ seed, version: VERSIONS[0], scale });
  const r1 = generateRelease({ seed, version: VERSIONS[1], scale, changesFrom: r0 });
  const r2 = generateRelease({ seed, version: VERSIONS[2], scale, changesFrom: r1 });
  const dirs = { '90.0': path.join(root, '90.0'), '90.1': path.join(root, '90.1'), '90.2': path.join(root, '90.2') };
  await writeMedAscii(r0, dirs['90.0']);
  await writeMedAscii(r1, dirs['90.1']);
  await writeMedAscii(r2, dirs['90.2']);
  return {
    scale,
    dirs,
    latest: r2,
    counts: { '90.0': releaseCounts(r0), '90.1': releaseCounts(r1), '90.2': releaseCounts(r2) },
    generateMs: Math.round(performance.now() - t0),
  };
}

/** Every `n`-th element, up to `max` of them, starting at an offset (deterministic sampling). */
function sample<T>(xs: readonly T[], max: number, offset = 0): T[] {
  if (xs.length === 0) return [];
  const step = Math.max(1, Math.floor(xs.length / max));
  const out: T[] = [];
  for (let i = offset % step; i < xs.length && out.length < max; i += step) out.push(xs[i]!);
  return out;
}

/** A PT typical of a detail page: several synonyms and more than one path (multiaxial). */
export function detailCode(r: SyntheticRelease): number {
  const llts = new Map<number, number>();
  for (const l of r.llts) llts.set(l.ptCode, (llts.get(l.ptCode) ?? 0) + 1);
  const paths = new Map<number, number>();
  for (const p of r.paths) paths.set(p.ptCode, (paths.get(p.ptCode) ?? 0) + 1);
  const pick = r.pts.find((p) => (llts.get(p.code) ?? 0) >= 4 && (paths.get(p.code) ?? 0) >= 2) ?? r.pts.find((p) => (llts.get(p.code) ?? 0) >= 2) ?? r.pts[0]!;
  return pick.code;
}

/** The SOC with the most PT paths (the widest subtree). */
export function largestSoc(r: SyntheticRelease): { code: number; paths: number } {
  const bySoc = new Map<number, number>();
  for (const p of r.paths) bySoc.set(p.socCode, (bySoc.get(p.socCode) ?? 0) + 1);
  const [code, paths] = [...bySoc.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]!;
  return { code, paths };
}

/** One letter replaced in the middle of the name (a real typo, never at a space). */
export function typo(name: string): string {
  const mid = Math.floor(name.length / 2);
  for (let d = 0; d < name.length; d++) {
    for (const i of [mid + d, mid - d]) {
      const ch = name[i];
      if (i > 0 && i < name.length - 1 && ch && /[a-z]/.test(ch)) {
        const repl = ch === 'e' ? 'a' : ch === 'a' ? 'e' : ch === 'o' ? 'u' : 'e';
        return name.slice(0, i) + repl + name.slice(i + 1);
      }
    }
  }
  return `${name}x`;
}

export interface SearchQueries {
  exact: string[];
  prefix: string[];
  misspelt: string[];
}

/** Distinct queries of each kind: exact LLT names, their first 5 letters, typos of 9+ letter PT names. */
export function searchQueries(r: SyntheticRelease, max: number): SearchQueries {
  const current = r.llts.filter((l) => l.current && l.name.length <= 200);
  const exact = [...new Set(sample(current, max * 2, 7).map((l) => l.name))].slice(0, max);
  const prefixes: string[] = [];
  const seen = new Set<string>();
  for (const l of sample(current, max * 20, 3)) {
    const p = l.name.slice(0, 5);
    if (p.length === 5 && !p.includes(' ') && !seen.has(p.toLowerCase())) {
      seen.add(p.toLowerCase());
      prefixes.push(p);
      if (prefixes.length >= max) break;
    }
  }
  const names = new Set(r.pts.map((p) => p.name.toLowerCase()));
  const misspelt: string[] = [];
  for (const p of sample(r.pts.filter((p) => p.name.length >= 9), max * 2, 5)) {
    const t = typo(p.name);
    if (!names.has(t.toLowerCase())) misspelt.push(t);
    if (misspelt.length >= max) break;
  }
  return { exact, prefix: prefixes, misspelt };
}

/** Short adverse-event narratives, each naming one LLT (POST /classify). */
export function narratives(r: SyntheticRelease, max: number): string[] {
  const templates = [
    (x: string) => `A 54-year-old woman developed ${x} two days after the second dose; it resolved after the drug was stopped.`,
    (x: string) => `Patient reported ${x} on day 3 of treatment and was seen in the outpatient clinic.`,
    (x: string) => `Three weeks into therapy the patient experienced ${x}. No action was taken with the drug.`,
    (x: string) => `The reporter describes ${x} following administration, with recovery within a week.`,
  ];
  return sample(r.llts.filter((l) => l.current), max, 11).map((l, i) => templates[i % templates.length]!(l.name.toLowerCase()));
}

/**
 * A product label of at least `bytes` characters: BOXED WARNING, WARNINGS AND
 * PRECAUTIONS and ADVERSE REACTIONS sections with sentences and bullet lists built
 * from the release's PT and LLT names. `variant` shifts which names are used.
 */
export function productLabel(r: SyntheticRelease, bytes: number, variant = 0): string {
  const pts = r.pts.map((p) => p.name);
  const llts = r.llts.filter((l) => l.current).map((l) => l.name);
  let k = variant * 7919;
  const pt = () => pts[(k = (k + 104_729) % pts.length)]!.toLowerCase();
  const llt = () => llts[(k = (k + 15_485_863) % llts.length)]!.toLowerCase();
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const pct = () => `${(k % 17) + 1}.${k % 10}%`;
  const parts: string[] = [];
  const size = () => parts.reduce((n, s) => n + s.length + 1, 0);

  parts.push('BOXED WARNING', '');
  parts.push(`WARNING: SERIOUS ${pt().toUpperCase()} AND ${pt().toUpperCase()}`);
  parts.push(`Fatal and serious cases of ${pt()} have occurred in patients treated with this product. Monitor patients for signs of ${pt()} and ${llt()}.`);
  for (let i = 0; i < 4; i++) parts.push(`• ${cap(pt())}: discontinue permanently if ${llt()} occurs.`);
  parts.push('', 'WARNINGS AND PRECAUTIONS', '');
  let section = 1;
  while (size() < bytes * 0.35) {
    parts.push(`5.${section++} ${cap(pt())}`);
    parts.push(
      `Cases of ${pt()}, including ${llt()} and ${llt()}, have been reported in ${pct()} of patients. ` +
        `Evaluate patients for ${pt()} before starting treatment and periodically thereafter. ` +
        `If ${llt()} develops, withhold the dose until recovery; resume at a reduced dose.`,
    );
    parts.push(`Signs and symptoms may include:`);
    for (let i = 0; i < 3; i++) parts.push(`  - ${llt()}`);
    parts.push('');
  }
  parts.push('ADVERSE REACTIONS', '');
  parts.push(`The following clinically significant adverse reactions are described elsewhere in the labeling:`);
  for (let i = 0; i < 6; i++) parts.push(`• ${cap(pt())} [see Warnings and Precautions (5.${i + 1})]`);
  parts.push('', '6.1 Clinical Trials Experience', '');
  while (size() < bytes) {
    parts.push(
      `The most common adverse reactions (incidence ≥ 5%) were ${pt()}, ${pt()}, ${llt()} and ${pt()}. ` +
        `Serious adverse reactions occurred in ${pct()} of patients; the most frequent were ${pt()} and ${llt()}. ` +
        `Adverse reactions leading to discontinuation included ${llt()}.`,
    );
    parts.push(`Table ${section++}: Adverse reactions in ≥ 2% of patients`);
    for (let i = 0; i < 8; i++) parts.push(`  ${cap(pt())}    ${pct()}    ${pct()}`);
    parts.push(`Less common adverse reactions:`);
    for (let i = 0; i < 5; i++) parts.push(`• ${cap(llt())}`);
    parts.push('');
  }
  return parts.join('\n');
}

/** A seeded Fisher–Yates shuffle (the same order every run). */
export function shuffle<T>(xs: T[], seed: number): T[] {
  let s = seed >>> 0 || 1;
  const rnd = () => ((s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32);
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

/**
 * Case narratives of at least `chars` characters (POST /identify), each distinct: consecutive
 * event sentences, with the negated and historical findings a real narrative carries.
 */
export function longNarratives(sentences: string[], chars: number): string[] {
  const out: string[] = [];
  let cur: string[] = [];
  let len = 0;
  for (const [i, s] of sentences.entries()) {
    cur.push(s);
    len += s.length + 1;
    if (i % 5 === 2) {
      const extra = i % 2 ? 'There was no evidence of rash or fever at the follow-up visit.' : 'Medical history included hypertension treated since 2015.';
      cur.push(extra);
      len += extra.length + 1;
    }
    if (len >= chars) {
      out.push(cur.join(' '));
      cur = [];
      len = 0;
    }
  }
  return out;
}
