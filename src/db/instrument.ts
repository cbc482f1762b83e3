// Wraps a Prisma driver-adapter factory so every SQL statement is reported.
// Tests use it to count statements (N+1 regressions fail loudly); it sits below
// Prisma, so raw queries and model queries are both seen.
import type { SqlDriverAdapterFactory, SqlQuery } from '@prisma/driver-adapter-utils';

export type QueryListener = (sql: string) => void;

function wrapQueryable<T extends object>(target: T, onQuery: QueryListener): T {
  return new Proxy(target, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (typeof value !== 'function') return value;
      if (prop === 'queryRaw' || prop === 'executeRaw') {
        return (query: SqlQuery) => {
          onQuery(query.sql);
          return value.call(obj, query);
        };
      }
      if (prop === 'startTransaction') {
        return async (...args: unknown[]) => wrapQueryable(await value.apply(obj, args), onQuery);
      }
      return value.bind(obj);
    },
  });
}

export function instrumentAdapter<F extends SqlDriverAdapterFactory>(factory: F, onQuery: QueryListener): F {
  return new Proxy(factory, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (prop === 'connect' && typeof value === 'function') {
        return async () => wrapQueryable(await value.call(obj), onQuery);
      }
      return typeof value === 'function' ? value.bind(obj) : value;
    },
  });
}
