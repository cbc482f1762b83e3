// Self instructions per function of callgrind dumps, with V8's JIT code named: valgrind knows
// only the addresses of JavaScript compiled at run time, and a server started with node
// `--perf-basic-prof` writes /tmp/perf-PID.map (start, size, name of every code object), which
// names them. Two servers of one `bench:metrics --instructions --out DIR --node-flags=--perf-basic-prof`
// run compared function by function, per request:
//
//   npx tsx bench/callgrindNames.ts --requests 10000 BASE_DUMP BASE_MAP OTHER_DUMP OTHER_MAP [--top 60]
//
// (one dump and map alone: that server's top functions; `--callers NAME`: instead of self costs, the
// cost of the calls each function makes to functions named NAME, e.g. Builtins_KeyedLoadIC_Megamorphic). A dump is one thread's file (`cg.PID.N-01`
// is the main thread of the Nth dump).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface MapEntry {
  start: bigint;
  end: bigint;
  name: string;
}

function readPerfMap(file: string): MapEntry[] {
  const entries: MapEntry[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/i.exec(line);
    if (!m) continue;
    const start = BigInt(`0x${m[1]}`);
    entries.push({ start, end: start + BigInt(`0x${m[2]}`), name: m[3]! });
  }
  // A later entry at the same address is newer code (the old was collected): the later one wins.
  return entries.map((e, i) => ({ e, i })).sort((a, b) => (a.e.start < b.e.start ? -1 : a.e.start > b.e.start ? 1 : a.i - b.i)).map((x) => x.e);
}

function lookup(map: MapEntry[], addr: bigint): string | undefined {
  let lo = 0;
  let hi = map.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (map[mid]!.start <= addr) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  // The newest entry starting at or below addr that still covers it.
  for (let i = found; i >= 0 && i > found - 50; i--) if (map[i]!.end > addr && map[i]!.start <= addr) return map[i]!.name;
  return undefined;
}

/**
 * Self Ir per function name (JIT addresses named through `map`, by V8's name without the source
 * position's column); with `callee`, instead the inclusive Ir of the calls each function makes to
 * functions whose name contains `callee`.
 */
function selfCosts(dump: string, map: MapEntry[], callee?: string): Map<string, number> {
  const names = new Map<string, string>();
  const self = new Map<string, number>();
  let fn = '';
  let cfn = '';
  let skipNext = false;
  const nameOf = (spec: string) => {
    const m = /^\((\d+)\)(?: (.*))?$/.exec(spec);
    if (!m) return spec;
    if (m[2] !== undefined) names.set(m[1]!, m[2]);
    return names.get(m[1]!) ?? spec;
  };
  for (const line of readFileSync(dump, 'utf8').split('\n')) {
    if (line.startsWith('fn=')) {
      fn = nameOf(line.slice(3));
      continue;
    }
    if (line.startsWith('cfn=')) {
      cfn = nameOf(line.slice(4));
      continue;
    }
    if (line.startsWith('calls=')) {
      skipNext = true;
      continue;
    }
    const c = /^([+-]?\d+|\*)\s+(\d+)/.exec(line);
    if (!c) continue;
    if (skipNext) {
      skipNext = false;
      if (callee !== undefined && cfn.includes(callee)) self.set(fn, (self.get(fn) ?? 0) + Number(c[2]));
      continue;
    }
    if (callee === undefined) self.set(fn, (self.get(fn) ?? 0) + Number(c[2]));
  }
  const named = new Map<string, number>();
  for (const [f, ir] of self) {
    let name = f;
    const addr = /^0x([0-9a-f]+)$/i.exec(f);
    if (addr) name = lookup(map, BigInt(`0x${addr[1]}`))?.replace(/:\d+$/, '') ?? `(unnamed JIT) ${f.slice(0, 12)}…`;
    named.set(name, (named.get(name) ?? 0) + ir);
  }
  return named;
}

const { values: o, positionals } = parseArgs({ options: { requests: { type: 'string', default: '1' }, top: { type: 'string', default: '60' }, callers: { type: 'string' } }, allowPositionals: true });
const n = Number(o.requests);
const top = Number(o.top);
const [baseDump, baseMap, otherDump, otherMap] = positionals;
if (!baseDump || !baseMap) throw new Error('usage: callgrindNames.ts --requests N DUMP PERFMAP [DUMP2 PERFMAP2]');
const base = selfCosts(baseDump, readPerfMap(baseMap), o.callers);
const fmt = (x: number) => (x / n).toFixed(0).padStart(8);
if (!otherDump || !otherMap) {
  const total = [...base.values()].reduce((a, b) => a + b, 0);
  process.stdout.write(`total ${fmt(total)} per request\n`);
  for (const [f, ir] of [...base].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${fmt(ir)}  ${f}\n`);
} else {
  const other = selfCosts(otherDump, readPerfMap(otherMap), o.callers);
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  process.stdout.write(`total per request: base ${fmt(sum(base))}, other ${fmt(sum(other))}, difference ${fmt(sum(other) - sum(base))}\n  other−base     base    other  function\n`);
  const keys = new Set([...base.keys(), ...other.keys()]);
  const rows = [...keys].map((f) => ({ f, b: base.get(f) ?? 0, x: other.get(f) ?? 0 })).sort((a, b) => Math.abs(b.x - b.b) - Math.abs(a.x - a.b));
  for (const r of rows.slice(0, top)) process.stdout.write(`${fmt(r.x - r.b)} ${fmt(r.b)} ${fmt(r.x)}  ${r.f}\n`);
}
