// NegEx-style context: trigger phrases open a scope forwards ("denies chest pain",
// "no rash", "history of migraine") or backwards ("MI was ruled out"), closed by a
// terminator word ("but", "however", "presented", …), sentence punctuation or a
// maximum length. Pseudo-triggers ("no increase", "not limited to") never open one.
import type { Token } from './text.ts';

export type ContextKind =
  | 'negated'
  /** Being ruled out / worked up: not (yet) an event. */
  | 'uncertain'
  /** "possible", "suspected", "probable": an event of lower certainty. */
  | 'possible'
  /** Conditional or potential: "if a rash develops", "may cause", "risk of". */
  | 'hypothetical'
  /** Before the product: "history of", "prior", "pre-existing", resolved before the dose. */
  | 'historical'
  | 'family'
  /** A population or condition the product is used in: "in patients with renal impairment". */
  | 'population'
  /** What the product treats: "indicated for the treatment of", "to treat". */
  | 'indication'
  /** Advice to watch for signs ("monitor patients for", "seek medical attention if"): named, not reported. */
  | 'monitoring'
  /** Animal or in-vitro findings: "in rats", "nonclinical". */
  | 'animal';

export interface ContextCue {
  kind: ContextKind;
  /** Verbatim trigger text and its character range. */
  trigger: string;
  start: number;
  end: number;
  /** Token range [scopeFrom, scopeTo) the cue governs. */
  scopeFrom: number;
  scopeTo: number;
}

interface Trigger {
  words: string[];
  kind: ContextKind;
  dir: 'pre' | 'post' | 'sentence';
  /** Maximum scope in tokens. */
  reach?: number;
}

const t = (phrase: string, kind: ContextKind, dir: Trigger['dir'] = 'pre', reach?: number): Trigger => ({
  words: phrase.split(' '),
  kind,
  dir,
  ...(reach === undefined ? {} : { reach }),
});

