/**
 * Speed of the coding engine on a full-size (synthetic, ~111k PT+LLT terms) release:
 * vocabulary build, one narrative, one 100 KB label. `npx tsx bench/nlp.ts`
 */
import { generateRelease } from '../tools/synthetic/generate.ts';
import { buildVocabulary, classifyLabel, classifyText, identifyEvents, assessSeriousness, assessSeverity, type VocabularyTerm } from '../src/nlp/index.ts';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const t0 = performance.now();
const release = generateRelease({ seed: 42, version: '90.0', withSmq: false });
const terms: VocabularyTerm[] = [
  ...release.pts.map((p) => ({ code: p.code, name: p.name, level: 'PT' as const, ptCode: p.code, current: true })),
  ...release.llts.map((l) => ({ code: l.code, name: l.name, level: 'LLT' as const, ptCode: l.ptCode, current: l.current })),
];
console.log(`synthetic release: ${terms.length} terms generated in ${Math.round(performance.now() - t0)} ms`);

const builds: number[] = [];
let vocab = buildVocabulary(terms);
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  vocab = buildVocabulary(terms);
  builds.push(performance.now() - t);
}
console.log(`buildVocabulary: median ${median(builds).toFixed(0)} ms over 5 builds`);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc) {
  gc();
  const before = process.memoryUsage().heapUsed;
  let v2: unknown = buildVocabulary(terms);
  gc();
  const built = process.memoryUsage().heapUsed;
  (v2 as ReturnType<typeof buildVocabulary>).warm();
  gc();
  const warm = process.memoryUsage().heapUsed;
  console.log(`vocabulary memory: ${((built - before) / 2 ** 20).toFixed(0)} MB built, ${((warm - before) / 2 ** 20).toFixed(0)} MB with warm indexes`);
  v2 = undefined;
} else {
  console.log('(run with `node --expose-gc --import tsx bench/nlp.ts` to measure vocabulary memory)');
}
const tw = performance.now();
vocab.warm();
console.log(`warm(): ${(performance.now() - tw).toFixed(0)} ms`);

// Real words, as reporters write them, plus words of the synthetic names.
const sample = terms.slice(0, 2000).filter((_, i) => i % 100 === 0).map((t) => t.name.toLowerCase());
const narrative = `Two days after the second dose the patient vomited repeatedly and was admitted overnight; no rash. She also reported ${sample[0]} and ${sample[1]}, and denies chest pain.`;
const nt: number[] = [];
for (let i = 0; i < 50; i++) {
  const t = performance.now();
  identifyEvents(narrative, vocab);
  classifyText(narrative, vocab);
  assessSeriousness(narrative);
  assessSeverity(narrative, { systems: ['5-level', '3-level'] });
  nt.push(performance.now() - t);
}
console.log(`narrative (identify + classify + seriousness + severity): median ${median(nt).toFixed(2)} ms (first call ${nt[0]!.toFixed(1)} ms)`);

const para = (i: number) =>
  `6.${i % 9} Adverse Reactions in Study ${i}\nThe most common adverse reactions (>=10%) were ${sample[i % sample.length]}, nausea, vomiting, ${sample[(i + 3) % sample.length]} and headache. No cases of hepatotoxicity were reported.\n   ${sample[(i + 7) % sample.length]}            12%        3%\n * ${sample[(i + 5) % sample.length]} (4%)\n`;
let label = '6 ADVERSE REACTIONS\n';
for (let i = 0; label.length < 100 * 1024; i++) label += para(i);
const lt: number[] = [];
let n = 0;
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  n = classifyLabel(label, vocab, { maxResults: 100, minConfidence: 0 }).length;
  lt.push(performance.now() - t);
}
console.log(`classifyLabel: ${(label.length / 1024).toFixed(0)} KB label → ${n} PTs, median ${median(lt).toFixed(0)} ms`);
