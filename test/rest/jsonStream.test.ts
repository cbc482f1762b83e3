// Large JSON answers are written in chunks (src/rest/jsonStream.ts): the chunks must join to
// exactly what one JSON.stringify of the whole would give, for every shape the routes stream.
import { describe, expect, it } from 'vitest';
import { jsonChunks } from '../../src/rest/jsonStream.ts';

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ rowId: `r${i}`, note: i % 3 ? null : 'a "quoted", \u2028 name' }));

describe('jsonChunks', () => {
  it.each([
    ['a head and two long lists (an impact report: errors, then rows)', { from: '5.0', summary: { rows: 3 } }, { errors: rows(7), rows: rows(1_001) }],
    ['an empty head', {}, { items: rows(3) }],
    ['empty lists', { a: 1 }, { errors: [], rows: [] }],
    ['no lists', { a: 1 }, {}],
    ['nothing', {}, {}],
  ])('%s: the chunks are JSON.stringify of the whole', (_label, head, lists) => {
    const chunks = [...jsonChunks(head, lists as Record<string, readonly unknown[]>, 250)];
    expect(chunks.join('')).toBe(JSON.stringify({ ...head, ...lists }));
  });

  it('holds at most `perChunk` items of a list in a chunk', () => {
    const chunks = [...jsonChunks({ a: 1 }, { errors: rows(600), rows: rows(600) }, 250)];
    // head+errors opening, 3 error chunks, close, rows opening, 3 row chunks, close, the end.
    expect(chunks).toHaveLength(11);
    expect(Math.max(...chunks.map((c) => (c.match(/"rowId"/g) ?? []).length))).toBe(250);
  });
});
