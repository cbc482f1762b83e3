// An in-process app over a fresh test database with the given releases imported.
import { createTestDatabase, type TestDatabase } from './db.ts';
import { importRelease } from '../../src/importer/import.ts';
import { demoReleases } from '../../src/importer/demo.ts';
import { ReleaseCatalog } from '../../src/domain/catalog.ts';
import { createApp, type App, type AppOptions } from '../../src/http/app.ts';
import { createLogger, type Logger } from '../../src/logger.ts';
import { writeFixture, type FixtureSpec } from './medascii.ts';
import { AssessmentService } from '../../src/assessment/service.ts';
import { VocabularyCache } from '../../src/assessment/vocabularyCache.ts';
import { AuditLog } from '../../src/assessment/audit.ts';
import { OpenAIProvider, type OpenAIConfig } from '../../src/assessment/openai.ts';

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
    app?: AppOptions;
    log?: Logger;
    catalogTtlMs?: number;
    openai?: OpenAIConfig;
    auditStoreText?: boolean;
  } = {},
): Promise<TestApp> {
  const queries: string[] = [];
  const db = await createTestDatabase({ onQuery: (sql) => queries.push(sql) });
  if (opts.demo !== false && !opts.fixtures && !opts.dirs) {
    for (const r of demoReleases()) await importRelease(db, r.path, { version: r.version, releaseDate: r.releaseDate, source: 'demo' });
  }
  for (const f of opts.fixtures ?? []) await importRelease(db, writeFixture(f));
  for (const d of opts.dirs ?? []) await importRelease(db, d);
  const log = opts.log ?? createLogger('silent');
  const catalog = new ReleaseCatalog(db.prisma, opts.catalogTtlMs ?? 0);
  const assessment = new AssessmentService(new VocabularyCache(db.prisma), new AuditLog(db.prisma, opts.auditStoreText ?? false, log), opts.openai ? new OpenAIProvider(opts.openai) : null);
  const app = createApp({ prisma: db.prisma, catalog, log, assessment }, opts.app);
  queries.length = 0;
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
    cleanup: () => db.cleanup(),
  };
}