const TRIGGERS: Trigger[] = [
  // Negation, forwards.
  t('without', 'negated', 'pre', 5),
  ...['no', 'not', 'denies', 'denied', 'deny', 'denying', 'never', 'neither', 'nor', 'none', 'absence of',
    'absent', 'free of', 'negative for', 'no evidence of', 'no sign of', 'no signs of', 'no symptoms of', 'no history of',
    'no cases of', 'no reports of', 'no report of', 'no occurrence of', 'no episodes of', 'did not have', 'did not experience',
    'did not develop', 'does not have', 'do not have', 'failed to reveal', 'fails to reveal', 'unremarkable for',
    'no new', "didn't", "doesn't", "don't"].map((p) => t(p, 'negated')),
  // Negation, backwards.
  ...['was ruled out', 'were ruled out', 'is ruled out', 'has been ruled out', 'ruled out', 'not observed', 'not seen',
    'not reported', 'not been reported', 'not noted', 'not detected', 'not found', 'not present', 'was absent',
    'were absent', 'is absent', 'did not occur', 'has not occurred', 'have not occurred', 'not been observed',
    'were excluded', 'was excluded', 'unlikely'].map((p) => t(p, 'negated', 'post')),
  // Work-up / rule out: not (yet) an event.
  ...['rule out', 'rule-out', 'to exclude', 'evaluate for', 'evaluated for', 'evaluation for', 'work up for', 'workup for',
    'question of', 'concern for', 'suspicion of', 'differential diagnosis'].map((p) => t(p, 'uncertain')),
  ...['cannot be excluded', 'cannot be ruled out', 'could not be excluded', 'could not be ruled out', 'not excluded',
    'not ruled out'].map((p) => t(p, 'uncertain', 'post')),
  ...['possible', 'possibly', 'probable', 'probably', 'suspected', 'presumed', 'likely', 'questionable', 'suggestive of',
    'consistent with', 'compatible with'].map((p) => t(p, 'possible', 'pre', 6)),
  // Conditional / potential.
  ...['if', 'may', 'might', 'could', 'can cause', 'can occur', 'risk of', 'risks of', 'at risk for', 'at risk of',
    'in case of', 'should',
    'unless', 'in the event of', 'potential for', 'potential'].map((p) => t(p, 'hypothetical', 'pre', 8)),
  ...['monitor for', 'monitor', 'monitored', 'monitor patients for', 'monitoring for', 'watch for', 'seek medical attention',
    'seek immediate medical attention', 'signs and symptoms', 'signs or symptoms', 'advise patients', 'instruct patients', 'evaluate patients', 'assess patients for', 'be alert for', 'be alert to',
    'observe patients for', 'test for', 'screen for', 'check for'].map((p) => t(p, 'monitoring', 'pre', 14)),
  // History.
  ...['history of', 'hx of', 'past medical history', 'medical history', 'prior', 'previous', 'previously',
    'pre-existing', 'preexisting', 'known', 'longstanding', 'long-standing', 'underlying', 'baseline'].map((p) =>
    t(p, 'historical', 'pre', 8),
  ),
  ...['years ago', 'in the past', 'resolved before', 'resolved prior', 'before the first dose', 'before vaccination',
    'prior to vaccination', 'prior to treatment', 'before treatment', 'before starting', 'prior to starting'].map((p) =>
    t(p, 'historical', 'post'),
  ),
  // Family.
  ...['family history of', 'family history', 'mother has', 'mother had', 'father has', 'father had', 'sister has',
    'sister had', 'brother has', 'brother had', 'his mother', 'her mother', 'his father', 'her father', 'mother with',
    'father with', 'parents with'].map((p) => t(p, 'family', 'pre', 8)),
  // Labels: populations and indications are not reactions.
  ...['patients with', 'patient with', 'subjects with', 'those with', 'individuals with', 'children with', 'women with',
    'men with', 'people with', 'adults with', 'infants with', 'in the presence of', 'patients who have', 'patients who had',
    'patients at risk for', 'patients at risk of', 'patients at increased risk', 'pediatric patients with',
    'for patients with', 'setting of', 'patients having', 'experience in', 'studies in', 'study in', 'trial in',
    'trials in', 'studied in', 'infected with', 'co-infected with', 'coinfected with', 'co-infection with',
    // Risk factors and predispositions are conditions of the patient, not reactions to the product.
    'risk factors', 'risk factor', 'at risk for', 'at risk of', 'predisposed to', 'predisposing factors',
    'predisposing conditions'].map((p) =>
    t(p, 'population', 'pre', 6),
  ),
  // Round 14: "In patients who are elderly, volume-depleted (including those on diuretic therapy), or with compromised
  // renal function, coadministration of NSAIDs …" (the NSAID / RAS-blocker class text): the patients, a list.
  t('who are elderly', 'population', 'pre', 12),
  // "should be used with caution in active or latent peptic ulcers, diverticulitis, …": conditions that call for care.
  ...['caution in', 'cautiously in'].map((p) => t(p, 'population', 'pre', 12)),
  // "All pregnancies have a background risk of birth defect, loss, or other adverse outcomes": the population's own risk.
  ...['background risk of', 'background risk', 'background rate of', 'background rates of'].map((p) => t(p, 'population', 'pre', 12)),
  // "Persons who are on corticosteroids should avoid exposure to chickenpox or measles": an exposure, not a reaction.
  ...['exposure to', 'exposed to'].map((p) => t(p, 'population', 'pre', 8)),
  // "after a recent myocardial infarction": the patient's recent condition.
  t('a recent', 'historical', 'pre', 4),
  // "moderately to severely active rheumatoid arthritis", "active liver disease": a disease in activity is the patient's.
  t('active', 'population', 'pre', 3),
  ...['indicated for', 'treatment of', 'to treat', 'used to treat', 'management of', 'for the treatment of',
    'indicated as', 'indicated in', 'therapy of', 'relief of', 'treating', 'prophylaxis', 'prophylaxis for',
    'prophylaxis of', 'prophylaxis against', 'prevention of', 'to prevent', 'prevent', 'preventing', 'reduce the risk of',
    // "Lowering blood pressure lowers the risk of … strokes", "Control of high blood pressure should be part of …".
    'reduces the risk of', 'reduced the risk of', 'reducing the risk of', 'lower the risk of', 'lowers the risk of',
    'lowered the risk of', 'lowering the risk of', 'control of',
    'vaccination against', 'vaccinated against'].map((p) => t(p, 'indication', 'pre', 12)),
  // "other sympathomimetic drugs for weight loss", "treatments for erectile dysfunction": what a therapy is for.
  // Plural only: "required treatment for hypotension" reports an event (singular "treatment for" lost two TAC folds).
  ...['drugs for', 'treatments for', 'therapies for', 'medications for', 'agents for', 'products for'].map((p) => t(p, 'indication', 'pre', 6)),
  // "the consequence of an unrecognized psychiatric or physical disorder": a condition of the patient, not of the drug.
  ...['unrecognized', 'unrecognised', 'undiagnosed', 'presenting manifestation of'].map((p) => t(p, 'historical', 'pre', 8)),
  // Round 9, population prose. PLLR's background-risk sentence, also in the plural ("The background risks in the U.S.
  // general population of major birth defects …": "U.S." does not end the clause, see latinDot).
  ...['background risks of', 'background risks'].map((p) => t(p, 'population', 'pre', 12)),
  t('general population', 'population', 'post', 12),
  // "insufficient to identify / evaluate a drug-associated risk for major birth defects, miscarriage …" and "have not
  // reported a clear association with X and major birth defects": statements that no event was established.
  ...['drug-associated risk', 'drug-associated risks', 'drug associated risk', 'drug associated risks'].map((p) => t(p, 'uncertain', 'pre', 14)),
  ...['no clear association', 'not reported a clear association', 'not shown a clear association', 'not identified a clear association',
    'not reported an association'].map((p) => t(p, 'negated', 'pre', 14)),
  // "There are risks to the mother and fetus associated with chronic kidney disease in pregnancy", "Poorly controlled
  // diabetes … increases the maternal risk for diabetic ketoacidosis": the treated disease's own risks.
  ...['risks to the mother', 'risk to the mother', 'poorly controlled', 'poorly-controlled', 'maternal risk', 'maternal risks', 'fetal risk',
    'fetal risks', 'disease-associated'].map((p) => t(p, 'population', 'pre', 14)),
  // Round 11, PLLR epidemiology: "All pregnancies carry some risk of birth defects, loss, …" (the sentence without
  // "background") and "The estimated rate of major birth defects … among deliveries to women with migraine".
  ...['all pregnancies have', 'all pregnancies carry', 'estimated rate of', 'estimated rates of'].map((p) => t(p, 'population', 'pre', 12)),
  // "inform them of symptoms of thyroid tumors (e.g., a mass in the neck, dysphagia, …)": a disease's symptoms to
  // watch for. Not "inform patients of the risk of hypoglycemia": that risk is the product's.
  ...['inform patients of symptoms of', 'inform them of symptoms of', 'inform patients of the symptoms of', 'inform them of the symptoms of'].map((p) =>
    t(p, 'monitoring', 'pre', 16),
  ),
  // Animal findings.
  ...['rat', 'rats', 'mice', 'mouse', 'rabbit', 'rabbits', 'dog', 'dogs', 'monkey', 'monkeys', 'animal', 'animals',
    'nonclinical', 'non-clinical', 'primates', 'primate', 'hamsters', 'in vitro', 'minipigs', 'carcinogenicity',
    'rodent', 'rodents', 'pups', 'hamster', 'minipig', 'guinea pigs'].map((p) =>
    t(p, 'animal', 'sentence'),
  ),
];

