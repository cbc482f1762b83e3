// An in-process app over a fresh test database with the given releases imported.
import { createTestDatabase, sharedDemoDatabase, type TestDatabase } from './db.ts';
import { importRelease } from '../../src/importer/import.ts';
import { createApp, type App, type AppOptions } from '../../src/http/app.ts';
import { createLogger, type Logger } from '../../src/logger.ts';
import { loadConfig } from '../../src/config.ts';
import { compose } from '../../src/compose.ts';
import { writeFixture, type FixtureSpec } from './medascii.ts';
import { afterAll, beforeAll } from 'vitest';
import { listen } from './http.ts';

/**
 * The only settings in which the in-process test app differs from `npm start`, and why:
 * logs are silent (tests that read logs pass their own logger); the global per-IP limit is
 * off because in-process requests have no client address (test/http/protection.test.ts and
 * the shipped-product tests cover it); the coding engine runs inline rather than on worker
 * threads, which would start per test file (test/e2e/engine-pool.test.ts and the
 * shipped-product tests run the pool). Everything else comes from the same config loader
 * and composition root as the server, defaults included (e.g. the per-field AI limit).
 */
export const TEST_ENV: Record<string, string> = { LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', NLP_WORKERS: '0' };

export interface TestApp {
  db: TestDatabase;
  app: App;
  log: Logger;
  /** Every SQL statement since the last reset (for N+1 tests). */
  queries: string[];
  request(path: string, init?: RequestInit): Promise<Response>;
  json<T = any>(path: string, init?: RequestInit): Promise<{ status: number; body: T; headers: Headers }>;
  graphql<T = any>(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<{ status: number; body: { data?: T; errors?: any }; headers: Headers }>;
  /** Waits until queued audit records are written (they are written behind the response). */
  flushAudit(): Promise<void>;
  cleanup(): Promise<void>;
}

export async function createTestApp(
  opts: {
    demo?: boolean;
    fixtures?: FixtureSpec[];
    dirs?: string[];
    /** Environment overrides, read by the same loader as the server's (e.g. AUDIT_STORE_TEXT). */
    env?: Record<string, string>;
    /** Options the environment cannot express (a limiter instance); applied over the composed ones. */
    app?: AppOptions;
    log?: Logger;
    /** Release-list cache lifetime; 0 (tests import releases while the app runs). */
    catalogTtlMs?: number;
    /**
     * Another app over this one's database (its data; caches, limiters and settings of its own),
     * for a test of a setting: a database of its own would be seconds of PGlite start and import
     * for the same rows. It shares the owner's `queries`; its cleanup leaves the database open.
     */
    over?: TestApp;
    /**
     * The file only reads the demo releases: its app is over the worker's shared demo store
     * (sharedDemoDatabase: a PGlite start less per file; a file that writes fails at cleanup).
     */
    readOnly?: boolean;
  } = {},
): Promise<TestApp> {
  if (opts.over && (opts.fixtures || opts.dirs || opts.demo !== undefined || opts.readOnly)) throw new Error('createTestApp: `over` brings its data; fixtures, dirs, demo and readOnly do not apply');
  if (opts.readOnly && (opts.fixtures || opts.dirs || opts.demo === false)) throw new Error('createTestApp: readOnly is the shared demo store; fixtures, dirs and demo: false do not apply');
  const queries: string[] = opts.over?.queries ?? [];
  const demo = opts.demo !== false && !opts.fixtures && !opts.dirs;
  // The demo store is copied from the run's template (imported by the same importer, once).
  const onQuery = (sql: string) => queries.push(sql);
  const db =
    opts.over?.db ?? (opts.readOnly ? await sharedDemoDatabase({ onQuery }) : await createTestDatabase({ onQuery, template: demo ? 'demo' : 'migrated' }));
  for (const f of opts.fixtures ?? []) await importRelease(db, writeFixture(f));
  for (const d of opts.dirs ?? []) await importRelease(db, d);
  const config = loadConfig({ ...TEST_ENV, ...opts.env });
  const log = opts.log ?? createLogger(config.logLevel);
  const composed = compose(config, db, log, { catalogTtlMs: opts.catalogTtlMs ?? 0 });
  const { assessment } = composed.services;
  const appOptions: AppOptions = { ...composed.appOptions, ...opts.app, graphql: { ...composed.appOptions.graphql, ...opts.app?.graphql } };
  const app = createApp(composed.services, appOptions);
  if (!opts.over) queries.length = 0;
  const request = (path: string, init?: RequestInit) => Promise.resolve(app.fetch(new Request(`http://test${path}`, init)));
  return {
    db,
    app,
    log,
    queries,
    request,
    async json(path, init) {
      const res = await request(path, init);
      return { status: res.status, body: await res.json(), headers: res.headers };
    },
    async graphql(query, variables, headers) {
      const res = await request('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return { status: res.status, body: await res.json(), headers: res.headers };
    },
    flushAudit: () => assessment.flush(),
    async cleanup() {
      await composed.close();
      if (!opts.over) await db.cleanup();
    },
  };
}

/**
 * For a whole test file: a test app behind a real HTTP listener on 127.0.0.1, built before
 * the file's tests and closed after them; `ready` receives the app and its base URL.
 */
export function serveTestApp(ready: (t: TestApp, base: string) => void | Promise<void>, opts: Parameters<typeof createTestApp>[0] = {}): void {
  let t: TestApp | undefined;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    t = await createTestApp(opts);
    const served = await listen(t.app);
    close = served.close;
    await ready(t, served.url);
  });
  afterAll(async () => {
    await close?.();
    await t?.cleanup();
  });
}
