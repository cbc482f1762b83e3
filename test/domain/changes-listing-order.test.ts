// A listing over more distinct terms than a fixed per-group rank width (2¹⁷ before round 12):
// every (level, type) range holds its own records, terms in order, whatever the number of terms.
// No database: a client that says it collates bytewise, so the terms are ordered here.
import { describe, expect, it } from 'vitest';
import { ChangeListing } from '../../src/domain/changes/listing.ts';
import type { ChangeRecord, ChangeType } from '../../src/domain/changes/engine.ts';

const bytewise = { $queryRawUnsafe: async () => [{ c: 'C', p: null }] } as never;

const record = (code: number, changeType: ChangeType, term: string): ChangeRecord => ({
  level: 'LLT',
  code,
  changeType,
  term,
  previousTerm: null,
  details: '',
  metadata: { kinds: [changeType === 'updated' ? 'renamed' : changeType], before: {}, after: {} },
});

describe('ChangeListing over many terms', () => {
  it('keeps each change type in its place with 150,000 distinct terms', async () => {
    const records: ChangeRecord[] = [];
    // Added terms sort after the updated ones' ("b…" > "a…"): a rank spilling into the next type's place shows.
    for (let i = 0; i < 140_000; i++) records.push(record(10_000_000 + i, 'added', `b${String(i).padStart(6, '0')}`));
    for (let i = 0; i < 10_000; i++) records.push(record(20_000_000 + i, 'updated', `a${String(i).padStart(6, '0')}`));
    const listing = await ChangeListing.of(bytewise, records);
    const added = listing.page({ changeType: 'added' }, 139_990, 100);
    expect(added.total).toBe(140_000);
    expect(added.items.map((r) => r.term)).toEqual(Array.from({ length: 10 }, (_, i) => `b${139_990 + i}`));
    // Past the added records: the updated ones, from the first, in term order.
    const next = listing.page({}, 139_998, 4).items.map((r) => `${r.changeType} ${r.term}`);
    expect(next).toEqual(['added b139998', 'added b139999', 'updated a000000', 'updated a000001']);
    expect(listing.page({ changeType: 'updated' }, 9_998, 10).items.map((r) => r.term)).toEqual(['a009998', 'a009999']);
  });
});
