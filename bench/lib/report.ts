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
}): string {
  const m = opts.machine;
  const lines = [
    '# Benchmark results',
    '',
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
    'Throughput is also given as a ratio to a bare `node:http` server answering the same bytes',
    '(captured body and content type) in the same run, since these machines are noisy.',
    'Latency scenarios are sequential requests over one keep-alive connection (exact percentiles);',
    'throughput scenarios are autocannon runs.',
  ];
  for (const r of opts.modes) {
    lines.push('', `## ${r.mode === 'embedded' ? 'Embedded (PGlite)' : 'PostgreSQL'}`, '', '| scenario | measured | target | met? |', '|---|---|---|---|');
    for (const x of r.rows) lines.push(`| ${esc(x.scenario)} | ${esc(x.measured)} | ${esc(x.target)} | ${metText(x.met, !opts.quick)} |`);
    if (r.errors.length) {
      lines.push('', '**Errors:**', '');
      for (const e of r.errors) lines.push(`- ${esc(e)}`);
    }
    if (r.notes.length) {
      lines.push('');
      for (const n of r.notes) lines.push(`- ${n}`);
    }
  }
  lines.push('');
  return lines.join('\n');
}
