// A change record's JSON text written directly by the changes worker (storedJson.ts) is the text
// JSON.stringify(asStored(record)) gives (the listing's and the stored rows' shape), byte for byte:
// for a record of every kind describeChange() makes, and for values that need escaping. The pages
// and stored rows of sets computed this way are checked on both databases in changes-off-thread.test.ts.
import { describe, expect, it } from 'vitest';
import { describeChange, type ChangeRecord, type DiffRow } from '../../src/domain/changes/engine.ts';
import { asStored } from '../../src/domain/changes/listing.ts';
import { storedJson } from '../../src/domain/changes/storedJson.ts';

const base: DiffRow = {
  level: 'LLT', code: 10000001, inA: true, inB: true, aName: 'Head ache', bName: 'Head ache', aCurrent: true, bCurrent: true,
  aPt: 10019211, bPt: 10019211, aSoc: null, bSoc: null, aAbbrev: null, bAbbrev: null, aOrder: null, bOrder: null,
  aParents: null, bParents: null, promotedFromPt: null, demotedToPt: null, ptInA: false, ptInB: false,
};
const row = (r: Partial<DiffRow>): DiffRow => ({ ...base, ...r });
const names = new Map<number, string>([[10019211, 'Headache "tension"'], [10029205, 'Nervous system disorders'], [10019231, 'Headaches NEC'], [10007541, 'Cardiac disorders']]);
const describe_ = (r: DiffRow) => describeChange(r, (c) => names.get(c), { from: '90.0', to: '90.23' });

const ROWS: DiffRow[] = [
  row({ inA: false, aName: null, bName: 'Kopfschmerz ÄÖÜ ß – “quoted” \\ back\tslash\n' }),
  row({ level: 'PT', code: 10019211, inA: false, aName: null, bSoc: 10029205 }),
  row({ level: 'PT', code: 10019212, inA: false, aName: null, bSoc: 10029205, promotedFromPt: 10019211 }),
  row({ level: 'PT', code: 10019213, inB: false, bName: null, aSoc: 10029205, demotedToPt: 10019211 }),
  row({ inB: false, bName: null }),
  row({ bName: 'Head-ache \u{1F600} \ud800', bCurrent: false }),
  row({ aCurrent: false }),
  row({ bPt: 10019212 }),
  row({ level: 'PT', code: 10019211, aSoc: 10029205, bSoc: 10007541, aParents: [10019231], bParents: [10019231, 10000002] }),
  row({ level: 'HLT', code: 10019231, aParents: [3, 1, 2], bParents: [2] }),
  row({ level: 'SOC', code: 10029205, aAbbrev: 'Nerv', bAbbrev: 'Nerv"2', aOrder: 5, bOrder: null, aParents: null, bParents: null }),
  row({ level: 'SOC', code: 10007541, aName: 'Cardiac', bName: 'Cardiac disorders', aAbbrev: null, bAbbrev: 'Card', aOrder: null, bOrder: 7 }),
];

describe('storedJson', () => {
  it('writes every kind of record as JSON.stringify(asStored(record))', () => {
    const records = ROWS.map(describe_).filter((c): c is ChangeRecord => c !== null);
    expect(records.length).toBe(ROWS.length);
    expect(new Set(records.flatMap((r) => r.metadata.kinds)).size).toBeGreaterThanOrEqual(12);
    for (const r of records) expect(storedJson(r)).toBe(JSON.stringify(asStored(r)));
  });

  it('leaves out undefined values and orders unusual keys as jsonb does', () => {
    const r: ChangeRecord = {
      level: 'PT', code: 1, changeType: 'updated', term: 't', previousTerm: 'p', details: 'd',
      metadata: { kinds: [], before: { zz: undefined, é: 1, b: [1, undefined, 'x'], aa: { y: 2, x: null } }, after: {} },
    };
    expect(storedJson(r)).toBe(JSON.stringify(asStored(r)));
  });
});
