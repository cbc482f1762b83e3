// Result rows, the console table and bench/results.md.
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface Row {
  id: string;
  scenario: string;
  measured: string;
  target: string;
  /** null: informational row (no target), or not measured. */
  met: boolean | null;
  /** Absolute numbers behind `measured` (for --json and the details section). */
  values?: object;
  /** What the run measured that explains a missed target (CPU per request, …). */
  cause?: string;
}

export interface ModeReport {
  mode: 'embedded' | 'postgresql';
  rows: Row[];
  errors: string[];
  notes: string[];
}

export interface Machine {
  cpu: string;
  cores: number;
  memoryGb: number;
  node: string;
  platform: string;
}

/** Share of all cores busy over `ms` (from /proc/stat), or undefined off Linux. */
export async function cpuBusy(ms: number): Promise<number | undefined> {
  const read = () => {
    const f = /^cpu\s+(.+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]?.split(/\s+/).map(Number);
    if (!f || f.length < 5) throw new Error('no cpu line');
    const idle = f[3]! + f[4]!;
    return { idle, total: f.reduce((a, b) => a + b, 0) };
  };
  try {
    const a = read();
    await new Promise((r) => setTimeout(r, ms));
    const b = read();
    return Math.round((1 - (b.idle - a.idle) / Math.max(1, b.total - a.total)) * 100);
  } catch {
    return undefined;
  }
}

export function loadAverage(): string {
  return os.loadavg().map((x) => x.toFixed(2)).join(' ');
}

export function machineInfo(): Machine {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    cpu = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpu;
  } catch {
    // not Linux
  }
  return {
    cpu,
    cores: os.availableParallelism?.() ?? os.cpus().length,
    memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

const metText = (m: boolean | null, enforced: boolean) => (m === null ? '–' : m ? 'yes' : enforced ? '**NO**' : 'no');

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

/** Plain-text table for the terminal. */
export function consoleTable(r: ModeReport, enforced: boolean): string {
  const head = ['scenario', 'measured', 'target', 'met?'];
  const rows = r.rows.map((x) => [x.scenario, x.measured, x.target, metText(x.met, enforced).replace(/\*/g, '')]);
  const widths = head.map((h, i) => Math.min(i === 1 ? 90 : 60, Math.max(h.length, ...rows.map((row) => row[i]!.length))));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i]!)).join(' | ');
  const out = [`== ${r.mode} ==`, line(head), widths.map((w) => '-'.repeat(w)).join('-+-'), ...rows.map(line)];
  for (const e of r.errors) out.push(`ERROR: ${e}`);
  return out.join('\n');
}

const esc = (s: string) => s.replace(/\|/g, '\\|');

