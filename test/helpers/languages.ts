// Language folders for tests (issue 28): a fixture release with every name rewritten, the
// structure untouched, as a licensee's folder of another language would be.
import { miniSpec, type FixtureSpec } from './medascii.ts';

export function translated(version: string, language: string, rename: (name: string) => string, base: FixtureSpec = miniSpec(version)): FixtureSpec {
  const s = base;
  return {
    ...s,
    language,
    socs: s.socs.map(([c, n, a]) => [c, rename(n), a]),
    hlgts: s.hlgts.map(([c, n, x]) => [c, rename(n), x]),
    hlts: s.hlts.map(([c, n, x]) => [c, rename(n), x]),
    pts: s.pts.map(([c, n, soc, h]) => [c, rename(n), soc, h]),
    llts: s.llts.map(([c, n, pt, cur]) => [c, rename(n), pt, cur]),
  };
}

/** German test names: Nausea → Übelkeit, Vomiting → Erbrechen, others "<name> (de)". */
export const GERMAN: Record<string, string> = { Nausea: 'Übelkeit', Vomiting: 'Erbrechen', Headache: 'Kopfschmerzen', 'Feeling sick': 'Übelkeitsgefühl' };
export const german = (n: string) => GERMAN[n] ?? `${n} (de)`;
/** Japanese test names: Nausea → 悪心, Vomiting → 嘔吐, Headache → 頭痛, others "<name>（日本語）". */
export const JAPANESE: Record<string, string> = { Nausea: '悪心', Vomiting: '嘔吐', Headache: '頭痛', 'Throwing up': 'ゲーゲー吐く', 'Feeling sick': '吐き気' };
export const japanese = (n: string) => JAPANESE[n] ?? `${n}（日本語）`;
