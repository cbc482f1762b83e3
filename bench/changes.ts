// Change-engine benchmark: a full-size synthetic pair (90.0 → 90.1 with realistic
// changes) imported into a fresh embedded store (or DATABASE_URL), then the change set
// computed from scratch. Same-run baseline: reading every concept row of both releases.
// Then the pair's change set loaded into memory (ChangeSetMemory, what code pages read),
// against the one-key statement it replaces.
//
//   npm run bench:changes [-- --scale 1]
//
// With --chain N (issue 32): N consecutive synthetic releases, then the change set first → last
// asked as a server asks it (pageFromMemory with the latest release's index in memory, as after
// start; the change-set share of the default memory budget scaled with --scale), page 1 then page 2
// at once, then page 1 again once stored. --baseline DIR (a copy of another commit's src/, e.g.
// `git archive <commit> src | tar -x -C DIR`, its src/generated and node_modules beside) runs the
// same rounds with that code, alternated, for same-run ratios; the pages of both must be identical.
//
//   npm run bench:changes -- --chain 6 --scale 0.5 [--baseline DIR] [--rounds 3] [--store DIR]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateRelease, writeMedAscii } from '../tools/synthetic/generate.ts';
import { openMigrated } from '../src/db/open.ts';
import { importRelease } from '../src/importer/import.ts';
import { changesForCodes, ensureChangeSet, listChanges } from '../src/domain/changes/store.ts';
import { ChangeSetMemory } from '../src/domain/changes/memory.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    chain: { type: 'string' },
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    store: { type: 'string' },
  },
});
/** The change-set share of the default budget (MEMORY_BUDGET_MB 1024: 36.75 MB, src/config.ts), scaled with the data. */
const CHANGE_SET_SHARE = 36.75 * 2 ** 20;
const scale = Number(values.scale);
if (values.chain) {
  await chainBench(Number(values.chain), values.baseline, Number(values.rounds), values.store);
  process.exit(0);
}
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

/** What a round needs of an engine's code: this tree's, or the baseline's (same signatures). */
interface Engine {
  name: string;
  pageFromMemory: typeof import('../src/domain/changes/pages.ts').pageFromMemory;
  ensureChangeSet: typeof ensureChangeSet;
  listChanges: typeof listChanges;
  ChangeSetMemory: typeof ChangeSetMemory;
  SearchIndexCache: typeof import('../src/domain/releaseIndex/indexCache.ts').SearchIndexCache;
}

async function engineFrom(name: string, src: string): Promise<Engine> {
  const [pages, store, memory, cache] = await Promise.all([
    import(path.join(src, 'domain/changes/pages.ts')),
    import(path.join(src, 'domain/changes/store.ts')),
    import(path.join(src, 'domain/changes/memory.ts')),
    import(path.join(src, 'domain/releaseIndex/indexCache.ts')),
  ]);
  return { name, pageFromMemory: pages.pageFromMemory, ensureChangeSet: store.ensureChangeSet, listChanges: store.listChanges, ChangeSetMemory: memory.ChangeSetMemory, SearchIndexCache: cache.SearchIndexCache };
}


