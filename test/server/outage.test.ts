// Server mode against the real PostgreSQL, reached through a TCP proxy the test cuts and
// restores: an outage answers 503 with Retry-After (REST and GraphQL), readiness fails,
// and the service recovers by itself when the database returns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFreshPostgres } from '../helpers/db.ts';
import { proxiedPostgres, type TcpProxy } from '../helpers/tcpProxy.ts';
import { openMigrated } from '../../src/db/open.ts';
import type { Database } from '../../src/db/client.ts';
import { importRelease } from '../../src/importer/import.ts';
import { ReleaseCatalog } from '../../src/domain/catalog.ts';
import { createApp, type App } from '../../src/http/app.ts';
import { createLogger } from '../../src/logger.ts';
import { miniSpec, writeFixture } from '../helpers/medascii.ts';

let pgdb: Awaited<ReturnType<typeof createFreshPostgres>>;
let proxy: TcpProxy;
let db: Database;
let app: App;

beforeAll(async () => {
  pgdb = await createFreshPostgres();
  let viaProxy: URL;
  ({ proxy, url: viaProxy } = await proxiedPostgres(pgdb.url));
  // Short connection timeout so the outage is noticed quickly.
  viaProxy.searchParams.set('connect_timeout', '2');
  db = await openMigrated({ databaseUrl: viaProxy.toString(), dataDir: 'memory://', poolSize: 4 });
  await importRelease(db, writeFixture(miniSpec('1.0')));
  app = createApp(
    { prisma: db.prisma, catalog: new ReleaseCatalog(db.prisma, 0), log: createLogger('silent') },
    { ready: async () => (await db.prisma.$queryRawUnsafe<unknown[]>('SELECT 1')).length === 1 },
  );
});
afterAll(async () => {
  await proxy?.restore().catch(() => {});
  await db?.close();
  await proxy?.close();
  await pgdb?.drop();
});

const get = async (path: string) => {
  const res = await app.fetch(new Request(`http://test${path}`));
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
};

describe('database outage', () => {
  it('serves normally through the proxy', async () => {
    expect((await get('/codes/10047700')).body.term).toBe('Vomiting');
    expect((await get('/health/ready')).status).toBe(200);
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After while the database is unreachable', async () => {
    await proxy.cut();
    // A code not asked for before: nothing to replay from the response cache.
    const r = await get('/codes/10028813');
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(JSON.stringify(r.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack/);
    const g = await app.fetch(new Request('http://test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ codes(q: \\"vomit\\") { totalCount } }"}' }));
    const gb = (await g.json()) as any;
    expect(gb.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    expect((await get('/health/ready')).status).toBe(503);
    expect((await get('/health/live')).status).toBe(200);
  }, 60_000);

  it('recovers without a restart when the database returns', async () => {
    await proxy.restore();
    let last = 0;
    for (let i = 0; i < 20; i++) {
      last = (await get('/codes/10019211')).status;
      if (last === 200) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(last).toBe(200);
    expect((await get('/health/ready')).status).toBe(200);
  }, 60_000);
});
