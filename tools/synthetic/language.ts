// A synthetic release's folder in another language (issue 28, item 8's cost benchmark): the same
// records with every name rewritten deterministically — German-looking (umlauts, ß, compounds:
// Windows-1252) or Japanese-looking (kanji and kana, no spaces: UTF-8) — and the language in
// meddra_release.asc. Structure (codes, links, paths, currency, SMQ content) is copied as is,
// so the importer accepts it as the same release. Not a translation: load-shaped names only.
import { readdirSync, readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { medAsciiEncoding, mssoNameForTag } from '../../src/domain/languageTags.ts';

import { NAME_FIELDS } from '../../src/importer/files.ts';

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

// German-looking: the same words with German spellings (so names keep their length and variety).
const GERMAN_SWAPS: [RegExp, string][] = [
  [/ae/g, 'ä'], [/oe/g, 'ö'], [/ue/g, 'ü'], [/ss/g, 'ß'], [/c(?=[aou])/g, 'k'], [/th/g, 't'], [/ph/g, 'f'], [/y/g, 'ü'], [/tion\b/g, 'tion'], [/ic\b/g, 'isch'], [/al\b/g, 'ale'],
];
function germanName(english: string): string {
  let s = english.toLowerCase();
  for (const [re, to] of GERMAN_SWAPS) s = s.replace(re, to);
  // Nouns capitalised, as German writes them.
  return s.replace(/(^|\s)(\p{L})/gu, (_m, sp: string, c: string) => sp + c.toUpperCase());
}

// Japanese-looking: each word becomes two or three characters drawn from kanji and katakana
// (hash of the word, so the same word reads the same everywhere), joined without spaces.
const KANJI = '症炎痛血腫瘍性障害不全感染異常増加減少低下亢進出発作麻痺神経心臓肝腎肺胃腸皮膚眼耳鼻骨筋関節精神睡眠呼吸循環代謝内分泌免疫過敏急慢性悪良';
const KANA = 'アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン';
function japaneseName(english: string): string {
  return english
    .split(/[\s,()/-]+/)
    .filter(Boolean)
    .map((w) => {
      const h = hash(w.toLowerCase());
      const pool = h % 3 === 0 ? KANA : KANJI;
      const n = 2 + (h % 2);
      let out = '';
      for (let k = 0; k < n; k++) out += pool[(h >>> (k * 5 + 3)) % pool.length]!;
      return out;
    })
    .join('');
}

export const SYNTHETIC_LANGUAGES = ['de', 'ja'] as const;
export type SyntheticLanguage = (typeof SYNTHETIC_LANGUAGES)[number];

/** Writes `englishDir`'s release as a folder in `tag` at `outDir`. */
export function writeLanguageFolder(englishDir: string, outDir: string, tag: SyntheticLanguage): void {
  const msso = mssoNameForTag(tag)!;
  const encoding = medAsciiEncoding(tag);
  const rename = tag === 'de' ? germanName : japaneseName;
  mkdirSync(outDir, { recursive: true });
  for (const file of readdirSync(englishDir)) {
    const text = readFileSync(path.join(englishDir, file), 'latin1');
    const fields = NAME_FIELDS[file];
    let out = text;
    if (file === 'meddra_release.asc') {
      out = text.replace(/^([^$]*)\$([^$]*)\$/, (_m, v: string) => `${v}$${msso}$`);
    } else if (fields) {
      out = text
        .split('\r\n')
        .map((line) => {
          if (!line) return line;
          const parts = line.split('$');
          for (const i of fields) if (parts[i]) parts[i] = rename(parts[i]!);
          return parts.join('$');
        })
        .join('\r\n');
    }
    writeFileSync(path.join(outDir, file), Buffer.from(out, encoding === 'latin1' ? 'latin1' : 'utf8'));
  }
}
