// Demo SMQs: a handful of standardised-query-shaped term groups written by this project
// for the demo releases. They are NOT MedDRA's SMQs (names and descriptions say "Demo"):
// they only exercise the SMQ files (smq_list.asc / smq_content.asc), the import and the
// API — a hierarchical query with sub-SMQs, narrow and broad scopes, and two algorithmic
// queries (a category rule, and a weight threshold).
//
// Terms are named (PT names of the release); each release lists the terms it holds, so an
// SMQ follows its release. Every PT row is followed by its LLTs (term level 5), as in a
// MedDRA distribution. 5.0.1 changes the content on purpose: a term added, a term made
// inactive (MedDRA never deletes SMQ terms: they stay listed with status I) and a new SMQ.
import type { Release } from './model.ts';
import { nameKey } from './text.ts';

/** Publication order of the demo releases (for "from"/"until" below). */
const ORDER = ['4.03', '5.0', '5.0.1'];
const at = (v: string): number => {
  const i = ORDER.indexOf(v);
  if (i < 0) throw new Error(`smqs.ts: unknown demo release ${v}`);
  return i;
};

const NARROW = 2;
const BROAD = 1;

interface TermDef {
  pt: string;
  scope: typeof NARROW | typeof BROAD;
  /** Algorithmic SMQs: A, B, C…; others A. */
  category?: string;
  weight?: number;
  /** First demo release listing the term (default: every release holding the PT). */
  from?: string;
  /** From this release on the term stays listed but inactive (status I). */
  inactiveFrom?: string;
}

interface SmqDef {
  /** Reserved range 90500001-90599999 (the demo's other codes lie below 90500000). */
  code: number;
  name: string;
  level: number;
  description: string;
  /** smq_algorithm: N (none), or an expression over categories (see README, SMQs). */
  algorithm: string;
  /** Sub-SMQs (term level 0). */
  children?: number[];
  terms?: TermDef[];
  /** First demo release with the SMQ (default: all). */
  from?: string;
}

const SOURCE = 'Terminology Explorer demo data (not MedDRA)';
const NOTE = 'Demo query written for the open demo releases; not a MedDRA SMQ and not for case retrieval.';

