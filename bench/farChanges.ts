// Where the first far change set's time goes (issue 32: first → last ≤ 3 s the first time). On a
// store a chain bench left (bench/changes.ts --chain N --store DIR, or DATABASE_URL), the pair
// from → to split by phase, with a given tree's code (--src: this tree's by default, or another
// checkout's src/ for same-run A/B):
//   - ranged read (boundary rows): its statements told apart by their text (the boundary keys or
//     rows per step, per-key lookups), each timed from its start to the next one's;
//   - names (nameMap), describing (describeChange), the listing's term order (ChangeListing.of),
//     storing the rows (1,000 a statement, as store.ts storeInSteps; deleted afterwards);
//   - embedded: the index path too (the latest's index in memory as after a start, the oldest's
//     loaded from its snapshot, compared);
//   - --http: the first request end to end through the app (GET /versions/{to}/changes?fromVersionId=…),
//     its wall time and the process's CPU, the event loop's delay meanwhile (max, p99: how long another
//     request would wait for the thread; 5 ms resolution), then the rows stored, then page 2.
//
//   - --view (with --http): the older release's view made before the first page, as after a start and a code page on it.
//
//   npx tsx bench/farChanges.ts --store /tmp/chain [--src ../other/src] [--from 90.0 --to 90.11] [--http [--warm] [--probe] [--view]]
import path from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openMigrated } from '../src/db/open.ts';

const { values } = parseArgs({
  options: {
    store: { type: 'string' },
    src: { type: 'string' },
    from: { type: 'string', default: '90.0' },
    to: { type: 'string' },
    http: { type: 'boolean', default: false },
    label: { type: 'string', default: '' },
    // --http: first a pair near the last computed (to-2 → to), as a server that has computed one before (code warm, a worker started).
    warm: { type: 'boolean', default: false },
    // --http: cheap requests (GET /health/live) in a stream while the first far page is computed and its rows stored: their latency.
    probe: { type: 'boolean', default: false },
    // --http: the older release's view made first (as a code page on it after a start makes it: over its group's keyframe, loaded as its base).
    view: { type: 'boolean', default: false },
  },
});
const src = path.resolve(values.src ?? path.join(import.meta.dirname, '../src'));
const mod = (p: string) => import(path.join(src, p));

/** Statement classes by their text: the first that matches. */
const CLASSES: [string, RegExp][] = [
  ['seqs', /FROM "release" WHERE id IN/],
  ['steps', /FROM "release" r WHERE r\.seq >/],
  ['boundary', /valid_(from|to) > \$1::bigint/],
  ['lookups', /LATERAL|= ANY|unnest/],
  ['names', /json_array_elements_text/],
  ['termOrder', /string_agg/],
  ['store', /INSERT INTO/],
];

let mark: ((sql: string) => void) | undefined;
const db = await openMigrated(
  { databaseUrl: process.env.DATABASE_URL, dataDir: path.join(values.store ?? '/nonexistent', 'store'), poolSize: 4 },
  { onQuery: (sql) => mark?.(sql) },
);
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const round = (x: number) => Math.round(x);
/** The serving (main) thread's CPU ms alone (its task's utime + stime; process.cpuUsage() counts every thread). */
const threadCpu = () => {
  const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};
/** VmHWM / VmRSS in MB (the peak reset by writing 5 to clear_refs). */
const mem = (k: 'VmHWM' | 'VmRSS') => Number(/(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith(k))!)![1]) / 1024;

try {
  const list = await db.prisma.release.findMany({ orderBy: { ordinal: 'asc' } });
  const fromR = list.find((r) => r.version === values.from)!;
  const toR = values.to ? list.find((r) => r.version === values.to)! : list.at(-1)!;
  const from = { id: fromR.id, version: fromR.version };
  const to = { id: toR.id, version: toR.version };
  const clear = async () => {
    await db.prisma.changeSet.deleteMany({ where: { fromReleaseId: from.id, toReleaseId: to.id } });
    await db.prisma.releaseChange.deleteMany({ where: { fromReleaseId: from.id, toReleaseId: to.id } });
  };
  await clear();
  const out: Record<string, unknown> = { label: values.label, mode: db.mode, src, pair: `${from.version} → ${to.version}`, releases: list.length };
  if (values.http) {
    out.http = await http(from, to, clear);
  } else {
    out.split = await split(from, to, clear);
  }
  console.log(JSON.stringify(out));
} finally {
  await db.close();
}


