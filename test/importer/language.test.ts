// Issue 28: a MedAscii folder of a hosted version in another language adds that language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../src/paths.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { rowsAt } from '../helpers/releaseRows.ts';
import { editFile, miniSpec, writeFixture } from '../helpers/medascii.ts';
import { translated } from '../helpers/languages.ts';
import { importRelease } from '../../src/importer/import.ts';
import { ImportRefusedError, ImportValidationError } from '../../src/importer/errors.ts';
import { listReleases } from '../../src/domain/releases.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.cleanup();
});

const german = (n: string) => (n === 'Nausea' ? 'Übelkeit' : `${n} (de)`);
const japanese = (n: string) => (n === 'Nausea' ? '悪心' : n === 'Vomiting' ? '嘔吐' : `${n}（日本語）`);

async function names(version: string, language: string) {
  return rowsAt(db.prisma, 'concept_name', version, 't.language = $2 ORDER BY t.level, t.code', language);
}

describe('adding a language to a hosted release', () => {
  it('adds German and Japanese to an English release; the primary stays the first imported', async () => {
    await importRelease(db, writeFixture(miniSpec('1.0')));
    const de = await importRelease(db, writeFixture(translated('1.0', 'German', german)));
    expect(de).toMatchObject({ kind: 'language', languageTag: 'de', languages: ['en', 'de'], replaced: false });
    const ja = await importRelease(db, writeFixture(translated('1.0', 'Japanese', japanese), { encoding: 'utf8' }));
    expect(ja.languages).toEqual(['en', 'de', 'ja']);
    const [r] = await listReleases(db.prisma);
    expect(r).toMatchObject({ version: '1.0', language: 'English', languages: ['en', 'de', 'ja'] });
    // Primary names untouched; the others in concept_name, decoded per language.
    const nausea = await db.prisma.concept.findFirst({ where: { code: 10028813, level: 'PT' } });
    expect(nausea?.name).toBe('Nausea');
    expect((await names('1.0', 'de')).find((n) => n.code === 10028813 && n.level === 'PT')?.name).toBe('Übelkeit');
    expect((await names('1.0', 'ja')).find((n) => n.code === 10028813 && n.level === 'PT')?.name).toBe('悪心');
    expect((await names('1.0', 'ja')).length).toBe(3 + 4 + 5 + 6 + 15);
    // Still one release, no second unrelated one.
    expect(await db.prisma.release.count()).toBe(1);
  });

  it('refuses a language already hosted unless --replace, and --replace replaces only that language', async () => {
    const dir = writeFixture(translated('1.0', 'German', (n) => (n === 'Nausea' ? 'Brechreiz' : german(n))));
    await expect(importRelease(db, dir)).rejects.toThrow(ImportRefusedError);
    await expect(importRelease(db, dir)).rejects.toThrow(/already imported in de/);
    const s = await importRelease(db, dir, { replace: true });
    expect(s).toMatchObject({ kind: 'language', replaced: true, languages: ['en', 'de', 'ja'] });
    expect((await names('1.0', 'de')).find((n) => n.code === 10028813 && n.level === 'PT')?.name).toBe('Brechreiz');
    expect((await names('1.0', 'ja')).find((n) => n.code === 10028813 && n.level === 'PT')?.name).toBe('悪心');
  });

  it('replacing the primary language replaces the names in concept', async () => {
    await importRelease(db, writeFixture(translated('1.0', 'English', (n) => (n === 'Nausea' ? 'Nausea (corrected)' : n))), { replace: true });
    const nausea = await db.prisma.concept.findFirst({ where: { code: 10028813, level: 'PT' } });
    expect(nausea).toMatchObject({ name: 'Nausea (corrected)', nameNorm: 'nausea (corrected)' });
    expect((await listReleases(db.prisma))[0]!.languages).toEqual(['en', 'de', 'ja']);
  });

  it('--language overrides the language read from meddra_release.asc (and the decoding)', async () => {
    const spec = translated('1.0', 'English', (n) => (n === 'Nausea' ? 'Nausée' : `${n} (fr)`));
    const s = await importRelease(db, writeFixture(spec), { language: 'fr' });
    expect(s.languages).toEqual(['en', 'de', 'ja', 'fr']);
    expect((await names('1.0', 'fr')).find((n) => n.code === 10028813 && n.level === 'PT')?.name).toBe('Nausée');
    await expect(importRelease(db, writeFixture(spec), { language: 'not a tag' })).rejects.toThrow(/Invalid language/);
  });

  it('either language may come first: a Japanese release gets English added', async () => {
    await importRelease(db, writeFixture(translated('2.0', 'Japanese', japanese), { encoding: 'utf8' }));
    const s = await importRelease(db, writeFixture(miniSpec('2.0')));
    expect(s.languages).toEqual(['ja', 'en']);
    const rel = (await db.prisma.release.findUnique({ where: { version: '2.0' } }))!;
    expect(rel.language).toBe('Japanese');
    expect((await rowsAt(db.prisma, 'concept', rel.id, "t.code = 10028813 AND t.level = 'PT'"))[0]?.name).toBe('悪心');
    expect((await names('2.0', 'en')).find((n) => n.code === 10028813 && n.level === 'PT')?.name).toBe('Nausea');
  });
});