/** Never open a scope, even though they contain a trigger word. */
const PSEUDO = [
  'no increase', 'no significant increase', 'no change', 'no significant change', 'not only', 'not necessarily',
  'with or without', 'whether or not', 'not certain', 'not limited to', 'but not limited to', 'gram negative',
  'not always', 'not all', 'no difference', 'no significant difference', 'not differ', 'did not differ', 'not clear',
  'not known', 'not established', 'not been established', 'no dose adjustment', 'not recommended', 'no clinically',
  'not clinically', 'no longer', 'may be', 'known to', 'not be', 'non-serious', 'non serious', 'no more than', 'not more than',
  'not exceed', 'no consistent', 'not statistically', 'not fully', 'not studied', 'not been studied', 'should be',
  'if any', 'if needed', 'if necessary', 'if possible', 'could not be', 'not have been',
].map((p) => p.split(/[ -]/));
/**
 * Round 12: a rise of drug exposure ("inhibitors increase (systemic) exposure to X and may increase the risk of
 * bleeding") is pharmacokinetics, not a population exposed to something. A fall ("inducers decrease exposure to X and
 * may increase the risk of thromboembolic events") is a loss of effect, the treated disease's, and stays as it was.
 */
const PK_EXPOSURE = new Set(['increase', 'increases', 'increased', 'increasing', 'higher', 'greater']);
/** "increase (systemic / plasma) exposure to X": the word before, or before a PK qualifier, says exposure rises. */
function pkRise(tokens: readonly Token[], i: number): boolean {
  const a = tokens[i - 1]?.lower;
  if (a && PK_EXPOSURE.has(a)) return true;
  return !!a && (a === 'systemic' || a === 'plasma' || a === 'drug') && PK_EXPOSURE.has(tokens[i - 2]?.lower ?? '');
}