async function split(from: { id: number; version: string }, to: { id: number; version: string }, clear: () => Promise<void>) {
  const ranged = await mod('domain/changes/rangedDiff.ts');
  const engine = await mod('domain/changes/engine.ts');
  const listing = await mod('domain/changes/listing.ts');
  const bulk = await mod('db/bulk.ts');
  const byClass: Record<string, { n: number; ms: number }> = {};
  let last: { cls: string; t: number } | undefined;
  const close = () => {
    if (!last) return;
    const e = (byClass[last.cls] ??= { n: 0, ms: 0 });
    e.n++;
    e.ms += performance.now() - last.t;
    last = undefined;
  };
  mark = (sql) => {
    close();
    last = { cls: CLASSES.find(([, re]) => re.test(sql))?.[0] ?? 'other', t: performance.now() };
  };
  const phases: Record<string, { ms: number; cpuMs: number }> = {};
  const phase = async <T>(name: string, f: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const c = cpu();
    const v = await f();
    close();
    phases[name] = { ms: round(performance.now() - t), cpuMs: round(cpu() - c) };
    return v;
  };
  // Warm-up on the newest neighbour pair (its code loaded and compiled, as in a server that has answered before).
  const list = await db.prisma.release.findMany({ orderBy: { ordinal: 'asc' } });
  const prev = list.at(-2)!;
  const warm = await ranged.computeChangesFromRanges(db.prisma, { id: prev.id, version: prev.version }, to);
  await listing.ChangeListing.of(db.prisma, warm);
  for (const k of Object.keys(byClass)) delete byClass[k];
  const rows: unknown[] = await phase('diffRanges', () => ranged.diffRanges(db.prisma, from.id, to.id, { overlap: db.mode !== 'embedded' }));
  const statements = Object.fromEntries(Object.entries(byClass).map(([k, v]) => [k, { n: v.n, ms: round(v.ms) }]));
  const names: Map<number, string> = await phase('names', () => engine.nameMap(db.prisma, [to.id, from.id], rows));
  const records = (await phase('describe', async () =>
    rows.map((r: unknown) => engine.describeChange(r, (c: number) => names.get(c), { from: from.version, to: to.version })).filter((c: unknown) => c !== null),
  )) as { changeType: string }[];
  await phase('listing', () => listing.ChangeListing.of(db.prisma, records));
  const columns = [
    { name: 'level', type: 'text', cast: '"Level"', get: (r: { level: string }) => r.level },
    { name: 'code', type: 'int', get: (r: { code: number }) => r.code },
    { name: 'change_type', type: 'text', cast: '"ChangeType"', get: (r: { changeType: string }) => r.changeType },
    { name: 'term', type: 'text', get: (r: { term: string }) => r.term },
    { name: 'details', type: 'text', get: (r: { details: string }) => r.details },
    { name: 'previous_term', type: 'text', get: (r: { previousTerm: string | null }) => r.previousTerm },
    { name: 'metadata', type: 'jsonb', get: (r: { metadata: unknown }) => r.metadata },
  ];
  await phase('store', async () => {
    for (let s = 0; s < records.length; s += 1_000) {
      await bulk.bulkInsert(db.prisma, 'release_change', { from_release_id: from.id, to_release_id: to.id }, columns, records.slice(s, s + 1_000), { onConflict: 'DO NOTHING' });
    }
  });
  mark = undefined;
  await clear();
  const counts = { added: 0, updated: 0, retired: 0 } as Record<string, number>;
  for (const r of records) counts[r.changeType]!++;
  const res: Record<string, unknown> = { rows: rows.length, counts, phases, rangedStatements: statements };
  if (db.mode === 'embedded') {
    // The index path (store.ts changeRecords on the embedded store when no views share a base).
    const cache = await mod('domain/releaseIndex/indexCache.ts');
    const indexDiff = await mod('domain/changes/indexDiff.ts');
    const indexes = new cache.SearchIndexCache(2, db.prisma, db.blobs);
    await indexes.get(to.id, db.prisma);
    const a = await phase('indexLoad', () => indexes.get(from.id, db.prisma));
    const b = indexes.peek(to.id);
    await phase('indexCompare', () => indexDiff.computeChangesFromIndexes({ version: from.version, index: a }, { version: to.version, index: b }));
  }
  return res;
}

