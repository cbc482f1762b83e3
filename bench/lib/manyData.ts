// Data of the "many releases" scenario (bench/manyReleases.ts): N consecutive synthetic
// releases, each the generator's realistic next release of the one before, written as
// MedAscii folders, each optionally with a second language. Only the oldest and the
// latest release stay in memory (a full-size release is ~100 MB of objects).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generateRelease, releaseCounts, writeMedAscii, type SyntheticRelease } from '../../tools/synthetic/generate.ts';

export interface ManyData {
  versions: string[];
  /** Per version: the primary (English) folder and, with two languages, the German one. */
  dirs: { version: string; en: string; de?: string }[];
  oldest: SyntheticRelease;
  latest: SyntheticRelease;
  counts: { first: Record<string, number>; last: Record<string, number> };
  generateMs: number;
}

/** 90.0, 90.1, … 90.23: natural order, as releases are ordered. */
export const manyVersions = (n: number) => Array.from({ length: n }, (_, i) => `90.${i}`);

/**
 * A deterministic stand-in translation: a function of the English name only, so a name
 * unchanged between releases is unchanged in the second language too (as real translations
 * are), and a renamed term is renamed in both. Not German, but not English either:
 * every word gets a different ending, which keeps names distinct and searchable.
 */
export function pseudoGerman(name: string): string {
  return name
    .split(' ')
    .map((w) => (w.length <= 3 || !/^[A-Za-z]+$/.test(w) ? w : /e$/.test(w) ? `${w}n` : `${w}ung`))
    .join(' ');
}

/** The same release with every name (SOC, HLGT, HLT, PT, LLT, SMQ) in the pseudo-translation, version file naming German. */
export function translated(r: SyntheticRelease): SyntheticRelease {
  return {
    ...r,
    socs: r.socs.map((x) => ({ ...x, name: pseudoGerman(x.name) })),
    hlgts: r.hlgts.map((x) => ({ ...x, name: pseudoGerman(x.name) })),
    hlts: r.hlts.map((x) => ({ ...x, name: pseudoGerman(x.name) })),
    pts: r.pts.map((x) => ({ ...x, name: pseudoGerman(x.name) })),
    llts: r.llts.map((x) => ({ ...x, name: pseudoGerman(x.name) })),
    smqs: r.smqs.map((x) => ({ ...x, name: pseudoGerman(x.name) })),
  };
}

/** Generates and writes the N releases (and their second language) under `root`. */
export async function writeManyReleases(root: string, n: number, opts: { scale: number; languages: 1 | 2; seed?: number; log?: (s: string) => void }): Promise<ManyData> {
  const t0 = performance.now();
  const versions = manyVersions(n);
  const dirs: ManyData['dirs'] = [];
  let prev: SyntheticRelease | undefined;
  let oldest: SyntheticRelease | undefined;
  for (const version of versions) {
    const r = generateRelease({ seed: opts.seed ?? 42, version, scale: opts.scale, changesFrom: prev });
    const en = path.join(root, version, 'en');
    await writeMedAscii(r, en);
    let de: string | undefined;
    if (opts.languages === 2) {
      de = path.join(root, version, 'de');
      await writeMedAscii(translated(r), de);
      // writeMedAscii names English in meddra_release.asc: the folder's language is read from there.
      await writeFile(path.join(de, 'meddra_release.asc'), Buffer.from(`${version}$German$$$$`, 'latin1'));
    }
    dirs.push({ version, en, de });
    oldest ??= r;
    prev = r;
    opts.log?.(`generated ${version} (${r.llts.length} LLTs)`);
  }
  return {
    versions,
    dirs,
    oldest: oldest!,
    latest: prev!,
    counts: { first: releaseCounts(oldest!), last: releaseCounts(prev!) },
    generateMs: Math.round(performance.now() - t0),
  };
}
