// Reads a CTCAE CSV (v4.03 or v5.0 layout) into terms, SOC codes and grades.
import { readCsvFile } from './csv.ts';
import type { Grade } from './model.ts';
import { socByName, type SocDef } from './socs.ts';
import { cleanText, nameKey } from './text.ts';

export interface CtcaeTerm {
  /** 1-based record number in the CSV (header = 1). */
  record: number;
  code: number;
  soc: SocDef;
  name: string;
  grade: Grade;
  navigationalNote: string;
  change: string;
}

export interface CtcaeFile {
  file: string;
  /** SOC code as printed on the "<SOC> - Other, specify" rows, by SOC code of our table. */
  socs: SocDef[];
  terms: CtcaeTerm[];
  /** Things worth reporting (duplicates dropped, odd values). */
  notes: string[];
}

const OTHER_SPECIFY = /-\s*other,\s*specify\s*$/i;

/**
 * Symbols lost as "?" in the CSV copy of CTCAE v5.0, restored from the
 * published CTCAE text. Only these exact contexts are repaired (and reported);
 * any other "?" is kept and reported.
 */
const LOST_SYMBOL_REPAIRS: [string, string][] = [
  ['hypoxia requiring ? 40% O2', 'hypoxia requiring >=40% O2'], // Cytokine release syndrome, grade 3 (≥)
  ['urinary protein ?ULN', 'urinary protein >=ULN'], // Proteinuria, grade 1 (≥)
  ['BP ?120/80', 'BP >=120/80'], // Hypertension, grade 1 (≥)
  ['symptoms;?additional', 'symptoms; additional'], // Eczema, grade 1 (a lost space)
];

function gradeText(raw: string | undefined): string {
  const t = cleanText(raw ?? '');
  return t === '-' || t === '--' ? '' : t;
}