async function http(from: { id: number; version: string }, to: { id: number; version: string }, clear: () => Promise<void>) {
  const { loadConfig } = await mod('config.ts');
  const { compose } = await mod('compose.ts');
  const { createLogger } = await mod('logger.ts');
  const { createApp } = await mod('http/app.ts');
  const { ensureChangeSet } = await mod('domain/changes/store.ts');
  const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', NLP_WORKERS: '0' });
  const composed = compose(config, db, createLogger(config.logLevel), { catalogTtlMs: 600_000 });
  try {
    const { fetch } = createApp(composed.services, composed.appOptions);
    const get = async (page: number, baseline: string | null = from.version) => {
      const res = await fetch(new Request(`http://bench/versions/${to.version}/changes?page=${page}${baseline ? `&fromVersionId=${baseline}` : ''}`));
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${res.status}: ${text.slice(0, 300)}`);
      return text;
    };
    await get(1, null); // the route's code warmed on the neighbour pair (stored at import)
    const list = await db.prisma.release.findMany({ orderBy: { ordinal: 'asc' } });
    // Two releases before the target (not the list's: a store still importing has newer ones).
    const near = list[list.findIndex((r) => r.id === to.id) - 2]!;
    const clearNear = async () => {
      await db.prisma.changeSet.deleteMany({ where: { fromReleaseId: near.id, toReleaseId: to.id } });
      await db.prisma.releaseChange.deleteMany({ where: { fromReleaseId: near.id, toReleaseId: to.id } });
    };
    if (values.warm) {
      await clearNear();
      await get(1, near.version);
      await ensureChangeSet(db.prisma, { id: near.id, version: near.version }, to);
      await clearNear();
    }
    // As after a start: the latest release's index in memory.
    await composed.services.catalog.searchIndexes.get(to.id, db.prisma);
    if (values.view) await composed.services.catalog.searchIndexes.view(from.id, db.prisma, 120_000);
    globalThis.gc?.();
    // The serving thread's turns while the first page is computed: what another request would wait for at most.
    const loop = monitorEventLoopDelay({ resolution: 5 });
    // Cheap requests one after another (each as soon as the last answered, 5 ms apart) while the first page is computed and stored.
    const lat: number[] = [];
    let probing = values.probe;
    const probe = (async () => {
      while (probing) {
        // Latency from when the request was due (5 ms after the last answer), not from when the timer got the thread: a stall counts.
        const due = performance.now() + 5;
        await new Promise((r) => setTimeout(r, 5));
        const r = await fetch(new Request('http://bench/health/live'));
        await r.text();
        lat.push(performance.now() - due);
      }
    })();
    try {
      writeFileSync('/proc/self/clear_refs', '5');
    } catch {
      // not allowed: the peak is the process's
    }
    const rss0 = mem('VmRSS');
    loop.enable();
    const c0 = cpu();
    const th0 = threadCpu();
    const t0 = performance.now();
    // For a --cpu-prof's window (its timestamps are this clock's, µs).
    if (process.env.FAR_MARKS) console.error('mark first-start', process.hrtime.bigint() / 1000n);
    const first = await get(1);
    if (process.env.FAR_MARKS) console.error('mark first-end', process.hrtime.bigint() / 1000n);
    const firstMs = performance.now() - t0;
    const firstCpuMs = cpu() - c0;
    const firstThreadCpuMs = threadCpu() - th0;
    const firstLat = lat.length;
    loop.disable();
    const loopFirst = { max: round(loop.max / 1e6), p99: round(loop.percentile(99) / 1e6) };
    loop.reset();
    loop.enable();
    const t1 = performance.now();
    await get(2);
    const page2Ms = performance.now() - t1;
    await ensureChangeSet(db.prisma, from, to);
    const storedAfterMs = performance.now() - t0;
    const threadCpuToStoredMs = threadCpu() - th0;
    const cpuToStoredMs = cpu() - c0;
    loop.disable();
    probing = false;
    await probe;
    const hwm = mem('VmHWM');
    const pct = (xs: number[], q: number) => (xs.length ? round([...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!) : null);
    const t2 = performance.now();
    await get(1);
    const againMs = performance.now() - t2;
    const body = JSON.parse(first) as { changes?: unknown; total?: number };
    const during = lat.slice(0, firstLat);
    return {
      firstMs: round(firstMs), firstCpuMs: round(firstCpuMs), firstThreadCpuMs: round(firstThreadCpuMs),
      loopDelayMaxMs: loopFirst.max, loopDelayP99Ms: loopFirst.p99, storeLoopDelayMaxMs: round(loop.max / 1e6), storeLoopDelayP99Ms: round(loop.percentile(99) / 1e6),
      probe: values.probe ? { nFirst: during.length, p50: pct(during, 0.5), p99: pct(during, 0.99), max: pct(during, 1), nAll: lat.length, p99All: pct(lat, 0.99), maxAll: pct(lat, 1) } : undefined,
      rssBeforeMb: round(rss0), hwmMb: round(hwm), hwmDeltaMb: round(hwm - rss0),
      page2Ms: round(page2Ms), storedAfterMs: round(storedAfterMs), cpuToStoredMs: round(cpuToStoredMs), threadCpuToStoredMs: round(threadCpuToStoredMs), againMs: round(againMs), total: body.total, counts: body.changes,
      load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    };
  } finally {
    await composed.close();
  }
}
