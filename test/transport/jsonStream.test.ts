// Large JSON answers are written in chunks (src/transport/jsonStream.ts): the chunks must join to
// exactly what one JSON.stringify of the whole would give, for every shape the routes stream.
import { describe, expect, it } from 'vitest';
import { holdsLongList, jsonChunks, jsonValueChunks } from '../../src/transport/jsonStream.ts';

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

describe('jsonValueChunks', () => {
  const result = (n: number) => ({
    data: { validateCodes: { version: '5.0', summary: { items: n, skipped: undefined }, items: rows(n), pages: [rows(300)], fn: () => 1 } },
    extensions: undefined,
  });
  it.each([
    ['a GraphQL result with a long list three levels down', result(1_001)],
    ['a result whose lists are all short', result(3)],
    ['a long list at the top', rows(600)],
    ['lists of exactly one chunk', { a: rows(250), b: [] }],
    ['a long list inside a short one (written whole)', { a: [rows(600)] }],
    ['a long list of non-JSON values', { a: Array.from({ length: 300 }, (_, i) => (i % 2 ? undefined : () => i)) }],
    ['objects with numeric keys, null and a toJSON', { 2: 'b', 1: rows(260), n: null, d: new Date(0), m: { toJSON: () => rows(260) } }],
    ['a scalar', 'text'],
  ])('%s: the chunks are JSON.stringify of the whole', (_label, value) => {
    expect([...jsonValueChunks(value, 250)].join('')).toBe(JSON.stringify(value));
  });

  it('holds at most `perChunk` items of a long list in a chunk, with the text around it joined to its neighbours', () => {
    const chunks = [...jsonValueChunks(result(1_001), 250)];
    // Five chunks of items (the first with the text before the list), and the text after it.
    expect(chunks).toHaveLength(6);
    expect(chunks.map((c) => (c.match(/"rowId"/g) ?? []).length)).toEqual([250, 250, 250, 250, 1, 300]);
  });

  it('looks for long lists only a few objects down', () => {
    let deep: unknown = rows(300);
    for (let k = 0; k < 10; k++) deep = { deeper: deep };
    expect(holdsLongList(deep, 250)).toBe(false);
    expect([...jsonValueChunks(deep, 250)]).toEqual([JSON.stringify(deep)]);
    expect(holdsLongList({ a: { b: rows(300) } }, 250)).toBe(true);
  });
});