async function chainBench(n: number, baselineDir: string | undefined, rounds: number, storeDir: string | undefined): Promise<void> {
  const log = (m: string) => process.stderr.write(`[changes ${new Date().toISOString().slice(11, 19)}] ${m}\n`);
  const dir = storeDir ?? mkdtempSync(path.join(tmpdir(), 'bench-chain-'));
  const versions = Array.from({ length: n }, (_, i) => `90.${i}`);
  const db = await openMigrated({ databaseUrl: process.env.DATABASE_URL, dataDir: path.join(dir, 'store'), poolSize: 4 });
  try {
    const hosted = new Set((await db.prisma.release.findMany()).map((r) => r.version));
    let prev: ReturnType<typeof generateRelease> | undefined;
    for (const version of versions) {
      const r = generateRelease({ seed: 42, version, scale, changesFrom: prev });
      prev = r;
      if (hosted.has(version)) continue;
      await writeMedAscii(r, path.join(dir, version));
      const t = performance.now();
      await importRelease(db, path.join(dir, version));
      rmSync(path.join(dir, version), { recursive: true, force: true });
      log(`imported ${version} in ${Math.round((performance.now() - t) / 1000)} s`);
    }
    type Ref = { id: number; version: string };
    const [first, last] = (await Promise.all(
      [versions[0]!, versions.at(-1)!].map(async (v) => {
        const r = (await db.prisma.release.findFirst({ where: { version: v } }))!;
        return { id: r.id, version: r.version };
      }),
    )) as [Ref, Ref];
    const engines = [await engineFrom('this tree', path.join(import.meta.dirname, '../src'))];
    if (baselineDir) engines.unshift(await engineFrom('baseline', path.join(baselineDir, 'src')));
    type Times = { firstMs: number; firstCpuMs: number; secondMs: number; secondCpuMs: number; storedAfterMs: number; againMs: number };
    const results = new Map<string, Times[]>(engines.map((e) => [e.name, []]));
    const answers = new Map<string, string>();
    let counts: unknown;
    for (let round = 0; round < rounds; round++) {
      for (const e of engines) {
        await db.prisma.changeSet.deleteMany({ where: { fromReleaseId: first.id, toReleaseId: last.id } });
        await db.prisma.releaseChange.deleteMany({ where: { fromReleaseId: first.id, toReleaseId: last.id } });
        const memory = new e.ChangeSetMemory(8, Math.floor(CHANGE_SET_SHARE * scale));
        const indexes = new e.SearchIndexCache(2, db.prisma, db.blobs);
        await indexes.get(last.id, db.prisma); // the latest release's index, as after the server's start
        globalThis.gc?.();
        // As the service asks (src/services/changes.ts releaseChanges): from memory, else stored rows.
        const page = async (offset: number) =>
          (await e.pageFromMemory(db.prisma, memory, first, last, {}, offset, 50, indexes)) ??
          (await e.ensureChangeSet(db.prisma, first, last, indexes), await e.listChanges(db.prisma, first.id, last.id, {}, offset, 50));
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const p1 = await page(0);
        const t1 = performance.now();
        const c1 = process.cpuUsage();
        const p2 = await page(50);
        const t2 = performance.now();
        const c2 = process.cpuUsage();
        counts = await e.ensureChangeSet(db.prisma, first, last, indexes);
        const t3 = performance.now();
        const p3 = await page(0);
        const t4 = performance.now();
        const cpu = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage) => (b.user - a.user + b.system - a.system) / 1000;
        const times = { firstMs: t1 - t0, firstCpuMs: cpu(c0, c1), secondMs: t2 - t1, secondCpuMs: cpu(c1, c2), storedAfterMs: t3 - t0, againMs: t4 - t3 };
        results.get(e.name)!.push(times);
        const answer = JSON.stringify([p1, p2, p3]);
        const seen = answers.get('pages');
        if (seen !== undefined && seen !== answer) throw new Error(`${e.name}: pages differ from the first engine's`);
        answers.set('pages', answer);
        log(`${e.name} round ${round + 1}: ${JSON.stringify(Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.round(v)])))}`);
      }
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const summary = Object.fromEntries(
      [...results].map(([name, ts]) => [name, Object.fromEntries(Object.keys(ts[0]!).map((k) => [`${k}Median`, Math.round(med(ts.map((t) => t[k as keyof Times])) * 10) / 10]))]),
    );
    const ratios = baselineDir
      ? Object.fromEntries(
          Object.keys(results.get('this tree')![0]!).map((k) => [
            k,
            results.get('this tree')!.map((t, i) => Math.round((t[k as keyof Times] / results.get('baseline')![i]![k as keyof Times]) * 100) / 100),
          ]),
        )
      : undefined;
    console.log(
      JSON.stringify(
        { scenario: `change set first → last of ${n} synthetic releases, as the server asks it`, mode: db.mode, scale, pair: `${first.version} → ${last.version}`, counts, rounds, summary, ratiosThisTreeToBaselinePerRound: ratios, pagesIdentical: true, node: process.version },
        null,
        2,
      ),
    );
  } finally {
    await db.close();
    if (!storeDir) rmSync(dir, { recursive: true, force: true });
  }
}
