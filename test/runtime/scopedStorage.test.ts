// ScopedStorage (src/runtime/scopedStorage.ts): the store follows a scope's async work like
// AsyncLocalStorage's, and the storage is off again once every scope has closed — the point of
// it: Node 20's async hooks stay on while any AsyncLocalStorage is enabled.
import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ScopedStorage } from '../../src/runtime/scopedStorage.ts';

/** Whether Node's AsyncLocalStorage keeps an enabled flag we can read (Node 20/22; not under AsyncContextFrame). */
const alsOf = (s: ScopedStorage<unknown>) => (s as unknown as { als: AsyncLocalStorage<unknown> & { enabled?: boolean } }).als;

describe('ScopedStorage', () => {
  it('carries the store across awaits and timers inside run, and closes the scope when the promise settles', async () => {
    const s = new ScopedStorage<string>();
    const seen: (string | undefined)[] = [];
    const p = s.run('a', async () => {
      seen.push(s.getStore());
      await sleep(5);
      seen.push(s.getStore());
      await new Promise<void>((r) => setImmediate(r));
      seen.push(s.getStore());
      return 42;
    });
    expect(s.openScopes).toBe(1);
    expect(await p).toBe(42);
    await Promise.resolve(); // the scope closes in a reaction to the same promise
    expect(seen).toEqual(['a', 'a', 'a']);
    expect(s.openScopes).toBe(0);
    expect(s.getStore()).toBeUndefined();
    const als = alsOf(s);
    if ('enabled' in als) expect(als.enabled).toBe(false);
  });

  it('keeps concurrent scopes apart, and stays on until the last one closes', async () => {
    const s = new ScopedStorage<string>();
    const release: Record<string, () => void> = {};
    // Each scope awaits a gate the test opens from outside; what runs after the await is the scope's.
    const scoped = (name: string) =>
      s.run(name, async () => {
        await new Promise<void>((r) => (release[name] = r));
        return s.getStore();
      });
    const a = scoped('a');
    const b = scoped('b');
    expect(s.openScopes).toBe(2);
    release.a!();
    expect(await a).toBe('a');
    await Promise.resolve();
    expect(s.openScopes).toBe(1);
    const als = alsOf(s);
    if ('enabled' in als) expect(als.enabled).toBe(true);
    release.b!();
    expect(await b).toBe('b');
    await Promise.resolve();
    expect(s.openScopes).toBe(0);
  });

  it('a rejected or throwing scope closes too, and the error reaches the caller', async () => {
    const s = new ScopedStorage<number>();
    await expect(s.run(1, async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(() =>
      s.run(2, () => {
        throw new Error('sync');
      }),
    ).toThrow('sync');
    await Promise.resolve();
    expect(s.openScopes).toBe(0);
  });

  it('enter keeps the scope open past the function until released (once), as a request until its response closes', async () => {
    const s = new ScopedStorage<string>();
    let later: Promise<string | undefined> | undefined;
    const release = s.enter('req', (delay: number) => {
      later = sleep(delay).then(() => s.getStore());
    }, 5);
    expect(await later).toBe('req');
    expect(s.openScopes).toBe(1);
    release();
    release();
    expect(s.openScopes).toBe(0);
    // A continuation of the closed scope that runs while nothing is open sees no store.
    const stale = s.enter('old', () => {
      later = sleep(5).then(() => s.getStore());
    });
    stale();
    expect(await later).toBeUndefined();
  });

  it('a synchronous run closes at once; nested runs restore the outer store', () => {
    const s = new ScopedStorage<string>();
    const inner = s.run('outer', () => [s.getStore(), s.run('inner', () => s.getStore()), s.getStore()]);
    expect(inner).toEqual(['outer', 'inner', 'outer']);
    expect(s.openScopes).toBe(0);
  });
});
