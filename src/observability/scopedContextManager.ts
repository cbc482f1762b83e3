// OpenTelemetry's context manager on a ScopedStorage (src/runtime/scopedStorage.ts): the
// AsyncLocalStorage behind the active context is on only while a traced request or a span's
// work is in flight, so Node's async hooks do not cost every later request once one trace
// has run (@opentelemetry/context-async-hooks' manager leaves them on for good).
import { ROOT_CONTEXT, type Context, type ContextManager } from '@opentelemetry/api';
import type { ServerResponse } from 'node:http';
import { ScopedStorage } from '../runtime/scopedStorage.ts';

export class ScopedContextManager implements ContextManager {
  private readonly storage = new ScopedStorage<Context>();

  /** Contexts entered and not yet left (tests; 0 means the hooks are off). */
  get openScopes(): number {
    return this.storage.openScopes;
  }

  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    const call = () => (thisArg === undefined ? fn(...args) : fn.apply(thisArg, args)) as ReturnType<F>;
    // The root with no scope open is what is active already: nothing to enter.
    if (context === ROOT_CONTEXT && this.storage.openScopes === 0) return call();
    return this.storage.run(context, call);
  }

  /**
   * A request's listener in `context`, which stays active for everything the request starts
   * until its response closes (the listener returns long before the request is answered).
   */
  withUntilClosed<A extends unknown[]>(context: Context, res: ServerResponse, fn: (...args: A) => void, ...args: A): void {
    const release = this.storage.enter(context, fn, ...args);
    if (res.closed) release();
    else res.once('close', release);
  }

  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const manager = this;
    const f = target as unknown as (...args: unknown[]) => unknown;
    return function (this: unknown, ...args: unknown[]) {
      return manager.with(context, () => f.apply(this, args));
    } as unknown as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.storage.disable();
    return this;
  }
}
