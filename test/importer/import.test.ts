import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { rowsAt } from '../helpers/releaseRows.ts';
import { editFile, miniSpec, writeFixture } from '../helpers/medascii.ts';
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

async function counts(version: string) {
  const rel = await db.prisma.release.findUnique({ where: { version } });
  if (!rel) return null;
  const by: Record<string, number> = {};
  for (const c of await rowsAt(db.prisma, 'concept', rel.id)) by[c.level] = (by[c.level] ?? 0) + 1;
  return by;
}

describe('importing a valid release', () => {
  it('imports every level, links, paths and grades, with the version from meddra_release.asc', async () => {
    const dir = writeFixture(miniSpec('1.0'));
    const s = await importRelease(db, dir, { releaseDate: '2024-03-01' });
    expect(s.version).toBe('1.0');
    expect(s.counts).toEqual({ SOC: 3, HLGT: 4, HLT: 5, PT: 6, LLT: 15 });
    expect(await counts('1.0')).toEqual({ SOC: 3, HLGT: 4, HLT: 5, PT: 6, LLT: 15 });
    const rel = (await db.prisma.release.findUnique({ where: { version: '1.0' } }))!;
    expect(rel.releaseDate?.toISOString().slice(0, 10)).toBe('2024-03-01');
    expect((await rowsAt(db.prisma, 'grade_definition', rel.id)).length).toBe(6);
    const nonCurrent = await rowsAt(db.prisma, 'concept', rel.id, 'NOT t.current');
    expect(nonCurrent.map((c) => c.name)).toEqual(['Vomiting NOS']);
  });

  it('flags the primary path of a multiaxial PT, on paths and on HLT→PT links', async () => {
    const rel = (await db.prisma.release.findUnique({ where: { version: '1.0' } }))!;
    const paths = await rowsAt(db.prisma, 'hierarchy_path', rel.id, 't.pt_code = 10013573 ORDER BY t.soc_code');
    expect(paths.map((p) => [p.socCode, p.isPrimary])).toEqual([
      [10013993, false],
      [10029205, true],
    ]);
    const links = await rowsAt(db.prisma, 'hierarchy_link', rel.id, "t.child_level = 'PT' AND t.child_code = 10013573 ORDER BY t.parent_code");
    expect(links.map((l) => [l.parentCode, l.isPrimary])).toEqual([
      [92000004, false],
      [92000005, true],
    ]);
    const [pt] = await rowsAt(db.prisma, 'concept', rel.id, "t.level = 'PT' AND t.code = 10013573");
    expect(pt?.primarySocCode).toBe(10029205);
  });

  it('decodes Latin-1 names and stores an accent-free search form', async () => {
    const rel = (await db.prisma.release.findUnique({ where: { version: '1.0' } }))!;
    const [c] = await rowsAt(db.prisma, 'concept', rel.id, "t.level = 'PT' AND t.code = 10027183");
    expect(c?.name).toBe("Ménière's-like vertigo");
    expect(c?.nameNorm).toBe("meniere's-like vertigo");
  });

  it('reads Windows-1252 punctuation, LF line endings and upper-case file names', async () => {
    const dir = writeFixture(miniSpec('1.1'), { eol: '\n', rename: (n) => n.toUpperCase() });
    // 0x92 is a right single quote in Windows-1252 ("extended ASCII").
    const p = path.join(dir, 'PT.ASC');
    const text = readFileSync(p, 'latin1').replace("Ménière's", 'Ménière\x92s');
    writeFileSync(p, Buffer.from(text, 'latin1'));
    editFile(dir, 'MDHIER.ASC', (l) => l);
    await importRelease(db, dir);
    const rel = (await db.prisma.release.findUnique({ where: { version: '1.1' } }))!;
    const [c] = await rowsAt(db.prisma, 'concept', rel.id, "t.level = 'PT' AND t.code = 10027183");
    expect(c?.name).toBe('Ménière\u2019s-like vertigo');
  });

  it('reads UTF-8 for languages outside Western Europe', async () => {
    const spec = miniSpec('1.0-ja');
    spec.language = 'Japanese';
    spec.llts.push([93000010, '嘔吐', 10047700]);
    const dir = writeFixture(spec, { encoding: 'utf8' });
    await importRelease(db, dir);
    const rel = (await db.prisma.release.findUnique({ where: { version: '1.0-ja' } }))!;
    expect(rel.language).toBe('Japanese');
    const [c] = await rowsAt(db.prisma, 'concept', rel.id, 't.code = 93000010');
    expect(c?.name).toBe('嘔吐');
    const [m] = await rowsAt(db.prisma, 'concept', rel.id, 't.code = 10027183');
    expect(m?.name).toBe("Ménière's-like vertigo");
  });

  it('honours --version and keeps releases in natural version order', async () => {
    await importRelease(db, writeFixture(miniSpec('ignored')), { version: '0.9' });
    const list = await listReleases(db.prisma);
    expect(list.map((r) => r.version)).toEqual(['1.1', '1.0-ja', '1.0', '0.9']);
    expect(list[0]!.isLatest).toBe(true);
    expect(list.map((r) => r.ordinal)).toEqual([4, 3, 2, 1]);
  });

  it('refuses to re-import an existing version unless replace is given', async () => {
    const dir = writeFixture(miniSpec('1.0'));
    await expect(importRelease(db, dir)).rejects.toThrow(ImportRefusedError);
    await expect(importRelease(db, dir)).rejects.toThrow(/already imported.*--replace/);
    const spec = miniSpec('1.0');
    spec.llts.push([93000011, 'Barfing', 10047700]);
    const s = await importRelease(db, writeFixture(spec), { replace: true });
    expect(s.replaced).toBe(true);
    expect((await counts('1.0'))!.LLT).toBe(16);
    expect((await listReleases(db.prisma)).map((r) => r.version)).toEqual(['1.1', '1.0-ja', '1.0', '0.9']);
  });

  it('rejects a malformed release date', async () => {
    await expect(importRelease(db, writeFixture(miniSpec('2.0')), { releaseDate: '2024-02-30' })).rejects.toThrow(/Invalid release date/);
  });
});

