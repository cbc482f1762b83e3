// Impact benchmark: 100,000 coded rows between two full-size synthetic releases (90.0 →
// 90.1 with realistic changes), imported by the CLI into a fresh embedded store (or
// DATABASE_URL), then POST /impact through the app built by the composition root (in-process fetch, the
// whole answer read). Reports time, rows/s, peak RSS and the longest event-loop stall
// while the request ran (other requests wait at most that long).
//
//   npm run bench:impact [-- --scale 1] [-- --rows 100000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateRelease, writeMedAscii } from '../tools/synthetic/generate.ts';
import { Rng } from '../tools/synthetic/prng.ts';
import { openMigrated } from '../src/db/open.ts';
import { spawnSync } from 'node:child_process';
import { projectRoot } from '../src/paths.ts';
import { loadConfig } from '../src/config.ts';
import { compose } from '../src/compose.ts';
import { createLogger } from '../src/logger.ts';
import { createApp } from '../src/http/app.ts';
import { createApiKey } from '../src/domain/apiKeys.ts';

const { values } = parseArgs({ options: { scale: { type: 'string', default: '1' }, rows: { type: 'string', default: '100000' } } });
const scale = Number(values.scale);
const rowCount = Number(values.rows);
const work = mkdtempSync(path.join(tmpdir(), 'bench-impact-'));
const r0 = generateRelease({ seed: 42, version: '90.0', scale });
const r1 = generateRelease({ seed: 42, version: '90.1', scale, changesFrom: r0 });
await writeMedAscii(r0, path.join(work, '90.0'));
await writeMedAscii(r1, path.join(work, '90.1'));

// Coded data: one row in ten uses a code the upgrade changes, the rest current LLTs; the
// recorded term is the LLT's name, misspelt in one row in twenty.
const rng = new Rng(7);
const ch = r1.changes!;
const changed = [
  ...ch.lltsMadeNonCurrent,
  ...ch.lltsMoved.map((m) => m.llt),
  ...ch.renamedLlts.map((r) => r.code),
  ...ch.renamedPts.map((r) => r.code),
  ...ch.demotedPts.map((d) => d.code),
  ...ch.promotedLlts.map((p) => p.code),
  ...ch.primarySocMoves.map((m) => m.pt),
];
const current = r0.llts.filter((l) => l.current);
const names = new Map(r0.llts.map((l) => [l.code, l.name]));
const lines = ['rowId,code,term'];
for (let i = 0; i < rowCount; i++) {
  const code = i % 10 === 0 ? changed[rng.int(0, changed.length - 1)]! : current[rng.int(0, current.length - 1)]!.code;
  let term = names.get(code) ?? '';
  if (i % 20 === 1) term = `${term.slice(0, -1)}x`;
  lines.push(`case-${i},${code},"${term.replace(/"/g, '""')}"`);
}
const csv = lines.join('\r\n');

// Imported by the real CLI in a child process, as operators do: the measured process then
// holds what a server holds (the store opened, no import garbage).
const storeEnv = { ...process.env, TERMINOLOGY_DATA_DIR: path.join(work, 'store'), TERMINOLOGY_DEMO: 'false', LOG_LEVEL: 'warn' };
for (const v of ['90.0', '90.1']) {
  const r = spawnSync(process.execPath, [path.join(projectRoot, 'bin/terminology.mjs'), 'import', path.join(work, v), '--replace'], { env: storeEnv, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`import ${v} failed: ${r.stderr}`);
}
const db = await openMigrated({ databaseUrl: process.env.DATABASE_URL, dataDir: path.join(work, 'store'), poolSize: 4 });
const config = loadConfig({ LOG_LEVEL: 'silent', NLP_WORKERS: '0', RATE_LIMIT_PER_MINUTE: '0', TERMINOLOGY_DEMO: 'false' });
const composed = compose(config, db, createLogger('silent'));
try {
  const app = createApp(composed.services, composed.appOptions);
  const { key } = await createApiKey(db.prisma, 'bench');
  const rssAtStart = process.memoryUsage().rss;

  async function measure(label: string, init: { query: string; body: string; contentType: string; accept?: string }) {
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peakRss = rssBefore;
    let maxStall = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      maxStall = Math.max(maxStall, now - last - 10);
      last = now;
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 10);
    const t0 = performance.now();
    const res = await app.fetch(
      new Request(`http://bench/impact?from=90.0&to=90.1${init.query}`, {
        method: 'POST',
        headers: { 'content-type': init.contentType, 'x-api-key': key, ...(init.accept ? { accept: init.accept } : {}) },
        body: init.body,
      }),
    );
    // Read the whole answer without keeping it (a client writing it to a file): only the
    // head, which holds the summary, is kept.
    let bytes = 0;
    let head = '';
    const decoder = new TextDecoder();
    const reader = res.body!.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      const chunk = r.value;
      bytes += chunk.byteLength;
      if (head.length < 1_000_000) head += decoder.decode(chunk, { stream: true });
    }
    const ms = performance.now() - t0;
    clearInterval(timer);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    if (res.status !== 200) throw new Error(`${label}: HTTP ${res.status} ${head.slice(0, 300)}`);
    const rowsAt = head.indexOf('"rows":[');
    const summary = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(`${head.slice(0, rowsAt + 8)}]}`).summary : undefined;
    return {
      label,
      ms: Math.round(ms),
      rowsPerSecond: Math.round(rowCount / (ms / 1000)),
      answerMb: Math.round(bytes / 1e5) / 10,
      rssBeforeMb: Math.round(rssBefore / 1048576),
      peakRssMb: Math.round(peakRss / 1048576),
      maxEventLoopStallMs: Math.round(maxStall),
      ...(summary ? { impacted: summary.rowsImpacted, byKind: Object.fromEntries(summary.byKind.map((k: { kind: string; rows: number }) => [k.kind, k.rows])) } : {}),
    };
  }

  const jsonBody = JSON.stringify({
    rows: lines.slice(1).map((l) => {
      const [rowId, code] = l.split(',');
      return { rowId, code, term: names.get(Number(code)) ?? null };
    }),
  });
  const runs = [
    await measure('CSV in, JSON out, first request (builds both releases’ in-memory indexes)', { query: '', body: csv, contentType: 'text/csv' }),
    await measure('CSV in, JSON out, warm', { query: '', body: csv, contentType: 'text/csv' }),
    await measure('CSV in, CSV out, warm', { query: '&format=csv', body: csv, contentType: 'text/csv' }),
    await measure('JSON in, JSON out, warm', { query: '', body: jsonBody, contentType: 'application/json' }),
  ];
  const worstMs = Math.max(...runs.map((r) => r.ms));
  const peakRssMb = Math.max(...runs.map((r) => r.peakRssMb), Math.round(process.resourceUsage().maxRSS / 1024));
  const rssAtStartMb = Math.round(rssAtStart / 1048576);
  console.log(
    JSON.stringify(
      {
        scenario: `impact of ${rowCount} coded rows, 90.0 → 90.1 (full-size synthetic releases)`,
        mode: db.mode,
        scale,
        uploadMb: Math.round(csv.length / 1e5) / 10,
        rssWithStoreOpenMb: rssAtStartMb,
        runs,
        peakRssMb,
        targets: { ms: 10_000, peakRssMb: 1024 },
        met: worstMs <= 10_000 && peakRssMb <= 1024,
        node: process.version,
      },
      null,
      2,
    ),
  );
} finally {
  await composed.close();
  await db.close();
  rmSync(work, { recursive: true, force: true });
}
