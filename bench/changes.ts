// Change-engine benchmark: a full-size synthetic pair (90.0 → 90.1 with realistic
// changes) imported into a fresh embedded store (or DATABASE_URL), then the change set
// computed from scratch. Same-run baseline: reading every concept row of both releases.
// Then the pair's change set loaded into memory (ChangeSetMemory, what code pages read),
// against the one-key statement it replaces.
//
//   npm run bench:changes [-- --scale 1]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateRelease, writeMedAscii } from '../tools/synthetic/generate.ts';
import { openMigrated } from '../src/db/open.ts';
import { importRelease } from '../src/importer/import.ts';
import { changesForCodes, ensureChangeSet, listChanges } from '../src/domain/changes/store.ts';
import { ChangeSetMemory } from '../src/domain/changes/memory.ts';

const { values } = parseArgs({ options: { scale: { type: 'string', default: '1' } } });
const scale = Number(values.scale);
const work = mkdtempSync(path.join(tmpdir(), 'bench-changes-'));
const r0 = generateRelease({ seed: 42, version: '90.0', scale });
const r1 = generateRelease({ seed: 42, version: '90.1', scale, changesFrom: r0 });
await writeMedAscii(r0, path.join(work, '90.0'));
await writeMedAscii(r1, path.join(work, '90.1'));

const db = await openMigrated({ databaseUrl: process.env.DATABASE_URL, dataDir: path.join(work, 'store'), poolSize: 4 });
try {
  for (const v of ['90.0', '90.1']) await importRelease(db, path.join(work, v), { replace: true });
  const [a, b] = await db.prisma.release.findMany({ where: { version: { in: ['90.0', '90.1'] } }, orderBy: { ordinal: 'asc' } });
  const t0 = performance.now();
  await db.prisma.$queryRawUnsafe('SELECT * FROM concept_at($1) UNION ALL SELECT * FROM concept_at($2)', a!.id, b!.id);
  const baselineMs = performance.now() - t0;
  // Recompute from scratch (the import already stored it).
  await db.prisma.changeSet.delete({ where: { fromReleaseId_toReleaseId: { fromReleaseId: a!.id, toReleaseId: b!.id } } });
  await db.prisma.releaseChange.deleteMany({ where: { fromReleaseId: a!.id, toReleaseId: b!.id } });
  const t1 = performance.now();
  const counts = await ensureChangeSet(db.prisma, a!, b!);
  const computeMs = performance.now() - t1;
  const pageTimes: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    await listChanges(db.prisma, a!.id, b!.id, { level: i % 2 ? 'LLT' : undefined }, (i % 10) * 50, 50);
    pageTimes.push(performance.now() - t);
  }
  pageTimes.sort((x, y) => x - y);
  // The pair in memory: one load, then a code's change record per lookup.
  const heapBefore = (globalThis.gc?.(), process.memoryUsage().heapUsed);
  const memory = new ChangeSetMemory();
  const t2 = performance.now();
  const pair = (await memory.get(a!.id, b!.id, db.prisma))!;
  const loadMs = performance.now() - t2;
  const heapAfter = (globalThis.gc?.(), process.memoryUsage().heapUsed);
  const codes = (await db.prisma.$queryRawUnsafe<{ code: number }[]>('SELECT code FROM concept_at($1) ORDER BY code', b!.id)).map((r) => r.code);
  const probe = codes.filter((_c, i) => i % Math.max(1, Math.floor(codes.length / 300)) === 0).slice(0, 300);
  const t3 = performance.now();
  for (const code of probe) await changesForCodes(db.prisma, [{ fromId: a!.id, toId: b!.id, code }]);
  const sqlPerCodeMs = (performance.now() - t3) / probe.length;
  const t4 = performance.now();
  let found = 0;
  for (let r = 0; r < 100; r++) for (const code of probe) found += pair.of(code).length;
  const memPerCodeMs = (performance.now() - t4) / (probe.length * 100);
  console.log(
    JSON.stringify(
      {
        scenario: 'change set of a synthetic release pair, first computation',
        mode: db.mode,
        scale,
        counts,
        baselineReadBothReleasesMs: Math.round(baselineMs),
        computeMs: Math.round(computeMs),
        ratioToBaseline: Math.round((computeMs / baselineMs) * 10) / 10,
        changesPageP95Ms: Math.round(pageTimes[Math.floor(pageTimes.length * 0.95)]! * 10) / 10,
        inMemory: {
          rows: pair.size,
          loadMs: Math.round(loadMs),
          loadRatioToBaseline: Math.round((loadMs / baselineMs) * 100) / 100,
          heapMB: globalThis.gc ? Math.round(((heapAfter - heapBefore) / 2 ** 20) * 10) / 10 : 'run with node --expose-gc',
          codeRecordSqlMs: Math.round(sqlPerCodeMs * 1000) / 1000,
          codeRecordMemoryMs: Math.round(memPerCodeMs * 10000) / 10000,
          sqlToMemoryRatio: Math.round(sqlPerCodeMs / memPerCodeMs),
          probedCodes: probe.length,
          probedWithChanges: found / 100,
        },
        targets: { computeMs: 10_000 },
        met: computeMs <= 10_000,
        node: process.version,
      },
      null,
      2,
    ),
  );
} finally {
  await db.close();
  rmSync(work, { recursive: true, force: true });
}
