// The change engine on fixtures built for the purpose: every kind of change, once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { miniSpec, writeFixture, type FixtureSpec } from '../helpers/medascii.ts';
import { importRelease } from '../../src/importer/import.ts';
import { computeChanges, type ChangeRecord } from '../../src/domain/changes/engine.ts';
import { ensureChangeSet, listChanges } from '../../src/domain/changes/store.ts';
import { computeChangesFromIndexes } from '../../src/domain/changes/indexDiff.ts';
import { ReleaseIndex } from '../../src/domain/releaseIndex/releaseIndex.ts';

/** Release B: release A with one change of every kind. */
function nextSpec(): FixtureSpec {
  const s = miniSpec('2.0');
  const pt = (code: number) => s.pts.find((p) => p[0] === code)!;
  pt(10028813)[1] = 'Nausea (sensation)'; // PT renamed
  pt(10013573)[2] = 10013993; // Dizziness: primary SOC Nervous system → Ear
  pt(10019211)[3] = [92000003, 92000005]; // Headache: link added
  pt(10027183)[3] = [92000004]; // Ménière: link removed
  // Diarrhoea demoted to an LLT of "Diarrhea", which is promoted from LLT to PT.
  s.pts = s.pts.filter((p) => p[0] !== 10012735);
  s.pts.push([93000006, 'Diarrhea', 10017947, [92000002]]);
  s.llts = s.llts.filter((l) => l[0] !== 93000006 && l[0] !== 93000009); // Giddiness leaves altogether
  s.llts.push([10012735, 'Diarrhoea', 93000006]);
  const llt = (code: number) => s.llts.find((l) => l[0] === code)!;
  llt(93000005)[2] = 93000006; // Loose stools follows the demoted PT
  llt(93000002)[3] = false; // Emesis made non-current
  llt(93000003)[3] = true; // Vomiting NOS current again
  llt(93000004)[2] = 10047700; // Feeling sick moved from Nausea to Vomiting
  // New HLT with a new PT, and a new LLT on an existing PT.
  s.hlts.push([92000006, 'Vertiginous states NEC', [91000004]]);
  s.pts.push([10000001, 'Positional vertigo', 10029205, [92000006]]);
  s.llts.push([93000020, 'Sick headache', 10019211]);
  s.grades = [];
  return s;
}

let db: TestDatabase;
let records: ChangeRecord[];
const find = (level: string, code: number) => records.find((r) => r.level === level && r.code === code);

beforeAll(async () => {
  db = await createTestDatabase();
  await importRelease(db, writeFixture(miniSpec('1.0')));
  await importRelease(db, writeFixture(nextSpec()));
  const [a, b] = await db.prisma.release.findMany({ orderBy: { ordinal: 'asc' } });
  records = await computeChanges(db.prisma, a!, b!);
});
afterAll(async () => {
  await db?.cleanup();
});