const TERMINATORS = new Set([
  'but', 'however', 'although', 'though', 'except', 'aside', 'apart', 'which', 'who', 'whom', 'whose', 'yet', 'still',
  'nevertheless', 'whereas', 'while', 'presents', 'presented', 'presenting', 'now', 'currently', 'developed', 'develops',
  'complains', 'complained', 'experienced', 'reports', 'admits', 'then', 'since', 'because', 'due', 'secondary',
]);

// Sentence punctuation or a table gap closes a scope; commas and brackets do not (lists).
const SCOPE_BREAK = /[.;:!?\n\t]/;

/** The gap before token k is only the dot of "e.g.", "i.e." or "U.S." (an abbreviation; the scope goes on). */
function latinDot(tokens: readonly Token[], k: number): boolean {
  const gap = tokens[k]!.gapBefore;
  if (!/^\.[\s,]*$/.test(gap)) return false;
  const a = tokens[k - 1]?.lower;
  const b = tokens[k]!.lower;
  const c = tokens[k - 2]?.lower;
  // "U.S." ("the U.S. general population") is an abbreviation too.
  if ((a === 'u' && b === 's') || (a === 's' && c === 'u')) return true;
  return (a === 'e' && b === 'g') || (a === 'i' && b === 'e') || (a === 'g' && c === 'e') || (a === 'e' && c === 'i');
}
const breaksScope = (tokens: readonly Token[], k: number) => (SCOPE_BREAK.test(tokens[k]!.gapBefore) && !latinDot(tokens, k)) || afterSectionRef(tokens, k);

/** "Signs and symptoms have included X, Y": what follows the verb is what was seen, not a watch list. */
// Not "including": "signs and symptoms including X" names what to watch for (it lost on three TAC folds).
const LIST_VERBS = new Set(['include', 'includes', 'included']);
/** Token i follows an HTML block tag left in pasted text ("<p>Patients with …"): it opens a paragraph. */
function afterBlockTag(tokens: readonly Token[], i: number): boolean {
  const tag = tokens[i - 1];
  return !!tag && tokens[i]!.gapBefore.startsWith('>') && /<\/?$/.test(tag.gapBefore) && /^(?:p|li|br|div|td|tr|th|dd|dt)$/i.test(tag.text);
}

/** Verbs that end a unit-opening population: what follows is what happened to it ("Patients with RA had …"). */
const FINITE_VERBS = new Set([
  'had', 'has', 'have', 'was', 'were', 'is', 'are', 'developed', 'develop', 'experienced', 'experience', 'showed', 'show',
  'reported', 'report', 'received', 'receiving', 'treated', 'given', 'taking', 'demonstrated', 'achieved', 'may', 'can',
  'should', 'must', 'did', 'does', 'do', 'required', 'require', 'requires', 'died', 'appeared', 'appear',
]);
/**
 * Round 13: after a comma, a subject and its verb ("In patients with renal disease, thiazides may precipitate azotemia")
 * start the main clause; a list goes on without a verb ("renal or hepatic impairment, heart failure, or dehydration").
 */
function clauseAfterComma(tokens: readonly Token[], k: number): boolean {
  if (tokens[k]!.lower === 'and' || tokens[k]!.lower === 'or') return false;
  for (let j = k + 1; j < tokens.length && j <= k + 4; j++) {
    const tok = tokens[j]!;
    if (tok.breakBefore || tok.gapBefore.includes(',') || tok.lower === 'and' || tok.lower === 'or') return false;
    if (FINITE_VERBS.has(tok.lower)) return true;
  }
  return false;
}
/** "the proportion of patients with total cholesterol elevations": counting who had an event, not a population. */
const COUNTING = new Set(['proportion', 'proportions', 'percentage', 'percentages', 'percent', 'number', 'numbers', 'incidence', 'frequency']);
function countsPatients(tokens: readonly Token[], i: number): boolean {
  return i >= 2 && tokens[i - 1]!.lower === 'of' && COUNTING.has(tokens[i - 2]!.lower);
}

