/**
 * Pseudo-medical name generation: PT names per theme, LLT variants of a PT name,
 * HLT / HLGT group names, plus case-insensitive uniqueness registries.
 */
import type { Rng } from './prng.ts';
import {
  ABBREVIATIONS,
  ACCENTED_EPONYMS,
  AGENTS,
  CONDS,
  DIRECTIONS,
  DISEASE_SUFFIXES,
  EPONYM_HEADS,
  EXPOSURE_ROUTES,
  FEELINGS,
  GENERATED_ANALYTE_SUFFIXES,
  IMAGING,
  INJURIES,
  LATERALITY,
  LLT_POST,
  LLT_PRE,
  MEASURES,
  MED_ERRORS,
  ORGANISM_PREFIXES,
  ORGANISM_SUFFIXES,
  PLAIN_EPONYMS,
  POST_QUALS,
  PRE_QUALS,
  PREGNANCY_PATTERNS,
  PROCEDURE_QUALS,
  PROCEDURE_SUFFIXES,
  PRODUCT_PREFIXES,
  SITE_REACTIONS,
  SOCIAL_ISSUES,
  SPECIMENS,
  SUB_ADJS,
  SYMPTOMS,
  THEMES,
  US_SPELLINGS,
  roman,
  type Theme,
} from './words.ts';

export const MAX_NAME_LENGTH = 100;

/** Case-insensitive name registry. */
export class NameSet {
  private readonly s = new Set<string>();
  static key(name: string): string {
    return name.toLowerCase();
  }
  has(name: string): boolean {
    return this.s.has(NameSet.key(name));
  }
  add(name: string): void {
    this.s.add(NameSet.key(name));
  }
  get size(): number {
    return this.s.size;
  }
}

/** Words whose capitalisation must be preserved when they leave the first position. */
const PROPER = new Set<string>([...ACCENTED_EPONYMS, ...PLAIN_EPONYMS, 'Doppler', 'Oddi', 'NOS', 'NEC']);

/** Generated organism names ("Morabacter") keep their capital letter. */
const ORGANISM_RE = new RegExp(`^(${ORGANISM_PREFIXES.join('|')})(${ORGANISM_SUFFIXES.join('|')})$`);

