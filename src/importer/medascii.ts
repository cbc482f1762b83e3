// Reads a MedAscii folder: finds files case-insensitively, decodes them
// (Latin-1 for English and Western European languages, UTF-8 otherwise), and
// splits `$`-terminated records, reporting syntax problems with file and line.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { FILES, type FileKey } from './files.ts';
import type { ImportIssue } from './errors.ts';
import { medAsciiEncoding } from '../domain/languageTags.ts';
import { tagOfMssoName } from '../domain/languages.ts';

export interface RawRecord {
  line: number;
  fields: string[];
}

export interface MedAsciiFolder {
  dir: string;
  /** Lower-case file name → actual path. */
  files: Map<string, string>;
  encoding: 'latin1' | 'utf8';
  version: string;
  /** The language as meddra_release.asc names it (English, Japanese). */
  language: string;
  /** Its BCP 47 tag (or the --language override). */
  languageTag: string;
  records: Partial<Record<FileKey, RawRecord[]>>;
  issues: ImportIssue[];
}

// "Extended ASCII" files are Windows-1252 in practice (a superset of Latin-1 that
// puts ’ “ ” – in 0x80–0x9F). Node's TextDecoder treats that label as plain
// Latin-1, so iconv-lite does the decoding.
const windows1252 = { decode: (b: Buffer) => iconv.decode(b, 'windows-1252') };

/** Western languages' files are Windows-1252, every other language's UTF-8 (by BCP 47 tag: languageTags.ts). */
export function encodingFor(tag: string): 'latin1' | 'utf8' {
  return medAsciiEncoding(tag);
}

export function splitRecords(text: string, file: string, fields: number, issues: ImportIssue[]): RawRecord[] {
  const out: RawRecord[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() === '') continue;
    const n = i + 1;
    if (!line.endsWith('$')) {
      issues.push({ file, line: n, message: "record does not end with '$'" });
      continue;
    }
    const parts = line.slice(0, -1).split('$');
    if (parts.length !== fields) {
      issues.push({ file, line: n, message: `wrong field count: expected ${fields}, found ${parts.length}` });
      continue;
    }
    out.push({ line: n, fields: parts.map((p) => p.trim()) });
  }
  return out;
}

/** `languageTag` overrides the language read from meddra_release.asc (and so the decoding). */
export function readFolder(dir: string, languageTag?: string): MedAsciiFolder {
  const issues: ImportIssue[] = [];
  let entries: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a directory');
    entries = readdirSync(dir);
  } catch {
    throw new Error(`Cannot read the MedAscii folder ${dir}: it does not exist or is not a directory.`);
  }
  const files = new Map(entries.map((e) => [e.toLowerCase(), path.join(dir, e)]));
  // Some distributions nest the .asc files in a MedAscii/ subfolder.
  if (!files.has(FILES.release.name) && files.has('medascii')) return readFolder(files.get('medascii')!, languageTag);

  const folder: MedAsciiFolder = { dir, files, encoding: 'latin1', version: '', language: 'English', languageTag: 'en', records: {}, issues };
  for (const [key, spec] of Object.entries(FILES) as [FileKey, (typeof FILES)[FileKey]][]) {
    if (!files.has(spec.name) && spec.required) issues.push({ file: spec.name, line: 0, message: 'required file is missing' });
  }
  // meddra_release.asc is plain ASCII in every language: read it first to learn the encoding.
  const releasePath = files.get(FILES.release.name);
  if (releasePath) {
    const recs = splitRecords(readFileSync(releasePath, 'latin1'), FILES.release.name, FILES.release.fields, issues);
    folder.records.release = recs;
    if (recs.length !== 1) {
      issues.push({ file: FILES.release.name, line: 0, message: `expected exactly one record, found ${recs.length}` });
    }
    const first = recs[0];
    if (first) {
      folder.version = first.fields[0] ?? '';
      folder.language = first.fields[1] || 'English';
      if (!folder.version) issues.push({ file: FILES.release.name, line: first.line, message: 'version is empty' });
    }
  }
  folder.languageTag = languageTag ?? tagOfMssoName(folder.language);
  folder.encoding = encodingFor(folder.languageTag);
  for (const [key, spec] of Object.entries(FILES) as [FileKey, (typeof FILES)[FileKey]][]) {
    if (key === 'release') continue;
    const p = files.get(spec.name);
    if (!p) continue;
    const buf = readFileSync(p);
    // A UTF-8 byte-order mark would otherwise become part of the first code.
    const text = folder.encoding === 'utf8' ? buf.toString('utf8').replace(/^\uFEFF/, '') : windows1252.decode(buf);
    folder.records[key] = splitRecords(text, spec.name, spec.fields, issues);
  }
  return folder;
}
