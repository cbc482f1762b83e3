// The in-memory rate-limit count: a fixed window per client from its first request, kept
// only while the window lasts, with a hard bound on the number of clients.
import { describe, expect, it } from 'vitest';
import { WindowCounter } from '../../src/http/windowCounter.ts';

describe('WindowCounter', () => {
  it('admits `limit` requests per window, then refuses until the window ends', () => {
    let now = 1_000;
    const c = new WindowCounter(3, 60_000, 100, () => now);
    expect([1, 2, 3, 4].map(() => c.consume('a').allowed)).toEqual([true, true, true, false]);
    now += 59_999;
    const late = c.consume('a');
    expect(late).toEqual({ allowed: false, limit: 3, remaining: 0, resetMs: 1 });
    now += 1;
    expect(c.consume('a')).toEqual({ allowed: true, limit: 3, remaining: 2, resetMs: 60_000 });
  });

  it('drops clients whose window ended, so the map holds only the current minute', () => {
    let now = 0;
    const c = new WindowCounter(10, 1_000, 1_000_000, () => now);
    for (let i = 0; i < 10_000; i++) c.consume(`10.0.${i >> 8}.${i & 255}`);
    expect(c.size).toBe(10_000);
    now = 500;
    c.consume('late');
    now = 1_000;
    c.consume('x');
    expect(c.size).toBe(2); // 'late' (ends at 1,500) and 'x'
  });

  it('drops windows as they end, however the map emptied and filled again', () => {
    let now = 0;
    const c = new WindowCounter(10, 1_000, 1_000_000, () => now);
    c.consume('a');
    now = 1_000;
    c.consume('b');
    expect(c.size).toBe(1);
    now = 1_999;
    c.consume('c');
    now = 2_000;
    c.consume('d');
    expect(c.size).toBe(2); // 'c' and 'd'
    now = 10_000;
    expect(c.consume('c').remaining).toBe(9); // a fresh window
    expect(c.size).toBe(1);
  });

  it('past maxKeys forgets the client nearest to its reset, not the newest', () => {
    let now = 0;
    const c = new WindowCounter(5, 60_000, 2, () => now);
    c.consume('old');
    now = 10;
    c.consume('mid');
    c.consume('mid');
    now = 20;
    c.consume('new');
    expect(c.size).toBe(2);
    expect(c.consume('mid').remaining).toBe(2);
    expect(c.consume('old').remaining).toBe(4); // forgotten: a fresh window
  });
});