describe('change engine', () => {
  it('finds exactly the expected changes', () => {
    expect(records.map((r) => `${r.level}:${r.code}:${r.changeType}:${r.metadata.kinds.join('+')}`).sort()).toEqual(
      [
        'HLT:92000006:added:added',
        'PT:10000001:added:added',
        'LLT:10000001:added:added',
        'LLT:93000020:added:added',
        'PT:10028813:updated:renamed',
        'LLT:10028813:updated:renamed',
        'LLT:93000002:retired:made_non_current',
        'LLT:93000003:updated:currency_restored',
        'PT:10013573:updated:primary_soc_changed',
        'PT:10019211:updated:parents_added',
        'PT:10027183:updated:parents_removed',
        'LLT:93000004:updated:llt_moved',
        'LLT:93000005:updated:llt_moved',
        'PT:93000006:updated:promoted',
        'PT:10012735:updated:demoted',
        'LLT:93000009:retired:retired',
      ].sort(),
    );
  });

  it('a rename carries previousTerm and says so', () => {
    const r = find('PT', 10028813)!;
    expect(r).toMatchObject({ term: 'Nausea (sensation)', previousTerm: 'Nausea', details: "Renamed from 'Nausea' to 'Nausea (sensation)'." });
    expect(r.metadata).toEqual({ kinds: ['renamed'], before: { term: 'Nausea' }, after: { term: 'Nausea (sensation)' } });
  });

  it('currency changes', () => {
    expect(find('LLT', 93000002)).toMatchObject({ changeType: 'retired', details: 'Made non-current.', metadata: { before: { status: 'current' }, after: { status: 'non-current' } } });
    expect(find('LLT', 93000003)).toMatchObject({ changeType: 'updated', details: 'Made current again.' });
  });

  it('a primary SOC move names both SOCs', () => {
    const r = find('PT', 10013573)!;
    expect(r.details).toBe("Primary SOC moved from SOC 10029205 'Nervous system disorders' to SOC 10013993 'Ear and labyrinth disorders'.");
    expect(r.metadata.before).toEqual({ primarySocCode: '10029205' });
    expect(r.metadata.after).toEqual({ primarySocCode: '10013993' });
  });

  it('links added and removed', () => {
    expect(find('PT', 10019211)).toMatchObject({ details: "Now also under HLT 92000005 'Disturbances in consciousness NEC'.", metadata: { before: { parents: ['92000003'] }, after: { parents: ['92000003', '92000005'] } } });
    expect(find('PT', 10027183)!.details).toBe("No longer under HLT 92000005 'Disturbances in consciousness NEC'.");
  });

  it('an LLT moved to another PT', () => {
    expect(find('LLT', 93000004)).toMatchObject({ details: "Moved from PT 10028813 'Nausea (sensation)' to PT 10047700 'Vomiting'.", metadata: { before: { ptCode: '10028813' }, after: { ptCode: '10047700' } } });
  });

  it('promotion and demotion are updates on the PT, and explain their own LLTs', () => {
    expect(find('PT', 93000006)).toMatchObject({ changeType: 'updated', details: "Promoted from LLT (of PT 10012735 'Diarrhoea') to PT.", metadata: { before: { level: 'LLT', ptCode: '10012735' } } });
    expect(find('PT', 10012735)).toMatchObject({ changeType: 'updated', details: "Demoted from PT to an LLT of PT 93000006 'Diarrhea'.", metadata: { after: { level: 'LLT', ptCode: '93000006' } } });
    expect(find('LLT', 93000006)).toBeUndefined();
    expect(find('LLT', 10012735)).toBeUndefined();
  });

  it('new concepts, and a concept that left', () => {
    expect(find('LLT', 93000020)!.details).toBe("New LLT in 2.0 under PT 10019211 'Headache'.");
    expect(find('PT', 10000001)!.details).toBe("New PT in 2.0 (primary SOC 10029205 'Nervous system disorders').");
    expect(find('LLT', 93000009)).toMatchObject({ changeType: 'retired', term: 'Giddiness', details: 'No longer in release 2.0.' });
  });

  it('comparing a release with itself finds nothing; one code at a time matches the full comparison', async () => {
    const [a, b] = await db.prisma.release.findMany({ orderBy: { ordinal: 'asc' } });
    expect(await computeChanges(db.prisma, b!, b!)).toEqual([]);
    expect(await computeChanges(db.prisma, a!, b!, 10012735)).toEqual(records.filter((r) => r.code === 10012735));
  });

  it('change sets were stored at import, once, with counts; listing filters by level, type and hierarchy', async () => {
    const [a, b] = await db.prisma.release.findMany({ orderBy: { ordinal: 'asc' } });
    expect(await db.prisma.changeSet.count()).toBe(1);
    const counts = await ensureChangeSet(db.prisma, a!, b!);
    expect(counts).toEqual({ added: 4, updated: 10, retired: 2 });
    expect(await db.prisma.releaseChange.count()).toBe(16);
    const pts = await listChanges(db.prisma, a!.id, b!.id, { level: 'PT' }, 0, 50);
    expect(pts.total).toBe(7);
    expect(pts.counts).toEqual({ added: 1, updated: 6, retired: 0 });
    const retired = await listChanges(db.prisma, a!.id, b!.id, { changeType: 'retired' }, 0, 50);
    expect(retired.items.map((i) => i.code)).toEqual([93000002, 93000009]);
    // Giddiness left release 2.0: the baseline's hierarchy places it (under Dizziness, HLT 92000005).
    const hlt = await listChanges(db.prisma, a!.id, b!.id, { hlt: 92000005 }, 0, 50);
    expect(hlt.items.map((i) => `${i.level}:${i.code}`).sort()).toEqual(['LLT:93000009', 'LLT:93000020', 'PT:10013573', 'PT:10019211']);
    const gi = await listChanges(db.prisma, a!.id, b!.id, { soc: 10017947, level: 'LLT' }, 0, 50);
    expect(gi.items.map((i) => i.code).sort()).toEqual([10028813, 93000002, 93000003, 93000004, 93000005]);
    const paged = await listChanges(db.prisma, a!.id, b!.id, {}, 15, 5);
    expect(paged.total).toBe(16);
    expect(paged.items).toHaveLength(1);
  });

  it('the in-memory release indexes give the same records, every kind of change included (indexDiff.ts)', async () => {
    const [a, b] = await db.prisma.release.findMany({ orderBy: { ordinal: 'asc' } });
    const [ia, ib] = await Promise.all([ReleaseIndex.load(db.prisma, a!.id), ReleaseIndex.load(db.prisma, b!.id)]);
    const fromIndexes = await computeChangesFromIndexes({ version: a!.version, index: ia }, { version: b!.version, index: ib });
    expect(JSON.stringify(fromIndexes)).toBe(JSON.stringify(records));
  });
});