/** A section reference in brackets followed by a capital ("… disease (5.2) Blood Pressure …"): flattened Highlights bullets, a new clause. */
function afterSectionRef(tokens: readonly Token[], k: number): boolean {
  return k > 0 && /\)\s+$/.test(tokens[k]!.gapBefore) && tokens[k - 1]!.numeric && /^\p{Lu}/u.test(tokens[k]!.text);
}
/**
 * "Based on animal data, may cause fetal harm": an animal cue inside a leading "based on …" phrase names the evidence
 * of the main clause's human risk; it bounds that phrase (to its comma), not the sentence.
 */
function basisPhrase(tokens: readonly Token[], i: number): [number, number] | null {
  let b = -1;
  for (let k = i - 1; k >= 1 && k >= i - 9; k--) {
    if (tokens[k - 1]!.lower === 'based' && tokens[k]!.lower === 'on') { b = k - 1; break; }
    if (breaksScope(tokens, k) || tokens[k]!.gapBefore.includes(',')) return null;
  }
  if (b < 0) return null;
  // The phrase runs to its comma; a bracketed cross-reference inside it ("findings from animal studies [see Clinical
  // Pharmacology (12.1), Nonclinical Toxicology (13.1)], DRUGX can cause …") is read over, dots and commas included.
  let depth = 0;
  for (let e = i + 1; e < tokens.length; e++) {
    for (const ch of tokens[e]!.gapBefore) {
      if (ch === '(' || ch === '[') depth++;
      else if ((ch === ')' || ch === ']') && depth > 0) depth--;
      else if (depth === 0 && ch === ',') return [b, e];
      else if (depth === 0 && SCOPE_BREAK.test(ch)) return null;
    }
    if (depth === 0 && afterSectionRef(tokens, e)) return null;
  }
  return null;
}
/** Token i sits inside a bracketed cross-reference ("[see Nonclinical Toxicology (13.1)]", "(see WARNINGS)"): it names a section. */
function inSeeReference(tokens: readonly Token[], i: number): boolean {
  let closed = 0;
  for (let k = i; k >= 0 && k >= i - 12; k--) {
    const gap = tokens[k]!.gapBefore;
    for (let c = gap.length - 1; c >= 0; c--) {
      const ch = gap[c]!;
      if (ch === ')' || ch === ']') closed++;
      else if (ch === '(' || ch === '[') {
        if (closed > 0) closed--;
        else return tokens[k]!.lower === 'see';
      } else if (/[.;!?\n]/.test(ch) && !/^\d/.test(tokens[k]!.text)) return false;
    }
  }
  return false;
}
/** ", MULTAQ doubles the risk of …": a capital after a comma and a lower-case word starts a clause (all-caps text never). */
function newClause(tokens: readonly Token[], x: number): boolean {
  return x > 0 && tokens[x]!.gapBefore.includes(',') && /^\p{Lu}/u.test(tokens[x]!.text) && /^\p{Ll}/u.test(tokens[x - 1]!.text);
}
const LIST_KINDS = new Set<ContextKind>(['population', 'monitoring', 'indication']);
/**
 * A scope that ran out of reach inside a list ("patients with known structural cardiac abnormalities, cardiomyopathy,
 * serious heart arrhythmia, or coronary artery disease") covers the rest of the list when the clause goes on without a
 * verb to its end: the list's items share the cue.
 */
function listEnd(tokens: readonly Token[], from: number, k: number): number {
  const n = tokens.length;
  let j = k;
  let joined = false;
  while (j < n && j - k < 30) {
    const tok = tokens[j]!;
    if (breaksScope(tokens, j) || afterSectionRef(tokens, j) || tok.gapBefore.includes('(') || tok.gapBefore.includes(')')) break;
    if (TERMINATORS.has(tok.lower) || FINITE_VERBS.has(tok.lower) || LIST_VERBS.has(tok.lower) || tok.lower === 'occurring') return k;
    if (newClause(tokens, j)) return k;
    if (tok.lower === 'or' || tok.lower === 'and') joined = true;
    j++;
  }
  if (j === k || !joined) return k;
  let comma = false;
  for (let x = from; x < k; x++) {
    if (TERMINATORS.has(tokens[x]!.lower) || FINITE_VERBS.has(tokens[x]!.lower) || LIST_VERBS.has(tokens[x]!.lower) || tokens[x]!.lower === 'occurring') return k;
    if (newClause(tokens, x)) return k;
    if (tokens[x]!.gapBefore.includes(',')) comma = true;
  }
  return comma || tokens.slice(k, j).some((x) => x.gapBefore.includes(',')) ? j : k;
}

