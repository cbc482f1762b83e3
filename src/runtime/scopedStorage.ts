// AsyncLocalStorage that is on only while a scope is open. On Node 20 and 22 (without
// AsyncContextFrame) an AsyncLocalStorage entered once keeps an async-hooks init hook and the
// promise hooks on for the rest of the process, and every promise, tick and socket write of
// every request then pays for them: 12–15 % of a warm answer's CPU once one traced request
// had run (bench/results.md › Cost of metrics and traces). Scopes are counted; when the last
// one closes, the storage is disabled and the hooks go off until the next scope opens.
// Continuations of a closed scope that run while no scope is open see no store.
import { AsyncLocalStorage } from 'node:async_hooks';

export class ScopedStorage<T> {
  private readonly als = new AsyncLocalStorage<T>();
  private open = 0;

  /** Scopes open now (0: the storage is off, and so are the hooks it needed). */
  get openScopes(): number {
    return this.open;
  }

  getStore(): T | undefined {
    return this.open === 0 ? undefined : this.als.getStore();
  }

  /** `fn` with `store`; the scope stays open until `fn`'s promise settles (or `fn` returns, when it returns no promise). */
  run<R>(store: T, fn: () => R): R {
    this.open++;
    let result: R;
    try {
      result = this.als.run(store, fn);
    } catch (e) {
      this.close();
      throw e;
    }
    if (result instanceof Promise) {
      // The caller's promise settles as it would; the scope closes when it does.
      result.then(
        () => this.close(),
        () => this.close(),
      );
      return result;
    }
    this.close();
    return result;
  }

  /**
   * `fn` with `store`, the scope open until `release` is called, once (a request's scope: its
   * work continues after the listener returns, until the response closes).
   */
  enter<A extends unknown[]>(store: T, fn: (...args: A) => void, ...args: A): () => void {
    this.open++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.close();
    };
    try {
      this.als.run(store, fn, ...args);
    } catch (e) {
      release();
      throw e;
    }
    return release;
  }

  /** Off now, whatever is open (the process is closing its tracing). */
  disable(): void {
    this.open = 0;
    this.als.disable();
  }

  private close(): void {
    if (--this.open === 0) this.als.disable();
  }
}
