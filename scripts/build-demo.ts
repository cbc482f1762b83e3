// Builds the open demo releases in data/demo from the public-domain CTCAE CSVs
// in data/ctcae: 4.03 and 5.0 (real CTCAE versions) and 5.0.1 (made up from
// 5.0). NOT MedDRA: see data/demo/README.md.
//
//   npx tsx scripts/build-demo.ts           write data/demo (and new codes to scripts/demo/code-map.json)
//   npx tsx scripts/build-demo.ts --check   rebuild in memory, fail if the committed files differ
//
// Deterministic: same inputs, same bytes. Exits non-zero if the self-check fails.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addRetiredTerms, addVariants, applyChanges, buildFromCtcae, RETIRED_TERM_SUCCESSORS } from './demo/assemble.ts';
import { RELEASE_501_CHANGES } from './demo/changes-501.ts';
import { checkAcross, checkLanguageFolder, parseAndCheck, type Parsed } from './demo/check.ts';
import { CodeMap } from './demo/codes.ts';
import { loadCtcae } from './demo/ctcae.ts';
import { countKinds, diffReleases, type DiffKind } from './demo/diff.ts';
import { SECONDARY_PATHS } from './demo/groups.ts';
import { Hierarchy } from './demo/hierarchy.ts';
import { coverage, encodeIn, loadDemoLanguages, NAME_FIELDS, translateRecords, type Coverage } from './demo/languages.ts';
import { LAY_TERMS, NON_CURRENT_TERMS } from './demo/lay-terms.ts';
import { encode, renderRelease, type AscFile } from './demo/medascii.ts';
import { cloneRelease, type Release } from './demo/model.ts';
import { countRelease, countsTable, renderReadme, type Counts } from './demo/readme.ts';
import { renderSmqs, smqReadmeLines } from './demo/smqs.ts';
import { SOCS } from './demo/socs.ts';
import { nameKey } from './demo/text.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ctcaeDir = path.join(root, 'data', 'ctcae');
const demoDir = path.join(root, 'data', 'demo');
const codeMapFile = path.join(root, 'scripts', 'demo', 'code-map.json');
const translationsDir = path.join(root, 'scripts', 'demo', 'translations');
const checkOnly = process.argv.includes('--check');

/** Change kinds 5.0.1 must exercise. */
const REQUIRED_501_KINDS: DiffKind[] = [
  'pt-added',
  'pt-renamed',
  'pt-soc-moved',
  'pt-demoted',
  'llt-promoted',
  'llt-added',
  'llt-renamed',
  'llt-noncurrent',
  'llt-current',
  'llt-moved',
  'link-added',
  'link-removed',
  'hlt-added',
];