const byLength = [...TRIGGERS].sort((a, b) => b.words.length - a.words.length);
const firstWords = new Set(TRIGGERS.map((x) => x.words[0]!));

function matchesAt(tokens: readonly Token[], i: number, words: readonly string[]): boolean {
  if (i + words.length > tokens.length) return false;
  for (let k = 0; k < words.length; k++) {
    const tok = tokens[i + k]!;
    // Multi-word triggers must be contiguous (no punctuation inside).
    if (k > 0 && tok.breakBefore) return false;
    if (tok.lower !== words[k]) return false;
  }
  return true;
}

/** Per token, the parentheses open before it (within its unit); computed once, when a cue needs it. */
function parenDepths(tokens: readonly Token[]): Int32Array {
  const out = new Int32Array(tokens.length);
  let d = 0;
  for (let k = 0; k < tokens.length; k++) {
    for (const ch of tokens[k]!.gapBefore) {
      if (ch === '(' || ch === '[') d++;
      else if ((ch === ')' || ch === ']') && d > 0) d--;
    }
    out[k] = d;
  }
  return out;
}

/** All context cues in a unit of text (a sentence, a bullet, a table row). */
export function findContextCues(source: string, tokens: readonly Token[]): ContextCue[] {
  const cues: ContextCue[] = [];
  const n = tokens.length;
  let depth: Int32Array | undefined;
  for (let i = 0; i < n; i++) {
    const w = tokens[i]!.lower;
    if (!firstWords.has(w)) continue;
    const pseudo = PSEUDO.find((p) => matchesAt(tokens, i, p));
    const trig0 = byLength.find((x) => matchesAt(tokens, i, x.words));
    if (pseudo && !(trig0 && trig0.words.length > pseudo.length)) {
      i += pseudo.length - 1;
      continue;
    }
    const trig = trig0;
    if (!trig) continue;
    if (trig.kind === 'population' && (w === 'exposure' || w === 'exposed') && pkRise(tokens, i)) {
      i += trig.words.length - 1;
      continue;
    }
    if (trig.kind === 'population' && countsPatients(tokens, i)) {
      i += trig.words.length - 1;
      continue;
    }
    const last = i + trig.words.length - 1;
    const start = tokens[i]!.start;
    const end = tokens[last]!.end;
    const trigger = source.slice(start, end);
    if (trig.dir === 'sentence') {
      let basis = basisPhrase(tokens, i);
      // A cue inside a cross-reference that sits in such a phrase ("findings from animal studies [see …, Nonclinical
      // Toxicology (13.1)], DRUGX can cause …") names a section of that evidence: it bounds the same phrase.
      if (!basis && trig.kind === 'animal' && inSeeReference(tokens, i)) {
        const outer = cues.find((c) => c.kind === 'animal' && c.scopeFrom < i && i < c.scopeTo && c.scopeTo < n);
        if (outer) basis = [outer.scopeFrom, outer.scopeTo];
      }
      cues.push({ kind: trig.kind, trigger, start, end, scopeFrom: basis ? basis[0] : 0, scopeTo: basis ? basis[1] : n });
    } else if (trig.dir === 'pre') {
      const reach = trig.reach ?? 12;
      // A cue inside parentheses bounds at the closing one: "bone fracture (not spontaneous), bone necrosis".
      const inParen = (depth ??= parenDepths(tokens))[i]! > 0;
      let k = last + 1;
      // A unit or clause that opens with its population ("Patients who have suffered a myocardial infarction, stroke,
      // or life-threatening arrhythmia within the last 6 months;") describes that population up to its first verb;
      // the clause start counts too, so joined lines and HTML remnants read the same as separate lines.
      const opensClause = trig.kind === 'population' && (i === 0 || SCOPE_BREAK.test(tokens[i]!.gapBefore) || afterBlockTag(tokens, i) || afterSectionRef(tokens, i)) && !inParen;
      const stops = trig.kind === 'monitoring' && trig.words[0] === 'signs' ? LIST_VERBS : opensClause ? FINITE_VERBS : undefined;
      const until = opensClause ? n : reach;
      while (k < n && k - last <= until) {
        const tok = tokens[k]!;
        if (breaksScope(tokens, k) || TERMINATORS.has(tok.lower) || (inParen && tok.gapBefore.includes(')')) || stops?.has(tok.lower)) break;
        // Round 13: a population phrase ends at a comma that a subject and its verb follow ("In patients with X, thiazides may …").
        if (trig.kind === 'population' && !opensClause && k > last + 1 && tok.gapBefore.includes(',') && clauseAfterComma(tokens, k)) break;
        k++;
      }
      if (k < n && k - last > until && !inParen && LIST_KINDS.has(trig.kind)) k = listEnd(tokens, last + 1, k);
      cues.push({ kind: trig.kind, trigger, start, end, scopeFrom: last + 1, scopeTo: k });
    } else {
      const reach = trig.reach ?? 10;
      let k = i;
      while (k > 0 && i - k < reach) {
        const tok = tokens[k]!;
        if (breaksScope(tokens, k) || TERMINATORS.has(tokens[k - 1]!.lower)) break;
        k--;
      }
      cues.push({ kind: trig.kind, trigger, start, end, scopeFrom: k, scopeTo: i });
    }
    i = last;
  }
  return cues;
}