export const DEMO_SMQS: SmqDef[] = [
  {
    code: 90500001,
    name: 'Demo hepatic disorders (demo SMQ)',
    level: 1,
    description: 'Demo: hepatic disorders, as the union of its two sub-queries. Written for the demo releases; not a MedDRA SMQ.',
    algorithm: 'N',
    children: [90500002, 90500003],
  },
  {
    code: 90500002,
    name: 'Demo liver-related investigations (demo SMQ)',
    level: 2,
    description: 'Demo: abnormal liver tests. Written for the demo releases; not a MedDRA SMQ.',
    algorithm: 'N',
    terms: [
      { pt: 'Alanine aminotransferase increased', scope: NARROW },
      { pt: 'Aspartate aminotransferase increased', scope: NARROW },
      { pt: 'Blood bilirubin increased', scope: NARROW },
      { pt: 'Alkaline phosphatase increased', scope: BROAD },
    ],
  },
  {
    code: 90500003,
    name: 'Demo hepatic failure and injury (demo SMQ)',
    level: 2,
    description: 'Demo: liver failure, necrosis and their signs. Written for the demo releases; not a MedDRA SMQ.',
    algorithm: 'N',
    terms: [
      { pt: 'Hepatic failure', scope: NARROW },
      { pt: 'Hepatic necrosis', scope: NARROW },
      { pt: 'Hepatic hemorrhage', scope: NARROW },
      { pt: 'Ascites', scope: BROAD },
      { pt: 'Chylous ascites', scope: BROAD },
      { pt: 'Encephalopathy', scope: BROAD },
      { pt: 'Portal hypertension', scope: BROAD },
      { pt: 'Hepatic pain', scope: BROAD },
    ],
  },
  {
    code: 90500004,
    name: 'Demo severe cutaneous adverse reactions (demo SMQ)',
    level: 1,
    description: 'Demo: severe skin reactions (narrow) and the rashes that may precede them (broad). Written for the demo releases; not a MedDRA SMQ.',
    algorithm: 'N',
    terms: [
      { pt: 'Stevens-Johnson syndrome', scope: NARROW },
      { pt: 'Toxic epidermal necrolysis', scope: NARROW },
      { pt: 'Erythema multiforme', scope: NARROW },
      { pt: 'Bullous dermatitis', scope: NARROW, from: '5.0.1' },
      { pt: 'Rash maculo-papular', scope: BROAD },
      { pt: 'Rash acneiform', scope: BROAD, inactiveFrom: '5.0.1' },
      { pt: 'Erythroderma', scope: BROAD },
      { pt: 'Skin ulceration', scope: BROAD },
    ],
  },
  {
    code: 90500005,
    name: 'Demo anaphylactic reaction (demo SMQ)',
    level: 1,
    description:
      'Demo, algorithmic: A = anaphylaxis (narrow); B = airway, C = skin and mucosa, D = circulation (broad). A case is in the broad algorithmic search with A, or B and C, or D with B or C. Written for the demo releases; not a MedDRA SMQ.',
    algorithm: 'A or (B and C) or (D and (B or C))',
    terms: [
      { pt: 'Anaphylaxis', scope: NARROW, category: 'A' },
      { pt: 'Bronchospasm', scope: BROAD, category: 'B' },
      { pt: 'Wheezing', scope: BROAD, category: 'B' },
      { pt: 'Stridor', scope: BROAD, category: 'B' },
      { pt: 'Laryngeal edema', scope: BROAD, category: 'B' },
      { pt: 'Urticaria', scope: BROAD, category: 'C' },
      { pt: 'Pruritus', scope: BROAD, category: 'C' },
      { pt: 'Flushing', scope: BROAD, category: 'C' },
      { pt: 'Edema face', scope: BROAD, category: 'C' },
      { pt: 'Hypotension', scope: BROAD, category: 'D' },
    ],
  },
  {
    code: 90500006,
    name: 'Demo drug-induced liver injury score (demo SMQ)',
    level: 1,
    description:
      'Demo, algorithmic with weights: a case is in with category A, or when the weights of the categories it reports add up to 4 or more (each category counted once). Written for the demo releases; not a MedDRA SMQ.',
    algorithm: 'A or WEIGHT >= 4',
    terms: [
      { pt: 'Hepatic failure', scope: NARROW, category: 'A', weight: 3 },
      { pt: 'Alanine aminotransferase increased', scope: BROAD, category: 'B', weight: 2 },
      { pt: 'Aspartate aminotransferase increased', scope: BROAD, category: 'B', weight: 2 },
      { pt: 'Blood bilirubin increased', scope: BROAD, category: 'C', weight: 2 },
      { pt: 'Hepatic pain', scope: BROAD, category: 'D', weight: 1 },
      { pt: 'Ascites', scope: BROAD, category: 'D', weight: 1 },
    ],
  },
  {
    code: 90500007,
    name: 'Demo immune effector cell toxicities (demo SMQ)',
    level: 1,
    description: 'Demo: toxicities of cell therapies; new in the made-up release 5.0.1. Written for the demo releases; not a MedDRA SMQ.',
    algorithm: 'N',
    from: '5.0.1',
    terms: [
      { pt: 'Immune effector cell-associated neurotoxicity syndrome', scope: NARROW },
      { pt: 'Hemophagocytic lymphohistiocytosis', scope: NARROW },
      { pt: 'Cytokine release syndrome', scope: BROAD },
    ],
  },
];

interface ContentRow {
  smqCode: number;
  termCode: number;
  termLevel: 0 | 4 | 5;
  scope: number;
  category: string;
  weight: number;
  status: 'A' | 'I';
}

const rowKey = (r: ContentRow) => `${r.smqCode}:${r.termLevel}:${r.termCode}`;
const rowValue = (r: ContentRow) => `${r.scope}/${r.category}/${r.weight}/${r.status}`;

/** Content of every SMQ present in a release (without version columns). */
function content(r: Release, problems: string[]): { smqs: SmqDef[]; rows: ContentRow[] } {
  const i = at(r.version);
  const ptByName = new Map([...r.pts.values()].map((p) => [nameKey(p.name), p]));
  const lltsOf = new Map<number, number[]>();
  for (const l of r.llts.values()) if (l.code !== l.ptCode) lltsOf.set(l.ptCode, [...(lltsOf.get(l.ptCode) ?? []), l.code]);
  const smqs = DEMO_SMQS.filter((s) => !s.from || at(s.from) <= i);
  const present = new Set(smqs.map((s) => s.code));
  const rows: ContentRow[] = [];
  for (const s of smqs) {
    for (const c of s.children ?? []) {
      if (!present.has(c)) problems.push(`${r.version}: demo SMQ ${s.code} lists sub-SMQ ${c}, absent from the release`);
      rows.push({ smqCode: s.code, termCode: c, termLevel: 0, scope: 0, category: 'S', weight: 0, status: 'A' });
    }
    let listed = 0;
    for (const t of s.terms ?? []) {
      if (t.from && at(t.from) > i) continue;
      const pt = ptByName.get(nameKey(t.pt));
      if (!pt) {
        // Terms CTCAE lacks in a release (e.g. Chylous ascites before 5.0) are simply not listed.
        continue;
      }
      const status = t.inactiveFrom && at(t.inactiveFrom) <= i ? 'I' : 'A';
      const base = { smqCode: s.code, scope: t.scope, category: t.category ?? 'A', weight: t.weight ?? 0, status } as const;
      rows.push({ ...base, termCode: pt.code, termLevel: 4 });
      for (const l of (lltsOf.get(pt.code) ?? []).sort((a, b) => a - b)) rows.push({ ...base, termCode: l, termLevel: 5 });
      listed++;
    }
    if (!listed && !(s.children ?? []).length) problems.push(`${r.version}: demo SMQ ${s.code} has no terms`);
  }
  return { smqs, rows };
}