export function loadCtcae(file: string, label: string): CtcaeFile {
  const rows = readCsvFile(file);
  const header = rows[0];
  if (!header) throw new Error(`${file}: empty CSV`);
  const h = header.map((c) => c.trim());
  const expect: [number, RegExp][] = [
    [0, /code/i],
    [1, /soc/i],
    [2, /term/i],
    [3, /^grade 1/i],
    [4, /^grade 2/i],
    [5, /^grade 3/i],
    [6, /^grade 4/i],
    [7, /^grade 5/i],
    [8, /definition/i],
  ];
  for (const [i, re] of expect) {
    if (!re.test(h[i] ?? '')) throw new Error(`${file}: header column ${i + 1} is ${JSON.stringify(h[i])}, expected ${re}`);
  }
  const navCol = h.findIndex((c) => /navigational/i.test(c));
  const changeCol = h.findIndex((c) => /change/i.test(c));

  const notes: string[] = [];
  if (h.some((c) => c.includes('??'))) notes.push(`${label}: the header's "??" (Grade columns) is a symbol lost in the CSV copy; columns are taken by position and checked by name`);
  const known = new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, navCol, changeCol]);
  const extraValues = new Map<number, Map<string, string[]>>(); // column -> value -> terms
  const blankGrades: string[] = [];
  let nonAscii = 0;
  const repaired: string[] = [];
  const lostLeft: string[] = [];
  const socs = new Map<number, SocDef>();
  const terms: CtcaeTerm[] = [];
  const byCode = new Map<number, CtcaeTerm>();
  const byName = new Map<string, CtcaeTerm>();

  rows.slice(1).forEach((row, idx) => {
    const record = idx + 2;
    if (row.length !== header.length) {
      throw new Error(`${file}: record ${record} has ${row.length} fields, the header ${header.length}`);
    }
    for (const cell of row) for (const ch of cell) if (ch.charCodeAt(0) > 0x7e) nonAscii++;
    row.forEach((cell, i) => {
      let fixed = cell;
      for (const [from, to] of LOST_SYMBOL_REPAIRS) {
        if (fixed.includes(from)) {
          fixed = fixed.split(from).join(to);
          repaired.push(`"${from}" -> "${to}" (${cleanText(row[2] ?? '')})`);
        }
      }
      if (i > 0 && fixed.includes('?')) lostLeft.push(`${cleanText(row[2] ?? '')}: ...${cleanText(fixed.slice(Math.max(0, fixed.indexOf('?') - 25), fixed.indexOf('?') + 25))}...`);
      row[i] = fixed;
    });
    const codeText = (row[0] ?? '').trim();
    if (!/^\d{8}$/.test(codeText)) throw new Error(`${file}: record ${record}: bad MedDRA code ${JSON.stringify(codeText)}`);
    const code = Number(codeText);
    const soc = socByName(cleanText(row[1] ?? ''));
    const name = cleanText(row[2] ?? '');
    if (OTHER_SPECIFY.test(name)) {
      if (code !== soc.code) {
        throw new Error(`${file}: "${name}" carries code ${code}, but ${soc.name} is ${soc.code} in socs.ts`);
      }
      socs.set(soc.code, soc);
      return;
    }
    if (name === '') throw new Error(`${file}: record ${record}: empty term`);
    for (let g = 3; g <= 7; g++) if ((row[g] ?? '').trim() === '') blankGrades.push(`Grade ${g - 2} of ${name}`);
    row.forEach((cell, i) => {
      if (known.has(i) || cell.trim() === '') return;
      const byValue = extraValues.get(i) ?? new Map<string, string[]>();
      extraValues.set(i, byValue);
      byValue.set(cell.trim(), [...(byValue.get(cell.trim()) ?? []), name]);
    });
    const term: CtcaeTerm = {
      record,
      code,
      soc,
      name,
      grade: {
        code,
        grades: [gradeText(row[3]), gradeText(row[4]), gradeText(row[5]), gradeText(row[6]), gradeText(row[7])],
        definition: gradeText(row[8]),
      },
      navigationalNote: navCol >= 0 ? cleanText(row[navCol] ?? '') : '',
      change: changeCol >= 0 ? cleanText(row[changeCol] ?? '') : '',
    };
    const dupCode = byCode.get(code);
    const dupName = byName.get(nameKey(name));
    if (dupCode || dupName) {
      const first = (dupCode ?? dupName)!;
      notes.push(
        `${label}: record ${record} "${name}" (${code}) duplicates the ${dupCode ? 'code' : 'name'} of record ${first.record} "${first.name}" (${first.code}); kept the first`,
      );
      return;
    }
    byCode.set(code, term);
    byName.set(nameKey(name), term);
    terms.push(term);
  });

  notes.push(
    nonAscii
      ? `${label}: ${nonAscii} non-ASCII characters (transliterated where Latin-1 cannot hold them)`
      : `${label}: plain ASCII (symbols such as >= are already spelled out)`,
  );
  if (repaired.length) notes.push(`${label}: symbols lost as "?" in the CSV, restored: ${repaired.join('; ')}`);
  if (lostLeft.length) notes.push(`${label}: other "?" left as is: ${lostLeft.join('; ')}`);
  if (blankGrades.length) notes.push(`${label}: blank instead of "-": ${blankGrades.join(', ')}`);
  for (const [i, byValue] of extraValues) {
    const vals = [...byValue].map(([v, ts]) => `"${v}" (${ts.join(', ')})`).join('; ');
    notes.push(`${label}: column "${h[i]}" is unused by the build; non-empty only in: ${vals}`);
  }
  for (const t of terms) {
    if (!socs.has(t.soc.code)) {
      notes.push(`${label}: SOC ${t.soc.name} has terms but no "Other, specify" row; code taken from socs.ts`);
      socs.set(t.soc.code, t.soc);
    }
  }
  return { file, socs: [...socs.values()].sort((a, b) => a.intlOrder - b.intlOrder), terms, notes };
}
