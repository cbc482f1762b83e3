// DATABASE_REPLICA_URLS: catalog reads go to the replicas, writes to the primary.
// (The "replica" here is the same PostgreSQL database under another URL: what is
// checked is the routing, observed statement by statement.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFreshPostgres } from '../helpers/db.ts';
import { openMigrated } from '../../src/db/open.ts';
import type { Database } from '../../src/db/client.ts';
import { importRelease } from '../../src/importer/import.ts';
import { ReleaseCatalog } from '../../src/domain/catalog.ts';
import { createApp, type App } from '../../src/http/app.ts';
import { createLogger } from '../../src/logger.ts';
import { miniSpec, writeFixture } from '../helpers/medascii.ts';

let pgdb: Awaited<ReturnType<typeof createFreshPostgres>>;
let db: Database;
let app: App;
const primary: string[] = [];
const replica: string[] = [];

beforeAll(async () => {
  pgdb = await createFreshPostgres();
  const replicaUrl = new URL(pgdb.url);
  replicaUrl.searchParams.set('application_name', 'replica');
  db = await openMigrated(
    { databaseUrl: pgdb.url, replicaUrls: [replicaUrl.toString()], dataDir: 'memory://', poolSize: 2 },
    { onQuery: (s) => primary.push(s), onReplicaQuery: (s) => replica.push(s) },
  );
  await importRelease(db, writeFixture(miniSpec('1.0')));
  await importRelease(db, writeFixture({ ...miniSpec('1.1'), llts: miniSpec().llts.slice(1) }));
  const catalog = new ReleaseCatalog(db.prisma, 60_000);
  await catalog.releases();
  app = createApp({ prisma: db.prisma, reader: () => db.reader(), catalog, log: createLogger('silent') });
});
afterAll(async () => {
  await db?.close();
  await pgdb?.drop();
});

describe('read replicas', () => {
  it('hierarchy and search reads go to the replica', async () => {
    primary.length = 0;
    replica.length = 0;
    const r = await app.fetch(new Request('http://test/codes/10047700'));
    expect(r.status).toBe(200);
    const s = await app.fetch(new Request('http://test/codes?q=vomit'));
    expect(((await s.json()) as any).results[0].term).toBe('Vomiting');
    expect(replica.some((q) => q.includes('hierarchy_link'))).toBe(true);
    // Search loads the release's in-memory index from the replica (names, then primary paths).
    const indexLoad = (q: string) => q.includes('name_norm') || q.includes('hierarchy_path');
    expect(replica.some(indexLoad)).toBe(true);
    expect(primary.filter((q) => q.includes('hierarchy_link') || indexLoad(q))).toEqual([]);
  });

  it('change sets are read and written on the primary', async () => {
    primary.length = 0;
    const r = await app.fetch(new Request('http://test/versions/1.1/changes'));
    expect(r.status).toBe(200);
    expect(((await r.json()) as any).changes.retired).toBe(1);
    expect(primary.some((q) => q.includes('release_change'))).toBe(true);
  });
});