describe('a language folder must match the hosted structure exactly', () => {
  const cases: [string, (dir: string) => void, RegExp][] = [
    ['a missing LLT', (d) => editFile(d, 'llt.asc', (l) => l.filter((x) => !x.startsWith('93000002$'))), /llt\.asc: LLT 93000002 of the hosted release 1\.0 is missing/],
    ['an extra LLT', (d) => editFile(d, 'llt.asc', (l) => [...l, '93000099$Extra$10047700$$$$$$$Y$$']), /llt\.asc:16: LLT 93000099 is not in the hosted release 1\.0/],
    ['another currency', (d) => editFile(d, 'llt.asc', (l) => l.map((x) => (x.startsWith('93000003$') ? x.replace('$N$', '$Y$') : x))), /llt\.asc:\d+: LLT 93000003 is current here but non-current/],
    ['an LLT under another PT', (d) => editFile(d, 'llt.asc', (l) => l.map((x) => (x.startsWith('93000001$') ? x.replace('$10047700$', '$10028813$') : x))), /LLT 93000001 belongs to PT 10028813 here but to PT 10047700/],
    ['a missing secondary path and link', (d) => {
      editFile(d, 'mdhier.asc', (l) => l.filter((x) => !(x.startsWith('10013573$92000004$'))));
      editFile(d, 'hlt_pt.asc', (l) => l.filter((x) => x !== '92000004$10013573$'));
    }, /hlt_pt\.asc: link HLT 92000004 → PT 10013573 of the hosted release 1\.0 is missing/],
  ];
  for (const [name, edit, message] of cases) {
    it(`${name}: refused with file, line and reason, nothing written`, async () => {
      const dir = writeFixture(translated('1.0', 'Italian', (n) => `${n} (it)`));
      edit(dir);
      const before = await db.prisma.conceptName.count();
      const err = await importRelease(db, dir).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImportValidationError);
      expect((err as Error).message).toMatch(message);
      expect(await db.prisma.conceptName.count()).toBe(before);
      expect((await listReleases(db.prisma)).find((r) => r.version === '1.0')!.languages).not.toContain('it');
    });
  }

  it('a folder of another language whose structure is identical passes (control)', async () => {
    const s = await importRelease(db, writeFixture(translated('1.0', 'Italian', (n) => `${n} (it)`)));
    expect(s.languages).toContain('it');
  });

  it('a failure while writing the names rolls the language back (one transaction)', async () => {
    const dir = writeFixture(translated('1.0', 'Dutch', (n) => `${n} (nl)`));
    const before = await db.prisma.conceptName.count();
    await expect(
      importRelease(db, dir, {
        onProgress: (p) => {
          // After the first chunk of names is in.
          if (p.phase === 'write' && p.done > 0) throw new Error('disk full (simulated)');
        },
      }),
    ).rejects.toThrow(/disk full/);
    expect(await db.prisma.conceptName.count()).toBe(before);
    expect(await db.prisma.releaseLanguage.count({ where: { language: 'nl' } })).toBe(0);
  });
});

describe('the synthetic generator\'s language folders (scripts/synthetic-release.ts --languages)', () => {
  it('are the same release in German (Windows-1252) and Japanese (UTF-8): both import as added languages', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'te-synth-lang-'));
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'scripts/synthetic-release.ts'), '--out', dir, '--scale', '0.02', '--version', '77.0', '--languages', 'de,ja'], { encoding: 'utf8', timeout: 120_000 });
      expect(run.status, run.stderr).toBe(0);
      await importRelease(db, path.join(dir, '77.0'));
      const de = await importRelease(db, path.join(dir, '77.0-de'));
      const ja = await importRelease(db, path.join(dir, '77.0-ja'));
      expect(de).toMatchObject({ kind: 'language', languageTag: 'de' });
      expect(ja).toMatchObject({ kind: 'language', languageTag: 'ja', languages: ['en', 'de', 'ja'] });
      // Every PT and LLT named in each language, with the script's characters decoded.
      const rel = (await db.prisma.release.findUnique({ where: { version: '77.0' } }))!;
      const terms = (await rowsAt(db.prisma, 'concept', rel.id, "t.level IN ('PT', 'LLT')")).length;
      const jaNames = await rowsAt<{ name: string }>(db.prisma, 'concept_name', rel.id, "t.language = 'ja' AND t.level IN ('PT', 'LLT')");
      expect(jaNames).toHaveLength(terms);
      expect(jaNames.every((n) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(n.name))).toBe(true);
      const deNames = (await rowsAt(db.prisma, 'concept_name', rel.id, "t.language = 'de' AND t.level IN ('PT', 'LLT')")).length;
      expect(deNames).toBe(terms);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
