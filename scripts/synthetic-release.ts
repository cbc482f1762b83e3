/**
 * Deterministic synthetic full-size release generator (MedAscii files).
 *
 *   npx tsx scripts/synthetic-release.ts --out DIR [--seed 42] [--version 90.0] [--scale 1]
 *                                        [--next-version 90.1] [--no-smq] [--changes-json] [--languages de,ja]
 *
 * Writes DIR/<version>/ and, with --next-version, DIR/<next-version>/ (changed successor).
 * With --languages also DIR/<version>-<tag>/ per language: the same release's folder in that
 * language (made-up names of the script's shape, not translations; `terminology import` adds it).
 * With --changes-json also DIR/<next-version>.changes.json (what changed, by code).
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  checkRelease,
  generateRelease,
  releaseCounts,
  writeMedAscii,
  type SyntheticRelease,
} from '../tools/synthetic/generate.ts';
import { SYNTHETIC_LANGUAGES, writeLanguageFolder, type SyntheticLanguage } from '../tools/synthetic/language.ts';

const USAGE =
  'usage: synthetic-release --out DIR [--seed 42] [--version 90.0] [--scale 1] [--next-version 90.1] [--no-smq] [--changes-json] [--languages de,ja]';

function fail(msg: string): never {
  process.stderr.write(`${msg}\n${USAGE}\n`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    seed: { type: 'string', default: '42' },
    version: { type: 'string', default: '90.0' },
    scale: { type: 'string', default: '1' },
    'next-version': { type: 'string' },
    'no-smq': { type: 'boolean', default: false },
    'changes-json': { type: 'boolean', default: false },
    languages: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});

if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!values.out) fail('--out is required');
const seed = Number(values.seed);
if (!Number.isSafeInteger(seed)) fail(`--seed must be an integer, got ${values.seed}`);
const scale = Number(values.scale);
if (!Number.isFinite(scale) || scale <= 0) fail(`--scale must be a positive number, got ${values.scale}`);
const versionRe = /^[0-9A-Za-z._-]+$/;
if (!versionRe.test(values.version)) fail(`bad --version ${values.version}`);
const next = values['next-version'];
if (next !== undefined && (!versionRe.test(next) || next === values.version)) fail(`bad --next-version ${next}`);
const out = resolve(values.out);
const languages = (values.languages ?? '').split(',').map((l) => l.trim()).filter(Boolean);
for (const l of languages) if (!(SYNTHETIC_LANGUAGES as readonly string[]).includes(l)) fail(`--languages: ${l} is not one of ${SYNTHETIC_LANGUAGES.join(', ')}`);
const withSmq = !values['no-smq'];

const ms = (t0: bigint): string => `${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(0)} ms`;
const fmt = (n: number): string => n.toLocaleString('en-US');

function describe(r: SyntheticRelease): string {
  const c = releaseCounts(r);
  const nonCurrent = r.llts.filter((l) => !l.current).length;
  const secondaryPts = new Set(r.paths.filter((p) => !p.primary).map((p) => p.ptCode)).size;
  return (
    `SOC ${fmt(c.SOC)}  HLGT ${fmt(c.HLGT)}  HLT ${fmt(c.HLT)}  PT ${fmt(c.PT)}  LLT ${fmt(c.LLT)}` +
    `  | hlt_pt ${fmt(r.links.hltPt.length)}  mdhier ${fmt(r.paths.length)}  PTs with secondary paths ${fmt(secondaryPts)}` +
    `  non-current LLTs ${fmt(nonCurrent)}` +
    (r.withSmq ? `  | SMQ ${fmt(r.smqs.length)}  smq_content ${fmt(r.smqContent.length)}` : '')
  );
}

async function emit(r: SyntheticRelease, tGen: bigint): Promise<void> {
  const genTime = ms(tGen);
  const tCheck = process.hrtime.bigint();
  checkRelease(r);
  const checkTime = ms(tCheck);
  const tWrite = process.hrtime.bigint();
  const dir = join(out, r.version);
  await writeMedAscii(r, dir);
  process.stdout.write(
    `release ${r.version} (seed ${r.seed}, scale ${r.scale}) → ${dir}\n  ${describe(r)}\n` +
      `  generate ${genTime}, check ${checkTime}, write ${ms(tWrite)}\n`,
  );
  for (const tag of languages) {
    const langDir = join(out, `${r.version}-${tag}`);
    writeLanguageFolder(dir, langDir, tag as SyntheticLanguage);
    process.stdout.write(`  language ${tag} → ${langDir}\n`);
  }
}

const tAll = process.hrtime.bigint();
let t = process.hrtime.bigint();
const base = generateRelease({ seed, version: values.version, scale, withSmq });
await emit(base, t);

if (next !== undefined) {
  t = process.hrtime.bigint();
  const succ = generateRelease({ seed, version: next, scale, withSmq, changesFrom: base });
  await emit(succ, t);
  const ch = succ.changes;
  if (ch) {
    const rows: [string, number][] = [
      ['new HLTs', ch.newHlts.length],
      ['new PTs', ch.newPts.length],
      ['new LLTs (total, incl. own LLTs of new PTs)', ch.newLlts.length],
      ['new LLTs on existing PTs', ch.newLltsOnExistingPts.length],
      ['PTs renamed', ch.renamedPts.length],
      ['LLTs renamed', ch.renamedLlts.length],
      ['LLTs made non-current', ch.lltsMadeNonCurrent.length],
      ['LLTs made current', ch.lltsMadeCurrent.length],
      ['primary SOC moves (flag swap)', ch.primarySocMoves.filter((m) => !m.newPath).length],
      ['primary SOC moves (new path)', ch.primarySocMoves.filter((m) => m.newPath).length],
      ['PT-HLT links added', ch.linksAdded.length],
      ['PT-HLT links removed', ch.linksRemoved.length],
      ['LLTs moved to another PT', ch.lltsMoved.length],
      ['PTs demoted to LLTs', ch.demotedPts.length],
      ['LLTs promoted to PTs', ch.promotedLlts.length],
      ['SMQ content rows changed/added', ch.smqRowsChanged],
    ];
    process.stdout.write(`  changes ${ch.fromVersion} → ${ch.toVersion}:\n`);
    for (const [k, v] of rows) process.stdout.write(`    ${k.padEnd(46)} ${fmt(v)}\n`);
    if (values['changes-json']) {
      const f = join(out, `${next}.changes.json`);
      await writeFile(f, JSON.stringify(ch, null, 1) + '\n');
      process.stdout.write(`  changes written to ${f}\n`);
    }
  }
}

const rssMb = process.resourceUsage().maxRSS / 1024;
process.stdout.write(`total ${ms(tAll)}, peak RSS ${rssMb.toFixed(0)} MB\n`);
