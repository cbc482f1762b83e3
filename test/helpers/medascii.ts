// Writes small MedAscii folders for tests, consistent by construction (links and
// mdhier derived from one description), so a test can break exactly one thing.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface FixtureSpec {
  version: string;
  language?: string;
  socs: [code: number, name: string, abbrev: string][];
  hlgts: [code: number, name: string, socs: number[]][];
  hlts: [code: number, name: string, hlgts: number[]][];
  pts: [code: number, name: string, primarySoc: number, hlts: number[]][];
  /** Extra LLTs (each PT's own LLT is added automatically). */
  llts: [code: number, name: string, pt: number, current?: boolean][];
  grades?: [code: number, g1: string, g2: string, g3: string, g4: string, g5: string, definition: string][];
}

const rec = (fields: (string | number)[]) => `${fields.join('$')}$`;
const blanks = (n: number) => Array<string>(n).fill('');

export function fixtureFiles(spec: FixtureSpec): Record<string, string[]> {
  const socName = new Map(spec.socs.map(([c, n, a]) => [c, { n, a }]));
  const hlgtOf = new Map(spec.hlgts.map(([c, n, socs]) => [c, { n, socs }]));
  const hltOf = new Map(spec.hlts.map(([c, n, hlgts]) => [c, { n, hlgts }]));
  const mdhier: string[] = [];
  for (const [pt, ptName, primarySoc, hlts] of spec.pts) {
    let primaryDone = false;
    for (const hlt of hlts) {
      const h = hltOf.get(hlt)!;
      for (const hlgt of h.hlgts) {
        const g = hlgtOf.get(hlgt)!;
        for (const soc of g.socs) {
          const s = socName.get(soc)!;
          const primary = soc === primarySoc && !primaryDone;
          if (primary) primaryDone = true;
          mdhier.push(rec([pt, hlt, hlgt, soc, ptName, h.n, g.n, s.n, s.a, '', primarySoc, primary ? 'Y' : 'N']));
        }
      }
    }
  }
  const llts = [
    ...spec.pts.map(([c, n]) => [c, n, c, true] as const),
    ...spec.llts.map(([c, n, pt, cur]) => [c, n, pt, cur ?? true] as const),
  ];
  const files: Record<string, string[]> = {
    'meddra_release.asc': [rec([spec.version, spec.language ?? 'English', '', '', ''])],
    'soc.asc': spec.socs.map(([c, n, a]) => rec([c, n, a, ...blanks(7)])),
    'hlgt.asc': spec.hlgts.map(([c, n]) => rec([c, n, ...blanks(7)])),
    'hlt.asc': spec.hlts.map(([c, n]) => rec([c, n, ...blanks(7)])),
    'pt.asc': spec.pts.map(([c, n, soc]) => rec([c, n, '', soc, ...blanks(7)])),
    'llt.asc': llts.map(([c, n, pt, cur]) => rec([c, n, pt, ...blanks(6), cur ? 'Y' : 'N', ''])),
    'soc_hlgt.asc': spec.hlgts.flatMap(([c, , socs]) => socs.map((s) => rec([s, c]))),
    'hlgt_hlt.asc': spec.hlts.flatMap(([c, , hlgts]) => hlgts.map((g) => rec([g, c]))),
    'hlt_pt.asc': spec.pts.flatMap(([c, , , hlts]) => hlts.map((h) => rec([h, c]))),
    'mdhier.asc': mdhier,
    'intl_ord.asc': spec.socs.map(([c], i) => rec([i + 1, c])),
  };
  if (spec.grades) files['ctcae_grade.asc'] = spec.grades.map((g) => rec(g));
  return files;
}

export interface WriteOptions {
  encoding?: 'latin1' | 'utf8';
  eol?: string;
  /** Rename files, e.g. to upper case, to test case-insensitive lookup. */
  rename?: (name: string) => string;
}

export function writeFixture(spec: FixtureSpec, opts: WriteOptions = {}, dir = mkdtempSync(path.join(tmpdir(), 'medascii-'))): string {
  mkdirSync(dir, { recursive: true });
  const eol = opts.eol ?? '\r\n';
  for (const [name, lines] of Object.entries(fixtureFiles(spec))) {
    // meddra_release.asc often lacks a final newline in real distributions.
    const text = name === 'meddra_release.asc' ? lines.join(eol) : lines.map((l) => l + eol).join('');
    writeFileSync(path.join(dir, opts.rename ? opts.rename(name) : name), Buffer.from(text, opts.encoding ?? 'latin1'));
  }
  return dir;
}

/** Edits one file of a fixture folder line by line (Latin-1 round trip). */
export function editFile(dir: string, name: string, edit: (lines: string[]) => string[]): void {
  const p = path.join(dir, name);
  const lines = readFileSync(p, 'latin1').split('\r\n');
  const trailing = lines.at(-1) === '' ? lines.pop() : undefined;
  const next = edit(lines);
  writeFileSync(p, Buffer.from(next.join('\r\n') + (trailing !== undefined ? '\r\n' : ''), 'latin1'));
}

/** A small but complete release: 3 SOCs, multiaxial PTs, accented names, non-current LLTs. */
export function miniSpec(version = '1.0'): FixtureSpec {
  return {
    version,
    socs: [
      [10017947, 'Gastrointestinal disorders', 'Gastr'],
      [10029205, 'Nervous system disorders', 'Nerv'],
      [10013993, 'Ear and labyrinth disorders', 'Ear'],
    ],
    hlgts: [
      [91000001, 'Gastrointestinal signs and symptoms', [10017947]],
      [91000002, 'Headaches', [10029205]],
      [91000003, 'Inner ear and VIIIth cranial nerve disorders', [10013993]],
      [91000004, 'Neurological disorders NEC', [10029205]],
    ],
    hlts: [
      [92000001, 'Nausea and vomiting symptoms', [91000001]],
      [92000002, 'Diarrhoea (excl infective)', [91000001]],
      [92000003, 'Headaches NEC', [91000002]],
      [92000004, 'Inner ear signs and symptoms', [91000003]],
      [92000005, 'Disturbances in consciousness NEC', [91000004]],
    ],
    pts: [
      [10047700, 'Vomiting', 10017947, [92000001]],
      [10028813, 'Nausea', 10017947, [92000001]],
      [10012735, 'Diarrhoea', 10017947, [92000002]],
      [10019211, 'Headache', 10029205, [92000003]],
      // Multiaxial: primary in one SOC, a secondary path in another.
      [10013573, 'Dizziness', 10029205, [92000005, 92000004]],
      [10027183, "Ménière's-like vertigo", 10013993, [92000004, 92000005]],
    ],
    llts: [
      [93000001, 'Throwing up', 10047700],
      [93000002, 'Emesis', 10047700],
      [93000003, 'Vomiting NOS', 10047700, false],
      [93000004, 'Feeling sick', 10028813],
      [93000005, 'Loose stools', 10012735],
      [93000006, 'Diarrhea', 10012735],
      [93000007, 'Head pain', 10019211],
      [93000008, 'Cephalgia', 10019211],
      [93000009, 'Giddiness', 10013573],
    ],
    grades: [[10047700, 'No intervention', 'Outpatient IV hydration', 'Tube feeding or hospitalization', 'Life-threatening', 'Death', 'Vomiting definition']],
  };
}