describe('validation errors name the file, the line and the reason', () => {
  async function problems(edit: (dir: string) => void): Promise<string> {
    const dir = writeFixture(miniSpec('9.9'));
    edit(dir);
    try {
      await importRelease(db, dir);
    } catch (e) {
      expect(e).toBeInstanceOf(ImportValidationError);
      return (e as Error).message;
    }
    throw new Error('import unexpectedly succeeded');
  }
  const cases: [string, (dir: string) => void, RegExp][] = [
    ['unknown parent code', (d) => editFile(d, 'hlt_pt.asc', (l) => [...l, '92999999$10047700$']), /hlt_pt\.asc:9: unknown parent code: HLT 92999999/],
    ['PT without primary SOC', (d) => editFile(d, 'pt.asc', (l) => l.map((x) => x.replace('10028813$Nausea$$10017947$', () => '10028813$Nausea$$$'))), /pt\.asc:2: PT 10028813 has no primary SOC/],
    ['duplicate code', (d) => editFile(d, 'llt.asc', (l) => [...l, l[6]!]), /llt\.asc:16: duplicate code 93000001 \(first at line 7\)/],
    ['wrong field count', (d) => editFile(d, 'soc.asc', (l) => [l[0]!, '10029205$Nervous system disorders$Nerv$']), /soc\.asc:2: wrong field count: expected 10, found 3/],
    ['missing trailing $', (d) => editFile(d, 'hlgt.asc', (l) => ['91000001$Gastrointestinal signs and symptoms', ...l.slice(1)]), /hlgt\.asc:1: record does not end with '\$'/],
    ['non-numeric code', (d) => editFile(d, 'hlt.asc', (l) => [l[0]!.replace('92000001', '92A00001'), ...l.slice(1)]), /hlt\.asc:1: hlt_code '92A00001' is not a valid code/],
    ['LLT under an unknown PT', (d) => editFile(d, 'llt.asc', (l) => [...l, '93000099$Orphan$10099999$$$$$$$Y$$']), /llt\.asc:16: unknown parent code: PT 10099999/],
    ['bad currency flag', (d) => editFile(d, 'llt.asc', (l) => l.map((x) => x.replace('Emesis$10047700$$$$$$$Y', () => 'Emesis$10047700$$$$$$$X'))), /llt_currency must be Y or N/],
    ['PT without its own LLT', (d) => editFile(d, 'llt.asc', (l) => l.filter((x) => !x.startsWith('10019211$'))), /PT 10019211 has no LLT of its own/],
    ['PT without a primary path', (d) => editFile(d, 'mdhier.asc', (l) => l.map((x) => (x.startsWith('10019211$') ? x.replace(/Y\$$/, 'N$') : x))), /PT 10019211 has no primary path/],
    ['primary path in the wrong SOC', (d) => editFile(d, 'mdhier.asc', (l) => l.map((x) => (x.startsWith('10013573$') ? x.replace(/Y\$$/, 'X$').replace(/N\$$/, 'Y$').replace(/X\$$/, 'N$') : x))), /primary path of PT 10013573 ends in SOC 10013993/],
    ['orphan PT', (d) => editFile(d, 'hlt_pt.asc', (l) => l.filter((x) => x !== '92000003$10019211$')), /PT 10019211 has no parent HLT/],
    ['path over a missing link', (d) => editFile(d, 'soc_hlgt.asc', (l) => l.filter((x) => x !== '10013993$91000003$')), /path uses link SOC 10013993 → HLGT 91000003/],
  ];
  for (const [name, edit, re] of cases) {
    it(name, async () => {
      expect(await problems(edit)).toMatch(re);
    });
  }
  it('a missing required file', async () => {
    const msg = await problems((d) => {
      // Remove by renaming out of the way.
      const p = path.join(d, 'mdhier.asc');
      writeFileSync(`${p}.bak`, readFileSync(p));
      rmSync(p);
    });
    expect(msg).toMatch(/mdhier\.asc: required file is missing/);
  });
  it('an empty optional file and an empty required file are accepted as empty', async () => {
    const dir = writeFixture(miniSpec('3.0'));
    writeFileSync(path.join(dir, 'intl_ord.asc'), '');
    writeFileSync(path.join(dir, 'smq_list.asc'), '');
    const s = await importRelease(db, dir);
    expect(s.counts.SOC).toBe(3);
  });
  it('a failure while writing the last file rolls the whole import back', async () => {
    const before = { concepts: await db.prisma.concept.count(), releases: await listReleases(db.prisma) };
    const spec = miniSpec('4.0');
    const dir = writeFixture(spec);
    // ctcae_grade.asc is the last file written: fail once its rows are in.
    await expect(
      importRelease(db, dir, {
        onProgress: (p) => {
          if (p.phase === 'commit') throw new Error('disk full (simulated)');
        },
      }),
    ).rejects.toThrow(/disk full/);
    expect(await db.prisma.concept.count()).toBe(before.concepts);
    expect(await listReleases(db.prisma)).toEqual(before.releases);
    expect(await db.prisma.release.findUnique({ where: { version: '4.0' } })).toBeNull();
  });

  it('an invalid release leaves the database untouched', async () => {
    const before = await db.prisma.concept.count();
    await problems((d) => editFile(d, 'hlt_pt.asc', (l) => [...l, '92999999$10047700$']));
    expect(await db.prisma.concept.count()).toBe(before);
    expect(await db.prisma.release.findUnique({ where: { version: '9.9' } })).toBeNull();
  });
});