/**
 * smq_list.asc and smq_content.asc records of every demo release (oldest first), with the
 * version columns computed across releases: a term's addition version is the first demo
 * release listing it, its last-modified version the last one that changed it; an SMQ's
 * version is the last release that changed its definition or content.
 */
export function renderSmqs(releases: Release[], problems: string[]): Map<string, { list: string[]; content: string[] }> {
  const rec = (fields: (string | number)[]) => fields.map(String).join('$') + '$';
  const out = new Map<string, { list: string[]; content: string[] }>();
  const added = new Map<string, string>();
  const modified = new Map<string, { version: string; value: string }>();
  const smqModified = new Map<number, { version: string; value: string }>();
  // Typo guard: every named term is a PT of some demo release.
  const names = new Set(releases.flatMap((x) => [...x.pts.values()].map((p) => nameKey(p.name))));
  for (const t of DEMO_SMQS.flatMap((s) => s.terms ?? [])) if (!names.has(nameKey(t.pt))) problems.push(`demo SMQs: "${t.pt}" is not a PT of any demo release`);
  for (const r of releases) {
    const { smqs, rows } = content(r, problems);
    const contentRows = rows
      .sort((a, b) => a.smqCode - b.smqCode || a.termLevel - b.termLevel || a.termCode - b.termCode)
      .map((x) => {
        const k = rowKey(x);
        if (!added.has(k)) added.set(k, r.version);
        const prev = modified.get(k);
        if (!prev || prev.value !== rowValue(x)) modified.set(k, { version: r.version, value: rowValue(x) });
        return rec([x.smqCode, x.termCode, x.termLevel, x.scope, x.category, x.weight, x.status, added.get(k)!, modified.get(k)!.version]);
      });
    const list = smqs
      .sort((a, b) => a.code - b.code)
      .map((s) => {
        const value = [s.name, s.level, s.description, s.algorithm, ...contentRows.filter((c) => c.startsWith(`${s.code}$`)).map((c) => c.split('$').slice(0, 7).join('$'))].join('|');
        const prev = smqModified.get(s.code);
        if (!prev || prev.value !== value) smqModified.set(s.code, { version: r.version, value });
        // smq_code, smq_name, smq_level, smq_description, smq_source, smq_note, MedDRA_version, status, smq_algorithm
        return rec([s.code, s.name, s.level, s.description, SOURCE, NOTE, smqModified.get(s.code)!.version, 'A', s.algorithm]);
      });
    out.set(r.version, { list, content: contentRows });
  }
  return out;
}

/** README lines (data/demo/README.md, "Demo SMQs"). */
export function smqReadmeLines(releases: Release[]): string[] {
  const L: string[] = [];
  L.push(
    '**These are not MedDRA\'s SMQs.** `smq_list.asc` and `smq_content.asc` hold a few standardised-query-shaped term groups written by this project (`scripts/demo/smqs.ts`), only so that the SMQ import, the `/smqs` endpoints and SMQ comparisons can be tried. Their names and descriptions say "Demo"; they are not reviewed queries and must not be used for case retrieval.',
  );
  L.push('');
  L.push('| code | name | level | algorithm | releases |');
  L.push('|---|---|---:|---|---|');
  for (const s of DEMO_SMQS) {
    const rels = releases.filter((r) => !s.from || at(s.from) <= at(r.version)).map((r) => r.version);
    L.push(`| ${s.code} | ${s.name} | ${s.level} | ${s.algorithm === 'N' ? 'none' : `\`${s.algorithm}\``} | ${rels.join(', ')} |`);
  }
  L.push('');
  L.push(
    '- Sub-SMQs: 90500001 lists 90500002 and 90500003 (term level 0, scope 0, category S). Every PT row is followed by rows for its LLTs (term level 5) with the same scope, category and weight.',
  );
  L.push('- Scopes: 2 = narrow, 1 = broad. Algorithmic SMQs: category A is the narrow scope, B, C, D are broad; 90500006 also gives weights.');
  L.push(
    '- Changes in 5.0.1 (made up): "Bullous dermatitis" added to 90500004 (narrow); "Rash acneiform" made inactive there (status I, still listed, as MedDRA keeps retired SMQ terms); 90500007 is new; the new LLT "Morbilliform rash" joins 90500004 through its PT. 4.03 -> 5.0: "Chylous ascites" (new in CTCAE v5.0) joins 90500003.',
  );
  return L;
}