export function cap(s: string): string {
  if (s.length === 0) return s;
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Lower-case the first letter unless the first word is a proper noun / acronym. */
export function decap(s: string): string {
  const first = s.split(/[ '-]/)[0] ?? '';
  if (first.length === 0) return s;
  if (PROPER.has(first) || ORGANISM_RE.test(first)) return s;
  if (first.length >= 2) {
    const c1 = first.charAt(1);
    if (c1 !== c1.toLowerCase()) return s; // ALT, QT, pH-like, CT
  }
  if (s.length >= 2 && s.charAt(1) === '-') return s; // X-ray, C-reactive
  return s.charAt(0).toLowerCase() + s.slice(1);
}

function clean(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Trim at a word boundary so that `s + suffix` fits in MAX_NAME_LENGTH. */
function fit(s: string, reserve = 0): string {
  const max = MAX_NAME_LENGTH - reserve;
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  const sp = cut.lastIndexOf(' ');
  return (sp > 10 ? cut.slice(0, sp) : cut).trim();
}

export function joinCompound(root: string, suffix: string): string {
  if (root.length === 0) return suffix;
  if (root.charAt(root.length - 1) === suffix.charAt(0)) return root + suffix.slice(1);
  return root + suffix;
}

/** root + word with a linking "o" when needed: hepat + renal → hepatorenal, hepat + ase → hepatase. */
export function linkRoot(root: string, word: string): string {
  const first = word.charAt(0);
  if ('aeiou'.includes(first)) return root.replace(/[aeiou]$/, '') + word;
  if (root.endsWith('o')) return root + word;
  return root + 'o' + word;
}

export function plural(word: string): string {
  const lastSpace = word.lastIndexOf(' ');
  const head = lastSpace >= 0 ? word.slice(0, lastSpace + 1) : '';
  const w = lastSpace >= 0 ? word.slice(lastSpace + 1) : word;
  let p: string;
  if (/(sis)$/.test(w)) p = w.slice(0, -2) + 'es';
  else if (/(itis|us|ia|ae|s|x|ch|sh)$/.test(w)) return `${word} conditions`;
  else if (/[^aeiou]y$/.test(w)) p = w.slice(0, -1) + 'ies';
  else p = w + 's';
  return head + p;
}

export interface Focus {
  adj?: string;
  cond?: string;
  part?: string;
}

/**
 * Stateless-ish generator: everything is driven by the Rng passed at construction, so the
 * sequence of calls determines the output.
 */
export class Namer {
  /** Focus words of the HLT currently being filled (makes siblings share vocabulary). */
  focus: Focus = {};

  constructor(private readonly rng: Rng) {}

  // ---- small helpers -------------------------------------------------------------------

  private p<T>(arr: readonly T[]): T {
    return this.rng.pick(arr);
  }
  private c(p: number): boolean {
    return this.rng.chance(p);
  }
  private adj(t: Theme): string {
    if (this.focus.adj !== undefined && this.c(0.5)) return this.focus.adj;
    return t.adjs.length > 0 ? this.p(t.adjs) : this.p(SUB_ADJS);
  }
  private part(t: Theme): string {
    if (this.focus.part !== undefined && this.c(0.45)) return this.focus.part;
    return t.parts.length > 0 ? this.p(t.parts) : 'body';
  }
  private tcond(t: Theme): string {
    if (this.focus.cond !== undefined && this.c(0.35)) return this.focus.cond;
    return t.conds.length > 0 ? this.p(t.conds) : this.p(CONDS);
  }
  private gcond(): string {
    if (this.focus.cond !== undefined && this.c(0.25)) return this.focus.cond;
    return this.p(CONDS);
  }
  private preQ(): string {
    return this.p(PRE_QUALS);
  }
  private compound(t: Theme, suffixes: [string, number][]): string {
    const roots = t.roots.length > 0 ? t.roots : (this.p(THEMES.filter((x) => x.roots.length > 0)) as Theme).roots;
    return joinCompound(this.p(roots), this.rng.weighted(suffixes));
  }
  private eponym(): string {
    return this.c(0.67) ? this.p(ACCENTED_EPONYMS) : this.p(PLAIN_EPONYMS);
  }
  organism(): string {
    return this.p(ORGANISM_PREFIXES) + this.p(ORGANISM_SUFFIXES);
  }
  private analyte(t: Theme, withSpecimen = false): string {
    if (withSpecimen) {
      for (let i = 0; i < 6; i++) {
        const a = this.analyte(t);
        if (!NON_SPECIMEN_MEASURES.has(a)) return a;
      }
    }
    if (this.c(0.25)) {
      const roots = THEMES[22]?.roots ?? ['hepat'];
      return linkRoot(this.p(t.roots.length > 0 ? t.roots : roots), this.p(GENERATED_ANALYTE_SUFFIXES));
    }
    return this.tcond(t);
  }
  private eponymName(t: Theme): string {
    const e = this.eponym();
    const link = this.p(["-like", "-type", "'s", ' ']);
    let head: string;
    const r = this.rng.float();
    if (r < 0.5) head = this.p(EPONYM_HEADS);
    else if (r < 0.75 && t.conds.length > 0) head = this.tcond(t);
    else head = this.compound(t, DISEASE_SUFFIXES);
    return `${e}${link === ' ' ? ' ' : link + ' '}${head}`;
  }

  // ---- PT names --------------------------------------------------------------------------

  /** A raw (not uniquified) PT-style name for a theme. */
  ptName(t: Theme): string {
    // ~1.5% eponyms → ~1% of names carry Latin-1 accents.
    if (this.c(0.015)) return this.finish(this.eponymName(t));
    let s: string;
    switch (t.kind) {
      case 'infection':
        s = this.infection(t);
        break;
      case 'neoplasm':
        s = this.neoplasm(t);
        break;
      case 'congenital':
        s = this.congenital(t);
        break;
      case 'pregnancy':
        s = this.pregnancy(t);
        break;
      case 'general':
        s = this.general(t);
        break;
      case 'investigation':
        s = this.investigation(t);
        break;
      case 'injury':
        s = this.injury(t);
        break;
      case 'procedure':
        s = this.procedure(t);
        break;
      case 'social':
        s = this.social(t);
        break;
      case 'product':
        s = this.product(t);
        break;
      default:
        s = this.disease(t);
    }
    return this.finish(s);
  }

  private finish(s: string): string {
    return cap(fit(clean(s), 12));
  }

  private disease(t: Theme): string {
    const k = this.rng.weighted<number>([
      [0, 22],
      [1, 18],
      [2, 12],
      [3, 6],
      [4, 14],
      [5, 3],
      [6, 5],
      [7, 4],
    ]);
    switch (k) {
      case 0: {
        // [Q] adj [sub] cond
        const q = this.c(0.45) ? this.preQ() + ' ' : '';
        const sub = this.c(0.3) ? this.p(SUB_ADJS) + ' ' : '';
        return `${q}${this.adj(t)} ${sub}${this.gcond()}`;
      }
      case 1: {
        const comp = this.compound(t, DISEASE_SUFFIXES);
        const r = this.rng.float();
        if (r < 0.35) return comp;
        if (r < 0.75) return `${this.preQ()} ${comp}`;
        return `${comp} ${this.p(POST_QUALS)}`;
      }
      case 2: {
        const lat = this.c(0.25) ? this.p(LATERALITY) + ' ' : '';
        return `${lat}${this.part(t)} ${this.p(SYMPTOMS)}`;
      }
      case 3: {
        const lat = this.c(0.3) ? this.p(LATERALITY) + ' ' : '';
        return `${this.gcond()} of ${lat}${this.part(t)}`;
      }
      case 4: {
        const r = this.rng.float();
        if (r < 0.5) return `${this.preQ()} ${this.tcond(t)}`;
        if (r < 0.8) return `${this.adj(t)} ${this.tcond(t)}`;
        return `${this.tcond(t)} ${this.p(POST_QUALS)}`;
      }
      case 5:
        return `${this.adj(t)} function ${this.p(['decreased', 'impaired', 'abnormal', 'increased', 'disturbance'])}`;
      case 6: {
        const r = this.rng.float();
        if (r < 0.4) return `${this.adj(t)} ${this.gcond()} syndrome`;
        if (r < 0.7) return `${this.compound(t, DISEASE_SUFFIXES)} syndrome`;
        return `${this.preQ()} ${this.adj(t)} syndrome`;
      }
      default: {
        // two-organ terms: "Hepatorenal oedema" style
        const other = this.p(THEMES.filter((x) => x.kind === 'disease' && x.roots.length > 0 && x !== t));
        const a = this.p(t.roots.length > 0 ? t.roots : other.roots);
        const single = other.adjs.filter((x) => !x.includes(' '));
        const b = single.length > 0 ? this.p(single) : this.p(SUB_ADJS);
        return `${linkRoot(a, b)} ${this.gcond()}`;
      }
    }
  }

  private infection(t: Theme): string {
    const k = this.rng.weighted<number>([
      [0, 10],
      [1, 6],
      [2, 8],
      [3, 6],
      [4, 5],
      [5, 8],
      [6, 3],
    ]);
    switch (k) {
      case 0:
        return `${this.organism()} infection`;
      case 1:
        return `${this.organism()} ${this.part(t)} infection`;
      case 2:
        return `${this.adj(t)} ${this.part(t)} infection`;
      case 3:
        return `${this.adj(t)} ${this.tcond(t)}`;
      case 4:
        return `${this.organism()} ${this.tcond(t)}`;
      case 5: {
        const other = this.p(THEMES.filter((x) => x.kind === 'disease' && x.roots.length > 0));
        const comp = joinCompound(this.p(other.roots), 'itis');
        return `${this.adj(t)} ${comp}`;
      }
      default:
        return `${this.part(t)} ${this.p(['abscess', 'infection', 'cellulitis', 'sepsis', 'colonisation'])} ${this.p(POST_QUALS)}`;
    }
  }

  private neoplasm(t: Theme): string {
    const k = this.rng.weighted<number>([
      [0, 10],
      [1, 8],
      [2, 6],
      [3, 3],
      [4, 2],
      [5, 4],
      [6, 6],
      [7, 2],
    ]);
    switch (k) {
      case 0:
        return `${this.part(t)} ${this.tcond(t)}`;
      case 1:
        return `${this.adj(t)} ${this.tcond(t)} of ${this.part(t)}`;
      case 2:
        return `${this.preQ()} ${this.adj(t)} ${this.part(t)} ${this.tcond(t)}`;
      case 3:
        return `${this.part(t)} ${this.tcond(t)} stage ${roman(this.rng.int(1, 4))}`;
      case 4:
        return `metastases to ${this.part(t)}`;
      case 5:
        return `${this.part(t)} neoplasm ${this.p(['benign', 'malignant', 'of uncertain behaviour'])}`;
      case 6: {
        const comp = joinCompound(this.p(t.roots), this.p(['oma', 'osarcoma', 'oblastoma', 'omatosis']));
        return this.c(0.5) ? `${comp} of ${this.part(t)}` : `${this.adj(t)} ${comp}`;
      }
      default:
        return `${this.part(t)} cancer ${this.p(['recurrent', 'metastatic', 'stage 0', 'in remission', 'refractory'])}`;
    }
  }

  private congenital(t: Theme): string {
    const k = this.rng.weighted<number>([
      [0, 8],
      [1, 6],
      [2, 4],
      [3, 5],
      [4, 4],
      [5, 2],
      [6, 3],
    ]);
    switch (k) {
      case 0:
        return `congenital ${this.part(t)} ${this.tcond(t)}`;
      case 1:
        return `${this.part(t)} ${this.tcond(t)}`;
      case 2:
        return `${this.adj(t)} ${this.gcond()} syndrome`;
      case 3: {
        const other = this.p(THEMES.filter((x) => x.kind === 'disease' && x.roots.length > 0));
        return `${this.p(['hereditary', 'familial', 'congenital'])} ${this.compound(other, DISEASE_SUFFIXES)}`;
      }
      case 4: {
        const roots = this.p(THEMES.filter((x) => x.roots.length > 0)).roots;
        return `hereditary ${linkRoot(this.p(roots), this.p(GENERATED_ANALYTE_SUFFIXES))} deficiency`;
      }
      case 5:
        return `${this.eponym()} syndrome`;
      default:
        return `chromosome ${this.rng.int(1, 22)}${this.p(['p', 'q'])} ${this.p(['deletion', 'duplication', 'microdeletion', 'inversion', 'translocation'])}`;
    }
  }

  private pregnancy(t: Theme): string {
    const r = this.rng.float();
    if (r < 0.5) {
      const pat = this.p(PREGNANCY_PATTERNS);
      const c = this.c(0.5) ? this.gcond() : this.p(THEMES[this.rng.int(2, 17)]?.conds ?? CONDS);
      return pat.replace('{c}', c);
    }
    if (r < 0.8) return `${this.adj(t)} ${this.gcond()}`;
    return `${this.tcond(t)} ${this.p(POST_QUALS)}`;
  }

  private general(t: Theme): string {
    const r = this.rng.float();
    if (r < 0.55) return `${this.part(t)} ${this.p(SITE_REACTIONS)}`;
    if (r < 0.6) return `feeling ${this.p(FEELINGS)}`;
    if (r < 0.8) return `${this.preQ()} ${this.tcond(t)}`;
    if (r < 0.92) return `${this.adj(t)} ${this.p(SYMPTOMS)}`;
    return `${this.tcond(t)} ${this.p(POST_QUALS)}`;
  }

  private investigation(t: Theme): string {
    const dir = (): string => this.rng.weighted(DIRECTIONS);
    const k = this.rng.weighted<number>([
      [0, 10],
      [1, 8],
      [2, 6],
      [3, 5],
      [4, 5],
      [5, 2],
      [6, 2],
      [7, 2],
    ]);
    switch (k) {
      case 0:
        return `${this.p(SPECIMENS)} ${this.analyte(t, true)} ${dir()}`;
      case 1:
        return `${this.analyte(t)} ${dir()}`;
      case 2:
        return `${this.adj(t)} ${this.p(MEASURES)} ${dir()}`;
      case 3:
        return `${this.p(IMAGING)} ${this.part(t)} ${this.p(['abnormal', 'normal', 'inconclusive'])}`;
      case 4:
        return `${this.analyte(t, true)} ${this.p(SPECIMENS)} ${this.p(['present', 'absent', 'positive', 'negative', 'increased', 'decreased'])}`;
      case 5:
        return `${this.organism()} test ${this.p(['positive', 'negative', 'inconclusive'])}`;
      case 6:
        return `${this.analyte(t, true)}/${this.analyte(t, true)} ratio ${dir()}`;
      default:
        return `electro${this.p(['cardio', 'encephalo', 'myo', 'retino', 'oculo', 'gastro'])}gram ${this.p(['abnormal', 'normal', 'change', 'amplitude decreased', 'interval prolonged'])}`;
    }
  }

  private injury(t: Theme): string {
    const k = this.rng.weighted<number>([
      [0, 12],
      [1, 3],
      [2, 2],
      [3, 2],
      [4, 1],
      [5, 1],
      [6, 5],
      [7, 2],
      [8, 3],
    ]);
    switch (k) {
      case 0: {
        const lat = this.c(0.25) ? this.p(LATERALITY) + ' ' : '';
        return `${lat}${this.part(t)} ${this.p(INJURIES)}`;
      }
      case 1:
        return `${this.p(AGENTS)} poisoning`;
      case 2:
        return `${this.p(AGENTS)} toxicity`;
      case 3:
        return `${this.p(['accidental', 'intentional', 'occupational'])} ${this.p(['overdose', 'exposure', 'ingestion', 'misuse'])} of ${this.p(AGENTS)}`;
      case 4:
        return `exposure via ${this.p(EXPOSURE_ROUTES)}`;
      case 5:
        return this.p(MED_ERRORS);
      case 6:
        return `${this.p(['procedural', 'post procedural', 'postoperative', 'intraoperative'])} ${this.gcond()}`;
      case 7:
        return `${this.part(t)} procedural complication`;
      default:
        return `${this.adj(t)} ${this.p(INJURIES)}`;
    }
  }

  private procedure(t: Theme): string {
    const k = this.rng.weighted<number>([
      [0, 14],
      [1, 14],
      [2, 5],
      [3, 4],
      [4, 2],
    ]);
    switch (k) {
      case 0: {
        const comp = this.compound(t, PROCEDURE_SUFFIXES);
        return this.c(0.5) ? `${this.p(PROCEDURE_QUALS)} ${comp}` : comp;
      }
      case 1:
        return `${this.part(t)} ${this.tcond(t)}`;
      case 2:
        return `${this.adj(t)} ${this.tcond(t)}`;
      case 3:
        return `${this.p(PROCEDURE_QUALS)} ${this.part(t)} ${this.tcond(t)}`;
      default: {
        const other = this.p(THEMES.filter((x) => x.kind === 'disease'));
        return `${this.p(other.conds)} ${this.p(['prophylaxis', 'therapy', 'management', 'treatment'])}`;
      }
    }
  }

  private social(t: Theme): string {
    const r = this.rng.float();
    if (r < 0.55) return `${this.adj(t)} ${this.p(SOCIAL_ISSUES)}`;
    if (r < 0.65) return `loss of ${this.part(t)}`;
    if (r < 0.85) return `${this.part(t)} ${this.p(SOCIAL_ISSUES)}`;
    return `${this.adj(t)} ${this.p(SOCIAL_ISSUES)} in ${this.part(t)}`;
  }

  private product(t: Theme): string {
    const r = this.rng.float();
    if (r < 0.35) return `${this.p(PRODUCT_PREFIXES)} ${this.tcond(t)}`;
    if (r < 0.7) return `${this.part(t)} ${this.tcond(t)}`;
    if (r < 0.9) return `${this.p(PRODUCT_PREFIXES)} ${this.part(t)} ${this.tcond(t)}`;
    return `product ${this.adj(t)} issue`;
  }

  // ---- uniqueness-aware entry points ---------------------------------------------------

  /** A PT name unique in `taken` (registered): retries, then a kind-appropriate qualifier, then a numeral. */
  uniquePtName(t: Theme, taken: NameSet): string {
    for (let i = 0; i < 8; i++) {
      const cand = this.ptName(t);
      if (!taken.has(cand)) {
        taken.add(cand);
        return cand;
      }
    }
    return this.disambiguate(this.ptName(t), t, taken);
  }

  /** A unique non-own LLT name for a PT (registered). */
  uniqueLltName(ptName: string, t: Theme, taken: NameSet): string {
    for (let i = 0; i < 8; i++) {
      const cand = this.lltVariant(ptName, t);
      if (!taken.has(cand)) {
        taken.add(cand);
        return cand;
      }
    }
    return this.disambiguate(this.lltVariant(ptName, t), t, taken);
  }

  /** A unique new name for a renamed PT / LLT (registered). */
  uniqueRename(old: string, t: Theme, taken: NameSet): string {
    for (let i = 0; i < 8; i++) {
      const cand = this.lltVariant(old, t, true);
      if (cand !== old && !taken.has(cand)) {
        taken.add(cand);
        return cand;
      }
    }
    return this.disambiguate(this.lltVariant(old, t, true), t, taken);
  }

  uniqueHlgtName(t: Theme, taken: NameSet): string {
    for (let i = 0; i < 8; i++) {
      const cand = this.hlgtName(t);
      if (!taken.has(cand)) {
        taken.add(cand);
        return cand;
      }
    }
    return uniquify(this.hlgtName(t), taken);
  }

  uniqueHltName(t: Theme, f: Focus, taken: NameSet): string {
    for (let i = 0; i < 8; i++) {
      const cand = this.hltName(t, f);
      if (!taken.has(cand)) {
        taken.add(cand);
        return cand;
      }
    }
    return uniquify(this.hltName(t, f), taken);
  }

  /** Qualify a colliding term name in a way that suits its theme; numerals as last resort. */
  private disambiguate(base: string, t: Theme, taken: NameSet): string {
    const lower = base.toLowerCase();
    for (let i = 0; i < 6; i++) {
      const [how, q] = this.fallbackQualifier(t);
      if (lower.includes(q.toLowerCase())) continue;
      const cand = how === 'pre' ? cap(`${q} ${decap(fit(base, q.length + 1))}`) : `${fit(base, q.length + 1)} ${q}`;
      if (!taken.has(cand)) {
        taken.add(cand);
        return cand;
      }
    }
    return uniquify(base, taken);
  }

  private fallbackQualifier(t: Theme): ['pre' | 'post', string] {
    switch (t.kind) {
      case 'neoplasm':
        return ['post', this.p(['stage I', 'stage II', 'stage III', 'stage IV', 'recurrent', 'metastatic', 'in remission', 'refractory'])];
      case 'congenital':
        return this.c(0.5)
          ? ['pre', this.p(['familial', 'hereditary', 'sporadic', 'isolated', 'syndromic'])]
          : ['post', this.p(['type 1', 'type 2', 'type 3', 'with other anomalies', 'without other anomalies'])];
      case 'investigation':
        return this.c(0.6)
          ? ['pre', this.p(SPECIMENS)]
          : ['post', this.p(['on repeat testing', 'at screening', 'on point-of-care test', 'by immunoassay', 'by microscopy'])];
      case 'procedure':
        return ['pre', this.p(PROCEDURE_QUALS)];
      case 'injury':
        return this.c(0.6)
          ? ['pre', this.p(LATERALITY)]
          : ['pre', this.p(['accidental', 'occupational', 'sports', 'domestic', 'traffic-related'])];
      case 'social':
        return ['pre', this.p(['chronic', 'recent', 'long-standing', 'childhood', 'severe', 'temporary'])];
      case 'product':
        return ['post', this.p(['during storage', 'during use', 'on receipt', 'after preparation', 'in transit'])];
      default:
        return this.c(0.6) ? ['post', this.p(POST_QUALS)] : ['pre', this.preQ()];
    }
  }

  // ---- LLT variants ----------------------------------------------------------------------

  /**
   * One candidate LLT name derived from a PT name (may collide; callers retry). With
   * `rename`, only light edits (spelling, ordering, qualifiers) — no NOS, no unrelated synonym.
   */
  lltVariant(ptName: string, t: Theme, rename = false): string {
    const k = this.rng.weighted<string>([
      ['nos', rename ? 0 : 5],
      ['pre', 11],
      ['post', 8],
      ['us', 10],
      ['reorder', 8],
      ['abbrev', 6],
      ['special', 10],
      ['synonym', rename ? 0 : 12],
      ['combo', 6],
    ]);
    const kind = t.kind;
    const clinical = kind !== 'investigation' && kind !== 'procedure' && kind !== 'social' && kind !== 'product';
    const pre = (): string => {
      if (kind === 'investigation') return this.p(['new', 'isolated', 'transient', 'persistent', 'mild', 'marked', 'borderline']);
      if (kind === 'procedure') return this.p(PROCEDURE_QUALS);
      if (kind === 'social' || kind === 'product') return this.p(['recurrent', 'suspected', 'reported', 'ongoing', 'recent']);
      if (kind === 'injury') return this.p([...LATERALITY, 'accidental', 'minor', 'major', 'superficial', 'deep', 'old', 'recent']);
      return this.c(0.5) ? this.p(LLT_PRE) : this.preQ();
    };
    const post = (): string => {
      if (kind === 'investigation') return this.p(['NOS', 'on repeat testing', 'at screening', 'confirmed', 'transient', 'persistent']);
      if (kind === 'procedure') return this.p(['NOS', 'procedure', 'operation', 'surgery', 'revision', 'repeat']);
      if (kind === 'social' || kind === 'product') return this.p(['NOS', 'reported', 'suspected', 'confirmed']);
      return this.c(0.6) ? this.p(LLT_POST) : this.p(POST_QUALS);
    };
    let s: string;
    switch (k) {
      case 'nos':
        s = `${ptName} NOS`;
        break;
      case 'pre':
        s = `${pre()} ${decap(ptName)}`;
        break;
      case 'post':
        s = `${ptName} ${post()}`;
        break;
      case 'us':
        s = usSpelling(ptName);
        if (s === ptName) s = `${ptName} ${post()}`;
        break;
      case 'reorder':
        s = reorder(ptName, this.rng);
        break;
      case 'abbrev':
        s = abbreviate(ptName, this.rng);
        if (s === ptName) s = `${pre()} ${decap(ptName)}`;
        break;
      case 'special':
        s = this.specialVariant(ptName, t, clinical);
        if (s === ptName) s = `${ptName} ${post()}`;
        break;
      case 'synonym':
        return this.ptName(t);
      default: {
        const base = this.c(0.5) ? usSpelling(ptName) : reorder(ptName, this.rng);
        s = this.c(0.5) ? `${base} ${post()}` : abbreviate(base, this.rng);
        if (s === base) s = `${base} ${post()}`;
      }
    }
    return this.finish(s);
  }

  /** Kind-specific variant: direction / specimen synonyms for tests, "X of Y" for procedures, laterality for clinical terms. */
  private specialVariant(name: string, t: Theme, clinical: boolean): string {
    if (t.kind === 'investigation') {
      for (const [dir, alts] of DIRECTION_SYNONYMS) {
        const re = new RegExp(`\\b${dir}\\b`);
        if (re.test(name)) return cap(name.replace(re, this.p(alts)));
      }
      const sp = SPECIMENS.find((x) => name.toLowerCase().startsWith(`${x} `));
      if (sp !== undefined) return cap(`${this.p(SPECIMENS.filter((x) => x !== sp))}${name.slice(sp.length)}`);
      return name;
    }
    if (t.kind === 'procedure') {
      const words = name.split(' ');
      if (words.length >= 2) {
        const last = words[words.length - 1] as string;
        return cap(`${last} of ${decap(words.slice(0, -1).join(' '))}`);
      }
      return `${name} ${this.p(['procedure', 'operation'])}`;
    }
    if (clinical) {
      return this.c(0.5) ? `${name} ${this.p(LATERALITY)}` : `${this.p(LATERALITY)} ${decap(name)}`;
    }
    return name;
  }

  // ---- group names -----------------------------------------------------------------------

  private otherAdj(t: Theme, not: string): string {
    const pool = t.adjs.filter((x) => x !== not);
    return pool.length > 0 ? this.p(pool) : this.p(SUB_ADJS);
  }

  hlgtName(t: Theme): string {
    const a = this.adj(t);
    const topics = t.topics.filter((x) => x !== a);
    const topic = topics.length > 0 ? this.p(topics) : this.p(SUB_ADJS);
    const r = this.rng.float();
    let s: string;
    switch (t.kind) {
      case 'investigation':
        s = r < 0.5 ? `${a} investigations` : r < 0.8 ? `${topic} investigations` : `${a} and ${this.otherAdj(t, a)} analyses`;
        break;
      case 'procedure':
        s = `${r < 0.6 ? a : this.part(t)} ${topic} procedures`;
        break;
      case 'social':
        s = r < 0.5 ? `${topic} issues` : `${a} circumstances`;
        break;
      case 'product':
        s = r < 0.5 ? `${topic} issues` : `${this.part(t)} ${topic} issues`;
        break;
      case 'injury':
        s = r < 0.6 ? `${topic}` : `${a} ${topic}`;
        break;
      case 'infection':
        s = r < 0.5 ? `${topic} infectious disorders` : `${a} infections of ${this.part(t)}`;
        break;
      case 'neoplasm':
        s = r < 0.5 ? `${this.part(t)} neoplasms ${topic}` : `${a} neoplasms ${topic}`;
        break;
      case 'general':
        s = r < 0.4 ? `${topic} conditions` : r < 0.7 ? `${this.part(t)} reactions` : `${a} conditions`;
        break;
      default:
        if (r < 0.4) s = `${a} ${topic} ${this.p(['disorders', 'conditions'])}`;
        else if (r < 0.55) s = `${a} disorders`;
        else if (r < 0.75) s = `${a} and ${this.otherAdj(t, a)} ${this.p(['disorders', 'conditions'])}`;
        else if (r < 0.9) s = `${topic} disorders of ${this.part(t)}`;
        else s = `${a} signs and symptoms`;
    }
    return cap(clean(s));
  }

  /** HLT name built around the HLT's focus words. */
  hltName(t: Theme, f: Focus): string {
    const a = f.adj ?? this.adj(t);
    const c = f.cond ?? this.tcond(t);
    const part = f.part ?? this.part(t);
    const r = this.rng.float();
    let s: string;
    switch (t.kind) {
      case 'investigation':
        s = r < 0.5 ? `${c} analyses` : r < 0.75 ? `${a} ${this.p(MEASURES)} analyses` : `${part} imaging procedures`;
        break;
      case 'procedure':
        s = r < 0.5 ? `${part} ${plural(c)}` : r < 0.8 ? `${a} ${c} procedures` : `${a} therapies NEC`;
        break;
      case 'social':
        s = r < 0.5 ? `${a} issues` : `${part} ${plural(this.p(SOCIAL_ISSUES))}`;
        break;
      case 'product':
        s = r < 0.5 ? `${part} issues` : `${a} ${c} issues`;
        break;
      case 'injury':
        s = r < 0.4 ? `${part} fractures and dislocations` : r < 0.7 ? `${part} injuries NEC` : `${a} ${plural(c)}`;
        break;
      case 'infection':
        s = r < 0.4 ? `${this.organism()} infections` : r < 0.7 ? `${a} infections NEC` : `${part} ${plural(c)}`;
        break;
      case 'neoplasm':
        s = r < 0.5 ? `${part} neoplasms ${this.p(['benign', 'malignant', 'NEC', 'unspecified'])}` : `${a} ${plural(c)}`;
        break;
      case 'congenital':
        s = r < 0.6 ? `congenital ${part} ${plural(c)}` : `${a} disorders congenital`;
        break;
      default:
        if (r < 0.35) s = `${a} ${plural(c)} NEC`;
        else if (r < 0.55) s = `${a} ${this.p(SUB_ADJS)} ${this.p(['disorders', 'conditions'])}`;
        else if (r < 0.7) s = `${a} signs and symptoms`;
        else if (r < 0.85) s = `${c} and related conditions`;
        else s = `${joinCompound(this.p(t.roots.length > 0 ? t.roots : ['path']), 'itis')} (excl infective)`;
    }
    return cap(clean(s));
  }

  /** Focus words for a new HLT of this theme (siblings then share vocabulary). */
  newFocus(t: Theme, parentAdj?: string): Focus {
    const adj = parentAdj !== undefined && this.c(0.5) ? parentAdj : t.adjs.length > 0 ? this.p(t.adjs) : undefined;
    const themeCond = t.conds.length > 0 && (t.kind !== 'disease' || this.c(0.6));
    const cond = themeCond ? this.p(t.conds) : this.p(FOCUS_CONDS);
    const part = t.parts.length > 0 ? this.p(t.parts) : undefined;
    const f: Focus = { cond };
    if (adj !== undefined) f.adj = adj;
    if (part !== undefined) f.part = part;
    return f;
  }
}

/** Lab-theme measurements that are not measured in a specimen (no "Urine heart rate ..."). */
const NON_SPECIMEN_MEASURES = new Set([
  'ejection fraction',
  'heart rate',
  'blood pressure',
  'body temperature',
  'weight',
  'oxygen saturation',
  'respiratory rate',
  'QT interval',
  'PR interval',
  'QRS complex',
  'glomerular filtration rate',
  'hormone level',
  'tumour marker',
]);

const FOCUS_CONDS = CONDS.filter((c) => c !== 'disorder' && c !== 'disease' && c !== 'injury');

const DIRECTION_SYNONYMS: [string, string[]][] = [
  ['increased', ['raised', 'elevated', 'high', 'above normal']],
  ['decreased', ['low', 'reduced', 'below normal', 'depressed']],
  ['abnormal', ['abnormal NOS', 'outside reference range', 'deranged']],
  ['positive', ['detected', 'reactive']],
  ['negative', ['not detected', 'non-reactive']],
  ['present', ['detected', 'found']],
  ['absent', ['not detected', 'not found']],
  ['prolonged', ['lengthened', 'extended']],
  ['shortened', ['reduced', 'short']],
  ['normal', ['within normal limits', 'unremarkable']],
];

const ADJ_ENDINGS = /(al|ic|ar|ous|ive|ed|ary|ile|oid|ent|ant|ial|eal|ural|ing)$/;
const NON_NOUN_LAST = new Set([...POST_QUALS, ...DIRECTIONS.map((d) => d[0]), 'NOS', 'NEC', 'inconclusive', 'impaired', 'disturbance']);

export function usSpelling(name: string): string {
  let s = name;
  for (const [re, rep] of US_SPELLINGS) s = s.replace(re, rep);
  // Handle a capitalised first letter ("Oedema" → "Edema").
  const lowerFirst = name.charAt(0).toLowerCase() + name.slice(1);
  if (s === name && lowerFirst !== name) {
    let t = lowerFirst;
    for (const [re, rep] of US_SPELLINGS) t = t.replace(re, rep);
    if (t !== lowerFirst) s = cap(t);
  }
  return s;
}

/** "Renal tubular oedema" → "Oedema renal tubular"; "Kidney excision" → "Excision of kidney". */
export function reorder(name: string, rng: Rng): string {
  const words = name.split(' ');
  if (words.length < 2) return name;
  const last = words.pop() as string;
  const rest = decap(words.join(' '));
  const prevWord = (words[words.length - 1] ?? '').toLowerCase();
  const nounish =
    !NON_NOUN_LAST.has(last) && !ADJ_ENDINGS.test(last) && !NON_NOUN_LAST.has(prevWord) && !ADJ_ENDINGS.test(prevWord);
  if (nounish && words.length <= 3 && rng.chance(0.5)) return cap(`${last} of ${rest}`);
  return cap(`${last} ${rest}`);
}

export function abbreviate(name: string, rng: Rng): string {
  const low = name.toLowerCase();
  const matches = ABBREVIATIONS.filter(([full]) => new RegExp(`\\b${full.toLowerCase()}\\b`).test(low));
  if (matches.length === 0) return name;
  const [full, ab] = rng.pick(matches);
  const idx = low.search(new RegExp(`\\b${full.toLowerCase()}\\b`));
  return cap(name.slice(0, idx) + ab + name.slice(idx + full.length));
}

/**
 * Make `base` unique in `taken` (case-insensitive) with a roman numeral ("… II", "… III"),
 * registering and returning the result.
 */
export function uniquify(base: string, taken: NameSet): string {
  const name = fit(base);
  if (!taken.has(name)) {
    taken.add(name);
    return name;
  }
  const short = fit(base, 8);
  for (let k = 2; ; k++) {
    const cand = `${short} ${roman(k)}`;
    if (!taken.has(cand)) {
      taken.add(cand);
      return cand;
    }
  }
}