/** Rows of results.md written before rows carried ids: their scenario text → today's id. */
const LEGACY_IDS: [RegExp, string][] = [
  [/^import of a full-size release/, 'import'],
  [/^change set .*first computation/, 'changeset'],
  [/^GET \/codes\/\{code\} warm/, 'codes-warm-off'],
  [/^GET \/codes\?q= exact \(/, 'search-exact'],
  [/^GET \/codes\?q= prefix \(/, 'search-prefix'],
  [/^GET \/codes\?q= misspelt \(/, 'search-misspelt'],
  [/^GraphQL: largest SOC/, 'subtree-repeated'],
  [/^GET \/versions\/.*\/changes page/, 'changes-page'],
  [/^POST \/classify/, 'classify'],
  [/^POST \/labels\/classify/, 'labels'],
  [/^server RSS/, 'rss'],
  [/^cold start/, 'cold-start'],
];

/** The previous results.md's figures by mode and row id (the "last round" column). */
export function previousFigures(md: string | undefined): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  if (!md) return out;
  let mode: string | undefined;
  for (const line of md.split('\n')) {
    if (line.startsWith('## ')) {
      mode = /^## Embedded/.test(line) ? 'embedded' : /^## PostgreSQL/.test(line) ? 'postgresql' : undefined;
      if (mode && out.has(mode)) mode = undefined; // only the first table of a mode
      if (mode) out.set(mode, new Map());
      continue;
    }
    if (!mode || !line.startsWith('| ') || line.startsWith('| scenario')) continue;
    const cells = line.slice(2, -2).split(/(?<!\\)\s\|\s/);
    const id = /<!--([\w-]+)-->/.exec(cells[0] ?? '')?.[1] ?? LEGACY_IDS.find(([re]) => re.test(cells[0] ?? ''))?.[1];
    if (id && !out.get(mode)!.has(id)) out.get(mode)!.set(id, (cells[1] ?? '').replace(/\*\*/g, ''));
  }
  return out;
}

/** The next step for a missed target, by row id (the measured cause is the row's own). */
const NEXT_STEPS: Record<string, string> = {
  'codes-warm-on': 'warm answers are already served from Node\'s request ahead of the Fetch adapter with a synchronous bounded-window limiter (issue 18); what remains is the answer\'s ~20 headers and the socket write (a bare server sending the same headers reaches only 0.55–0.65 of the two-header bare: README › Benchmarks): precompute each cached answer\'s header block and add a same-headers bare baseline',
  'codes-warm-off': 'as for the limiter-on row: the replay path is already ahead of the Fetch adapter; the gap is header serialisation and writev for ~20 headers against the bare server\'s two',
  'codes-uncached': 'an uncached code page already issues no SQL (release index, in-memory change record) and runs a graphql-jit-compiled operation; the rest is the Fetch adaptation (@hono/node-server and hono, ~15 % of the CPU in a profile), Yoga/envelop orchestration and JSON + ETag: serve REST GETs from Node\'s request without Request/Response objects',
  'codes-lookup': 'as above: one uncached lookup should cost no SQL once the release index is built',
  'graphql-codes100': 'batch the 100 codes\' parents, children and synonyms through DataLoaders (one statement per level, not per code)',
  'search-exact': 'build REST search items straight from the index (skip GraphQL execution)',
  'search-prefix': 'build REST search items straight from the index (skip GraphQL execution); cap the prefix candidates scored',
  'search-misspelt': 'build REST search items straight from the index; walk fewer posting lists for long typo queries',
  'subtree-first': 'the request arrives before the latest release\'s index has loaded from its snapshot (0.6–1 s after listening at full size) and takes the SQL path; with the index loaded, the first subtree request took ~200 ms by hand (graphql-jit): hold readiness until the latest index is loaded, or let hierarchy queries wait for a snapshot load already in flight',
  'subtree-repeated': 'serve the cached result bytes without re-serialising (cache the JSON text)',
  classify: 'cache API-key lookups briefly (with revocation notice) and skip the GraphQL envelope on the REST route',
  identify: 'profile the sentence splitter on long narratives; run it in the NLP worker only above a size',
  'cold-start': 'open the store lazily (serve /versions from a small catalog read before the release indexes load)',
  'scale-out': 'measure on a machine with ≥ 4 cores (load generator, proxy and database each need their own): two cores cannot hold two servers plus the rest',
  'scale-out-executed': 'the servers share two cores with wrk, haproxy, PostgreSQL and Redis: measure on a machine with ≥ 4 cores',
  'fhir-lookup': 'REST lookups became cheaper (no SQL, graphql-jit) than FHIR $lookup, whose p50 is the same (0.5 ms) but whose tail is longer: profile $lookup\'s Parameters assembly (--cpu-prof)',
  rss: 'embedded only — PostgreSQL ran the same scenarios at 970 MB; the excess is the embedded store\'s own footprint, measured on starts of a full-size store by hand: the server holds 425–550 MB already at listening with PGlite against 210 MB with PostgreSQL, and 600–680 MB against 330 MB once the latest index is loaded, so the service\'s own memory is the same in both modes: try PGlite\'s memory settings (initial WebAssembly memory, shared_buffers) and measure again',
  'changes-page': 'keyset continuation behind the page links (no deep OFFSET)',
};

/** The sections bench/run.ts writes: its header (before the first `## `) and one table per mode. */
const RUN_SECTION = /^## (Embedded \(PGlite\)|PostgreSQL)\s*$/;

/** The previous results.md's sections that bench/run.ts does not write, in their order, each whole. */
export function keptSections(previous: string | undefined): string[] {
  if (!previous) return [];
  const parts = previous.split(/\n(?=## )/);
  return parts.filter((sec) => sec.startsWith('## ') && !RUN_SECTION.test(sec.split('\n', 1)[0]!));
}

export function markdown(opts: {
  machine: Machine;
  date: string;
  command: string;
  quick: boolean;
  scale: number;
  durations: string;
  sourceDigest: string;
  data: string;
  noise: string;
  modes: ModeReport[];
  wallS: number;
  /** The results.md this run replaces: its figures become the "last round" column; its kept sections stay. */
  previous?: string;
  /** A line saying what this run is (BENCH_LABEL), e.g. "pre-merge baseline on a noisy machine". */
  label?: string;
}): string {
  const m = opts.machine;
  const prev = previousFigures(opts.previous);
  const lines = [
    '# Benchmark results',
    '',
    ...(opts.label ? [`**${opts.label}**`, ''] : []),
    `Produced by \`${opts.command}\` (bench/run.ts). ${opts.quick ? '**Quick variant: small data, short runs, targets not enforced.**' : ''}`,
    '',
    '| | |',
    '|---|---|',
    `| date | ${opts.date} |`,
    `| machine | ${esc(m.cpu)}, ${m.cores} cores, ${m.memoryGb} GB memory, ${esc(m.platform)} |`,
    `| Node | ${m.node} |`,
    `| data | ${esc(opts.data)} |`,
    `| load | ${esc(opts.durations)} |`,
    `| source | sha256 of src/ = \`${opts.sourceDigest}\` (other engineers edit src/ concurrently: results belong to that tree) |`,
    `| wall time | ${Math.round(opts.wallS)} s |`,
    `| other load | ${esc(opts.noise)} |`,
    '',
    'Every throughput figure is a wrk run against the service and the same run against a bare `node:http`',
    'server answering the same bytes (captured body and content type), alternated in the same run',
    '(bare, service, bare, service, …) on the same pinned core; the figures are medians and the ratio is the',
    'ratio of medians, since these machines are noisy. Latency scenarios are sequential requests over one',
    'keep-alive connection (exact percentiles). "last round" is the previous results.md\'s figure for the row',
    '(its scenario may have been measured differently: autocannon, 32 connections, limiter off, /health/ready).',
  ];
  for (const r of opts.modes) {
    const before = prev.get(r.mode) ?? new Map<string, string>();
    lines.push('', `## ${r.mode === 'embedded' ? 'Embedded (PGlite)' : 'PostgreSQL'}`, '', '| scenario | this run | last round | target | met? |', '|---|---|---|---|---|');
    for (const x of r.rows) lines.push(`| <!--${x.id}--> ${esc(x.scenario)} | ${esc(x.measured)} | ${esc(before.get(x.id) ?? '–')} | ${esc(x.target)} | ${metText(x.met, !opts.quick)} |`);
    const missed = r.rows.filter((x) => x.met === false);
    if (missed.length) {
      lines.push('', '### Targets missed: measured cause and next step', '');
      for (const x of missed) lines.push(`- **${x.id}** — cause: ${x.cause ?? 'see the row\'s figures'}. Next: ${NEXT_STEPS[x.id] ?? 'profile it (--cpu-prof)'}.`);
    }
    if (r.errors.length) {
      lines.push('', '**Errors:**', '');
      for (const e of r.errors) lines.push(`- ${esc(e)}`);
    }
    if (r.notes.length) {
      lines.push('', '### Noise and notes', '');
      for (const n of r.notes) lines.push(`- ${n}`);
    }
  }
  // Every section this run does not write stays: those of the other benchmarks (bench/impact.ts,
  // metrics.ts, cli.ts, languages.ts, manyReleases.ts, and any added later). A list of the sections
  // to keep dropped every section it did not name; this run owns only its header and mode tables.
  const kept = keptSections(opts.previous);
  if (kept.length) lines.push('', ...kept.map((k) => k.trimEnd()));
  lines.push('');
  return lines.join('\n');
}
