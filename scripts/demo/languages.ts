// The demo releases in other languages: the same records as the English folder with
// the names translated from scripts/demo/translations/<tag>.json (written by this
// project for the demo; NOT MedDRA's translations). Codes, levels, links, paths,
// currency, SMQ structure and the CTCAE grade texts are copied unchanged, so a language
// folder matches its English folder by construction; the self-check verifies it anyway.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { medAsciiEncoding, mssoNameForTag, type MedAsciiEncoding } from '../../src/domain/languageTags.ts';
import { encode } from './medascii.ts';

export interface DemoLanguage {
  /** BCP 47 tag ("de"). */
  tag: string;
  /** The language field of meddra_release.asc ("German"). */
  msso: string;
  /** How the folder is written: Western European languages Windows-1252 ('latin1'), others UTF-8. */
  encoding: MedAsciiEncoding;
  /** English demo name -> translated name. */
  names: Map<string, string>;
}

/** The demo's extra languages, in the order releases.json lists them. */
export const DEMO_LANGUAGE_TAGS = ['de', 'ja'] as const;

export function loadDemoLanguages(dir: string): DemoLanguage[] {
  return DEMO_LANGUAGE_TAGS.map((tag) => {
    const msso = mssoNameForTag(tag);
    if (!msso) throw new Error(`no MSSO language name for ${tag}`);
    const raw = JSON.parse(readFileSync(path.join(dir, `${tag}.json`), 'utf8')) as Record<string, string>;
    const names = new Map(Object.entries(raw).filter(([k]) => !k.startsWith('_')));
    return { tag, msso, encoding: medAsciiEncoding(tag), names };
  });
}

export { NAME_FIELDS } from '../../src/importer/files.ts';
import { NAME_FIELDS } from '../../src/importer/files.ts';

/**
 * The records of one folder in `lang`: names translated where the table has them (an
 * untranslated name keeps its English name), the language field of meddra_release.asc
 * set, everything else unchanged.
 */
export function translateRecords(file: string, records: string[], lang: DemoLanguage, used: Set<string>): string[] {
  const fields = file === 'meddra_release.asc' ? [] : (NAME_FIELDS[file] ?? []);
  return records.map((rec) => {
    const parts = rec.slice(0, -1).split('$');
    if (file === 'meddra_release.asc') parts[1] = lang.msso;
    for (const i of fields) {
      const english = parts[i]!;
      const t = lang.names.get(english);
      if (t !== undefined) {
        used.add(english);
        if (t.includes('$') || t !== t.trim() || t === '') throw new Error(`${lang.tag}.json: bad translation of "${english}": ${JSON.stringify(t)}`);
        parts[i] = t;
      }
    }
    return parts.join('$') + '$';
  });
}

/** Bytes of a language folder's file: CRLF line ends; Windows-1252 (Latin-1 subset) or UTF-8. */
export function encodeIn(encoding: MedAsciiEncoding, file: string, records: string[]): Buffer {
  if (encoding === 'latin1') return encode(file, records);
  for (const line of records) {
    if (/[\u0000-\u001f\u007f-\u009f\ufeff]/.test(line)) throw new Error(`${file}: control character in ${JSON.stringify(line)}`);
  }
  return Buffer.from(records.map((l) => l + '\r\n').join(''), 'utf8');
}

export interface Coverage {
  level: string;
  translated: number;
  total: number;
}

/** How many distinct names of each level of an English folder's records have a translation. */
export function coverage(files: Map<string, string[]>, lang: DemoLanguage): Coverage[] {
  const out: Coverage[] = [];
  for (const [level, file] of [['SOC', 'soc.asc'], ['HLGT', 'hlgt.asc'], ['HLT', 'hlt.asc'], ['PT', 'pt.asc'], ['LLT', 'llt.asc']] as const) {
    const names = new Set((files.get(file) ?? []).map((r) => r.split('$')[1]!));
    out.push({ level, translated: [...names].filter((n) => lang.names.has(n)).length, total: names.size });
  }
  return out;
}