/**
 * Cues of one unit, indexed for cuesCovering: a filter over every cue for every match was
 * quadratic on a long unit ("no rash, no rash, …" without a full stop). Scoped cues reach
 * at most a few tokens, so only those starting shortly before a range can cover it;
 * unit-wide cues ("in rats") all cover everything and one per kind says the same.
 */
interface CueIndex {
  /** Indices of scoped cues, by scopeFrom. */
  byFrom: number[];
  maxSpan: number;
  /** Indices of unit-wide cues, the first of each kind and range. */
  wide: number[];
}

const SMALL = 16;
const WIDE_SPAN = 64;
const indexes = new WeakMap<readonly ContextCue[], CueIndex>();

function indexOf(cues: readonly ContextCue[]): CueIndex {
  let ix = indexes.get(cues);
  if (ix) return ix;
  ix = { byFrom: [], maxSpan: 0, wide: [] };
  const seenWide = new Set<string>();
  cues.forEach((c, i) => {
    const span = c.scopeTo - c.scopeFrom;
    if (span > WIDE_SPAN) {
      const key = `${c.kind} ${c.scopeFrom} ${c.scopeTo}`;
      if (!seenWide.has(key)) ix!.wide.push(i);
      seenWide.add(key);
    } else {
      ix!.byFrom.push(i);
      if (span > ix!.maxSpan) ix!.maxSpan = span;
    }
  });
  ix.byFrom.sort((a, b) => cues[a]!.scopeFrom - cues[b]!.scopeFrom || a - b);
  indexes.set(cues, ix);
  return ix;
}

/** The cues whose scope covers any of tokens [from, to), in their original order. */
export function cuesCovering(cues: readonly ContextCue[], from: number, to: number): ContextCue[] {
  if (cues.length <= SMALL) return cues.filter((c) => c.scopeFrom < to && from < c.scopeTo);
  const ix = indexOf(cues);
  const hits: number[] = [];
  for (const i of ix.wide) if (cues[i]!.scopeFrom < to && from < cues[i]!.scopeTo) hits.push(i);
  // A scoped cue starting before from - maxSpan ends before `from`.
  let lo = 0;
  let hi = ix.byFrom.length;
  const min = from - ix.maxSpan;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cues[ix.byFrom[mid]!]!.scopeFrom >= min) hi = mid;
    else lo = mid + 1;
  }
  for (let k = lo; k < ix.byFrom.length; k++) {
    const c = cues[ix.byFrom[k]!]!;
    if (c.scopeFrom >= to) break;
    if (from < c.scopeTo) hits.push(ix.byFrom[k]!);
  }
  return hits.sort((a, b) => a - b).map((i) => cues[i]!);
}
