// Wraps a Prisma driver-adapter factory so every SQL statement is reported.
// Tests use it to count statements (N+1 regressions fail loudly); it sits below
// Prisma, so raw queries and model queries are both seen. The metrics use it to time them,
// and traces to make a client span of each (timedAdapter).
import type { SqlDriverAdapterFactory, SqlQuery } from '@prisma/driver-adapter-utils';
import { counts, timings } from '../observability/signals.ts';
import { traceHooks } from '../observability/traceHooks.ts';

export type QueryListener = (sql: string) => void;
type Around = (query: SqlQuery, run: () => Promise<unknown>) => Promise<unknown>;

function wrapQueryable<T extends object>(target: T, around: Around): T {
  return new Proxy(target, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (typeof value !== 'function') return value;
      if (prop === 'queryRaw' || prop === 'executeRaw') {
        return (query: SqlQuery) => around(query, () => value.call(obj, query));
      }
      if (prop === 'startTransaction') {
        return async (...args: unknown[]) => wrapQueryable(await value.apply(obj, args), around);
      }
      return value.bind(obj);
    },
  });
}

function wrapFactory<F extends SqlDriverAdapterFactory>(factory: F, around: Around): F {
  return new Proxy(factory, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (prop === 'connect' && typeof value === 'function') {
        return async () => wrapQueryable(await value.call(obj), around);
      }
      return typeof value === 'function' ? value.bind(obj) : value;
    },
  });
}

export function instrumentAdapter<F extends SqlDriverAdapterFactory>(factory: F, onQuery: QueryListener): F {
  return wrapFactory(factory, (query, run) => {
    onQuery(query.sql);
    return run();
  });
}

/**
 * Every statement timed and counted in flight for the metrics (signals.ts), and in a client span
 * while traces are on (traceHooks.ts: the SQL is read for its first keyword and table only).
 */
export function timedAdapter<F extends SqlDriverAdapterFactory>(factory: F): F {
  return wrapFactory(factory, (query, run) => {
    const traced = traceHooks.db;
    return traced ? traced(query.sql, () => timed(run)) : timed(run);
  });
}

async function timed(run: () => Promise<unknown>): Promise<unknown> {
  const started = performance.now();
  counts.dbInFlight++;
  let ok = false;
  try {
    const r = await run();
    ok = true;
    return r;
  } finally {
    counts.dbInFlight--;
    timings.dbQuery?.((performance.now() - started) / 1000, ok);
  }
}