function main(): number {
  const log: string[] = [];
  const codes = new CodeMap(codeMapFile);
  const hier = new Hierarchy(codes);

  const f403 = loadCtcae(path.join(ctcaeDir, 'CTCAE_4.03.csv'), 'CTCAE v4.03');
  const f50 = loadCtcae(path.join(ctcaeDir, 'CTCAE_v5.0.csv'), 'CTCAE v5.0');

  // Typo guards for the hand-written tables.
  const allTerms = new Set([...f403.terms, ...f50.terms].map((t) => nameKey(t.name)));
  const problems: string[] = [];
  for (const [table, obj] of [
    ['LAY_TERMS', LAY_TERMS],
    ['NON_CURRENT_TERMS', NON_CURRENT_TERMS],
    ['SECONDARY_PATHS', SECONDARY_PATHS],
    ['RETIRED_TERM_SUCCESSORS', RETIRED_TERM_SUCCESSORS],
  ] as const) {
    for (const k of Object.keys(obj)) if (!allTerms.has(nameKey(k))) problems.push(`${table}: "${k}" is not a CTCAE term`);
  }

  const r403 = buildFromCtcae(
    f403,
    { version: '4.03', releaseDate: '2010-06-14', dir: '4.03', source: 'from CTCAE v4.03' },
    hier,
  );
  addVariants(r403, codes, (m) => log.push(m));
  const r50 = buildFromCtcae(f50, { version: '5.0', releaseDate: '2017-11-27', dir: '5.0', source: 'from CTCAE v5.0' }, hier);
  addVariants(r50, codes, (m) => log.push(m));
  const retiredNotes: string[] = []; // printed, not in the README (the diff lists them)
  addRetiredTerms(r403, r50, codes, (m) => retiredNotes.push(m));
  const r501 = cloneRelease(r50, {
    version: '5.0.1',
    releaseDate: '2025-06-01',
    dir: '5.0.1',
    source: 'made up from 5.0 for demonstration (not a CTCAE version)',
  });
  applyChanges(r501, RELEASE_501_CHANGES, hier, codes);
  const releases: Release[] = [r403, r50, r501];

  problems.push(...hier.unusedExactMatchers.map((m) => `groups.ts: "${m}" matches no CTCAE term`));
  for (const u of hier.catchAllUses) log.push(`catch-all HLT used for ${u}`);

  // Render, encode, self-check.
  const outputs = new Map<string, Buffer>(); // path relative to root -> bytes
  const parsed: Parsed[] = [];
  const counts: Counts[] = [];
  // Demo SMQs (not MedDRA's): smq_list.asc / smq_content.asc in every release folder.
  const smqFiles = renderSmqs(releases, problems);
  // The same releases in other languages (names written for the demo; see languages.ts).
  const languages = loadDemoLanguages(translationsDir);
  const usedNames = new Map(languages.map((l) => [l.tag, new Set<string>()]));
  const parsedByLanguage = new Map<string, Parsed[]>(languages.map((l) => [l.tag, []]));
  const languageCoverage: { version: string; tag: string; coverage: Coverage[] }[] = [];
  const languageDirs: string[] = [];
  for (const r of releases) {
    const files = renderRelease(r, hier);
    const bufs = new Map<AscFile, Buffer>();
    for (const [f, records] of files) {
      const buf = encode(f, records);
      bufs.set(f, buf);
      outputs.set(path.join('data', 'demo', r.dir, f), buf);
    }
    parsed.push(parseAndCheck(r.version, bufs, problems));
    counts.push(countRelease(r, files));
    const smq = smqFiles.get(r.version)!;
    const english = new Map<string, string[]>([...files, ['smq_list.asc', smq.list], ['smq_content.asc', smq.content]]);
    for (const [f, records] of english) if (f.startsWith('smq_')) outputs.set(path.join('data', 'demo', r.dir, f), encode(f, records));
    for (const lang of languages) {
      const dir = `${r.dir}-${lang.tag}`;
      languageDirs.push(dir);
      const translated = new Map<string, string[]>();
      const langBufs = new Map<AscFile, Buffer>();
      for (const [f, records] of english) {
        const recs = translateRecords(f, records, lang, usedNames.get(lang.tag)!);
        translated.set(f, recs);
        const buf = encodeIn(lang.encoding, f, recs);
        if (!f.startsWith('smq_')) langBufs.set(f as AscFile, buf);
        outputs.set(path.join('data', 'demo', dir, f), buf);
      }
      const label = `${lang.tag}, ${dir}/`;
      parsedByLanguage.get(lang.tag)!.push(parseAndCheck(r.version, langBufs, problems, { language: lang.msso, encoding: lang.encoding, label }));
      checkLanguageFolder(`${r.version} (${label})`, english, translated, NAME_FIELDS, problems);
      const cov = coverage(english, lang);
      languageCoverage.push({ version: r.version, tag: lang.tag, coverage: cov });
      // Every SOC, HLGT, HLT and PT name is translated; LLT variants only where natural.
      for (const c of cov) if (c.level !== 'LLT' && c.translated !== c.total) problems.push(`${r.version} (${label}): ${c.total - c.translated} ${c.level} names untranslated`);
    }
  }
  checkAcross(parsed, problems);
  for (const [tag, p] of parsedByLanguage) checkAcross(p.map((x) => ({ ...x, version: `${x.version} (${tag})` })), problems);
  for (const lang of languages) {
    const used = usedNames.get(lang.tag)!;
    for (const k of lang.names.keys()) if (!used.has(k)) problems.push(`translations/${lang.tag}.json: "${k}" is not a name of any demo release`);
  }

  const diff403to50 = diffReleases(r403, r50, hier);
  const diff50to501 = diffReleases(r50, r501, hier);
  const kinds501 = countKinds(diff50to501);
  for (const k of REQUIRED_501_KINDS) if (!kinds501.get(k)) problems.push(`5.0.1 does not exercise the change kind ${k}`);

  const releasesJson = releases.map((r) => ({
    version: r.version,
    releaseDate: r.releaseDate,
    dir: r.dir,
    languages: languages.map((l) => ({ language: l.tag, dir: `${r.dir}-${l.tag}` })),
  }));
  outputs.set(path.join('data', 'demo', 'releases.json'), Buffer.from(JSON.stringify(releasesJson) + '\n', 'utf8'));
  const emptySocs = SOCS.filter((s) => releases.some((r) => r.socCodes.has(s.code) && ![...r.pts.values()].some((p) => p.socCode === s.code)))
    .map((s) => `${s.name} (${releases.filter((r) => r.socCodes.has(s.code) && ![...r.pts.values()].some((p) => p.socCode === s.code)).map((r) => r.version).join(', ')})`);
  const readme = renderReadme({
    releases,
    counts,
    diff403to50,
    diff50to501,
    changes: RELEASE_501_CHANGES,
    csvNotes: [
      ...f403.notes,
      ...f50.notes,
      ...([...f403.notes, ...f50.notes].some((n) => n.includes(' duplicates the '))
        ? []
        : ['Neither CSV has two rows with the same code or the same term name (the build would keep the first and say so here).']),
      'The Musculoskeletal "Other, specify" row reads "Musculoskeletal and connective tissue disorder - Other, specify" (singular "disorder"; a double space in v4.03); SOC rows are recognised by the "- Other, specify" suffix and their SOC column.',
      'The v5.0 "CTCAE v5.0 Change" column never says a term was deleted; the terms dropped since v4.03 are found by comparing the files.',
    ],
    skippedVariants: log.filter((m) => m.includes('skipped variant')),
    emptySocs,
    smqs: smqReadmeLines(releases),
    languages: languages.map((l) => ({
      tag: l.tag,
      msso: l.msso,
      encoding: l.encoding,
      coverage: languageCoverage.filter((c) => c.tag === l.tag).map((c) => ({ version: c.version, coverage: c.coverage })),
    })),
  });
  outputs.set(path.join('data', 'demo', 'README.md'), Buffer.from(readme, 'utf8'));

  // Report.
  for (const m of log) console.log(`note: ${m}`);
  for (const m of retiredNotes) console.log(`note: ${m}`);
  console.log('\nCounts per release:\n');
  console.log(countsTable(counts));
  console.log('5.0 -> 5.0.1 change kinds:', [...kinds501].map(([k, n]) => `${k}=${n}`).join(', '));
  console.log('4.03 -> 5.0 change kinds:', [...countKinds(diff403to50)].map(([k, n]) => `${k}=${n}`).join(', '));

  if (checkOnly && codes.addedKeys.length) {
    problems.push(`code-map.json lacks ${codes.addedKeys.length} codes (run without --check): ${codes.addedKeys.slice(0, 5).join(', ')}`);
  }
  if (problems.length) {
    console.error(`\nSELF-CHECK FAILED (${problems.length} problems):`);
    for (const p of problems.slice(0, 200)) console.error(`  - ${p}`);
    return 1;
  }

  if (checkOnly) {
    const stale: string[] = [];
    for (const [rel, buf] of outputs) {
      const file = path.join(root, rel);
      if (!existsSync(file) || !readFileSync(file).equals(buf)) stale.push(rel);
    }
    if (stale.length) {
      console.error(`\nThe committed demo data is out of date (${stale.length} files), run npm run demo:build:`);
      for (const s of stale) console.error(`  - ${s}`);
      return 1;
    }
    console.log('\nSelf-check passed; committed demo data is up to date.');
    return 0;
  }

  for (const d of [...releases.map((r) => r.dir), ...languageDirs]) {
    const dir = path.join(demoDir, d);
    if (existsSync(dir)) for (const f of readdirSync(dir)) if (f.toLowerCase().endsWith('.asc')) rmSync(path.join(dir, f));
  }
  for (const [rel, buf] of outputs) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, buf);
  }
  if (codes.addedKeys.length) console.log(`\n${codes.addedKeys.length} new codes recorded in scripts/demo/code-map.json`);
  writeFileSync(codeMapFile, codes.toJson());
  console.log(`\nSelf-check passed. Wrote ${outputs.size} files under data/demo.`);
  return 0;
}

try {
  process.exitCode = main();
} catch (e) {
  console.error(`build-demo failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
}
