// Reads the Prometheus text exposition format (version 0.0.4) strictly: every line is a
// comment, blank, or `name{label="value",…} value`; anything else throws. (The npm parser
// parse-prometheus-text-format 1.1.1 merges a histogram's series and drops their labels.)
// Tests also run Prometheus's own parser over the same text where promtool is installed.
import { spawnSync } from 'node:child_process';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;

function parseLabels(s: string, at: number, line: string): [Record<string, string>, number] {
  const labels: Record<string, string> = {};
  let i = at + 1;
  while (s[i] !== '}') {
    const m = /^([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(s.slice(i));
    if (!m) throw new Error(`bad label in: ${line}`);
    i += m[0].length;
    let v = '';
    for (;;) {
      const c = s[i++];
      if (c === undefined) throw new Error(`unterminated label value in: ${line}`);
      if (c === '"') break;
      if (c === '\\') {
        const e = s[i++];
        v += e === 'n' ? '\n' : e;
      } else v += c;
    }
    labels[m[1]!] = v;
    if (s[i] === ',') i++;
    else if (s[i] !== '}') throw new Error(`bad label list in: ${line}`);
  }
  return [labels, i + 1];
}

export function parsePrometheus(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const name = NAME.exec(line)?.[0];
    if (!name) throw new Error(`bad sample line: ${line}`);
    let labels: Record<string, string> = {};
    let i = name.length;
    if (line[i] === '{') [labels, i] = parseLabels(line, i, line);
    const rest = line.slice(i).trim().split(' ');
    if (rest.length < 1 || rest.length > 2) throw new Error(`bad value in: ${line}`);
    // As Prometheus reads it (Go's ParseFloat): NaN and Inf in any case (prom-client writes `Nan`).
    const raw = rest[0]!.toLowerCase();
    const value = raw === '+inf' || raw === 'inf' ? Infinity : raw === '-inf' ? -Infinity : raw === 'nan' ? NaN : Number(raw);
    if (Number.isNaN(value) && raw !== 'nan') throw new Error(`bad value in: ${line}`);
    out.push({ name, labels, value });
  }
  return out;
}

/** Sum of the samples named `name` whose labels include `match`. */
export function total(samples: Sample[], name: string, match: Record<string, string> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v)).reduce((a, s) => a + s.value, 0);
}

/** Every series as `name{k="v",…}` (labels sorted). */
export function seriesOf(samples: Sample[]): Set<string> {
  return new Set(samples.map((s) => `${s.name}{${Object.keys(s.labels).sort().map((k) => `${k}="${s.labels[k]}"`).join(',')}}`));
}

export const hasPromtool = spawnSync('promtool', ['--version']).status === 0;

/**
 * Prometheus's own parser and linter (`promtool check metrics`) over `text`: the problems it
 * reports, one per line ([] when clean). Throws when the text does not parse at all.
 */
export function promtoolProblems(text: string): string[] {
  const r = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 30_000 });
  const lines = `${r.stdout}${r.stderr}`.split('\n').filter(Boolean);
  if (r.status !== 0 && r.status !== 3) throw new Error(`promtool check metrics: ${lines.join('\n')}`);
  return lines;
}
