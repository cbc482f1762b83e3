// A full `npm run bench` rewrites bench/results.md: its header and one table per mode are its
// own, every other section (written by bench/impact.ts, metrics.ts, cli.ts, languages.ts,
// manyReleases.ts) must come through unchanged. It used to keep only the sections it named,
// and dropped "Cost of the metrics" and "CLI start-up" (issue 32).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.ts';
import { keptSections, markdown, type Machine } from '../../bench/lib/report.ts';

const machine: Machine = { cpu: 'test cpu', cores: 2, memoryGb: 4, node: 'v0', platform: 'linux' };
const render = (previous: string) =>
  markdown({
    machine,
    date: '2026-01-01',
    command: 'npm run bench',
    quick: false,
    scale: 1,
    durations: '-',
    sourceDigest: 'x',
    data: '-',
    noise: '-',
    previous,
    wallS: 1,
    modes: [{ mode: 'embedded', rows: [{ id: 'rss', scenario: 'server RSS', measured: 'NEW FIGURE', target: '-', met: null }], errors: [], notes: [] }],
  });

describe('bench/results.md rewritten by a full run', () => {
  it('keeps every section of the other benchmarks, whole and in order, and replaces its own', () => {
    const previous = readFileSync(path.join(projectRoot, 'bench/results.md'), 'utf8');
    const others = previous.split(/\n(?=## )/).filter((s) => s.startsWith('## ') && !/^## (Embedded \(PGlite\)|PostgreSQL)\n/.test(s));
    // The sections the old list dropped are among them.
    expect(others.map((s) => s.split('\n', 1)[0])).toEqual(expect.arrayContaining([expect.stringMatching(/^## Cost of the metrics/), expect.stringMatching(/^## CLI start-up/), expect.stringMatching(/^## Impact analysis/), expect.stringMatching(/^## Many releases/)]));
    const out = render(previous);
    let at = -1;
    for (const s of others) {
      const i = out.indexOf(s.trimEnd());
      expect(i, s.split('\n', 1)[0]).toBeGreaterThan(at);
      at = i;
    }
    // Its own tables appear once each, with this run's figures; the previous mode tables are gone.
    expect(out.match(/^## Embedded \(PGlite\)$/gm)).toHaveLength(1);
    expect(out).not.toMatch(/^## PostgreSQL$/m);
    expect(out).toContain('NEW FIGURE');
    // Rewriting its own output keeps each section once: they do not pile up (only "last round" changes).
    const again = render(out);
    for (const s of others) expect(again.split(s.trimEnd()).length - 1, s.split('\n', 1)[0]).toBe(1);
    expect(again.match(/^## /gm)).toHaveLength(others.length + 1);
  });

  it('keeps a section it has never heard of, and nothing from an empty file', () => {
    const previous = '# Benchmark results\n\nold header\n\n## Embedded (PGlite)\n\n| a |\n\n### Noise and notes\n\n- x\n\n## Some future benchmark\n\ntext\n\n## PostgreSQL\n\n| b |\n';
    expect(keptSections(previous)).toEqual(['## Some future benchmark\n\ntext\n']);
    expect(keptSections(undefined)).toEqual([]);
    expect(keptSections('')).toEqual([]);
    expect(render(previous)).not.toContain('old header');
  });
});
