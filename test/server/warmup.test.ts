// The server's warm-up (SEARCH_INDEX_WARM_DELAY_MS after start) builds the latest release's
// index and then loads its change set against the previous release into memory, so a code
// page's change record needs no statement either; it logs what it loaded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFreshPostgres } from '../helpers/db.ts';
import { captureLogs } from '../helpers/http.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { openDatabase } from '../../src/db/client.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { importRelease } from '../../src/importer/import.ts';
import { generateRelease, writeMedAscii } from '../../tools/synthetic/generate.ts';

let pgdb: Awaited<ReturnType<typeof createFreshPostgres>>;
let server: RunningServer;
let stored: number;
let latestId: number;
const logs = captureLogs();

beforeAll(async () => {
  pgdb = await createFreshPostgres('migrated');
  const dir = mkdtempSync(path.join(tmpdir(), 'syn-'));
  const r0 = generateRelease({ seed: 17, version: '83.0', scale: 0.01, withSmq: false });
  const r1 = generateRelease({ seed: 17, version: '83.1', scale: 0.01, withSmq: false, changesFrom: r0 });
  await writeMedAscii(r0, path.join(dir, '83.0'));
  await writeMedAscii(r1, path.join(dir, '83.1'));
  const db = await openDatabase({ databaseUrl: pgdb.url, poolSize: 2 });
  try {
    await importRelease(db, path.join(dir, '83.0'));
    await importRelease(db, path.join(dir, '83.1'));
    const [row] = await db.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM release_change`);
    stored = row!.n;
    latestId = (await db.prisma.release.findUniqueOrThrow({ where: { version: '83.1' } })).id;
  } finally {
    await db.close();
  }
  const config = loadConfig({ DATABASE_URL: pgdb.url, TERMINOLOGY_DEMO: 'false', SEARCH_INDEX_WARM_DELAY_MS: '0', PORT: '0', HOST: '127.0.0.1' });
  server = await startServer(config, { log: createLogger('info', logs.stream), handleSignals: false });
}, 180_000);

afterAll(async () => {
  await server?.close();
  await pgdb?.drop();
});

describe('warm-up', () => {
  it("loads the latest release's index and its change set against the previous release", async () => {
    const warmed = () => logs.lines().find((l) => l.msg === 'warmed the latest release (index and change set)');
    for (let i = 0; i < 300 && !warmed(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(stored).toBeGreaterThan(0);
    expect(warmed()).toMatchObject({ release: '83.1', against: '83.0', changes: stored });
    // The first index made ready is the latest release's, from the snapshot its import wrote
    // (read at start, its id found without Prisma: latestReleaseId).
    expect(logs.lines().find((l) => l.msg === 'release index ready')).toMatchObject({ release: latestId, source: 'snapshot' });
    expect(logs.lines().filter((l) => l.level === 'warn' || l.level === 40)).toEqual([]);
    expect((await fetch(`${server.url}/codes?q=pain`)).status).toBe(200);
  });
});
