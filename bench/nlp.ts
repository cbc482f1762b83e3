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

// A 2 KB section (issue 29: /labels/classify p50 within 1.2× of before): real label text from
// data/label-sections, coded as a pasted section. With NLP_BASELINE=<path of another checkout's
// src/nlp/index.ts> that engine is timed in the same run, interleaved, and the ratio printed.
{
  const { readFileSync } = await import('node:fs');
  const sections = JSON.parse(readFileSync(new URL('../data/label-sections/sections.json', import.meta.url), 'utf8')) as { text: string }[];
  let section = '';
  for (const s of sections) {
    if (section.length >= 2048) break;
    section += `${s.text}\n`;
  }
  section = section.slice(0, 2048);
  type Engine = { classifyLabel: typeof classifyLabel; vocab: unknown };
  const engines: [string, Engine][] = [['this checkout', { classifyLabel, vocab }]];
  if (process.env.NLP_BASELINE) {
    const base = (await import(process.env.NLP_BASELINE)) as typeof import('../src/nlp/index.ts');
    engines.push(['baseline', { classifyLabel: base.classifyLabel, vocab: (() => { const v = base.buildVocabulary(terms); v.warm(); return v; })() }]);
  }
  const times = new Map<string, number[]>(engines.map(([name]) => [name, []]));
  for (let round = 0; round < 300; round++) {
    for (const [name, e] of round % 2 === 0 ? engines : [...engines].reverse()) {
      const t = performance.now();
      e.classifyLabel(section, e.vocab as typeof vocab, {});
      times.get(name)!.push(performance.now() - t);
    }
  }
  const p50 = (name: string) => median(times.get(name)!);
  for (const [name] of engines) console.log(`classifyLabel 2 KB section (${name}): p50 ${p50(name).toFixed(2)} ms over 300 runs`);
  if (engines.length > 1) console.log(`ratio this / baseline: ${(p50('this checkout') / p50('baseline')).toFixed(2)}`);
}