describe('optional files', () => {
  it('stores SMQs and history when the distribution has them', async () => {
    const { generateRelease, writeMedAscii } = await import('../../tools/synthetic/generate.ts');
    const { mkdtempSync, readFileSync: read, writeFileSync: write } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'smq-')), '60.0');
    await writeMedAscii(generateRelease({ seed: 5, version: '60.0', scale: 0.01 }), dir);
    const lines = (f: string) => read(path.join(dir, f), 'latin1').split('\r\n').filter(Boolean).length;
    const pt = read(path.join(dir, 'pt.asc'), 'latin1').split('\r\n')[0]!.split('$');
    write(path.join(dir, 'meddra_history_english.asc'), Buffer.from(`${pt[0]}$${pt[1]}$60.0$PT$Y$A$\r\n`, 'latin1'));
    const s = await importRelease(db, dir);
    expect((await rowsAt(db.prisma, 'smq', s.releaseId)).length).toBe(lines('smq_list.asc'));
    expect((await rowsAt(db.prisma, 'smq_term', s.releaseId)).length).toBe(lines('smq_content.asc'));
    expect(await db.prisma.termHistory.findMany({ where: { releaseId: s.releaseId }, select: { termCode: true, termType: true, action: true } })).toEqual([
      { termCode: Number(pt[0]), termType: 'PT', action: 'A' },
    ]);
  });
});
