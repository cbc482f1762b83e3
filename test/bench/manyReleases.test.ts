// Keeps the "many releases" benchmark scenario (bench/manyReleases.ts, issue 32) working: on
// the smallest data (3 releases at scale 0.01, two languages each) it must import every release
// with the real CLI, start the real server and report every row with figures, on PGlite and,
// when TEST_DATABASE_URL is set, on PostgreSQL too. Its targets are not checked here: figures
// come from full runs written to bench/results.md, never from timed tests.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../src/paths.ts';
import { replaceSection } from '../../bench/manyReleases.ts';

const ROWS = ['storage', 'import', 'index-snapshot', 'first-request', 'lookup', 'search', 'changes', 'rss', 'rss-all-indexed'];

describe('benchmark scenario "many releases"', () => {
  it('imports every release and reports every row, on each database', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-many-test-'));
    const json = path.join(dir, 'many.json');
    const md = path.join(dir, 'results.md');
    // An existing results file keeps its other sections; this scenario's section is added.
    writeFileSync(md, '# Benchmark results\n\n## Embedded (PGlite)\n\nearlier figures\n');
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['DATABASE_URL', 'TEST_DB', 'TERMINOLOGY_DATA_DIR', 'REDIS_URL'].includes(k)));
    if (process.env.TEST_DATABASE_URL) env.DATABASE_URL = process.env.TEST_DATABASE_URL;
    const args = ['--import', 'tsx', 'bench/run.ts', '--scenario', 'many-releases', '--releases', '3', '--scale', '0.01', '--loop', '20', '--out', md, '--json', json];
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, args, { cwd: projectRoot, env, timeout: 540_000, maxBuffer: 16 * 1024 * 1024 }, (err, _stdout, stderr) =>
        err ? reject(new Error(`many-releases failed: ${err.message}\n${stderr.slice(-3000)}`)) : resolve(),
      ),
    );
    const report = JSON.parse(readFileSync(json, 'utf8')) as { versions: string[]; modes: { mode: string; errors: string[]; rows: { id: string; measured: string; values?: unknown }[]; raw: { imports: { version: string; primaryS: number; secondS?: number; storageBytes: number; phases: Record<string, number> }[]; alone: { version: string; primaryS: number; secondS?: number; storageBytes: number } } }[] };
    expect(report.versions).toEqual(['90.0', '90.1', '90.2']);
    expect(report.modes.map((m) => m.mode)).toEqual(process.env.TEST_DATABASE_URL ? ['embedded', 'postgresql'] : ['embedded']);
    for (const m of report.modes) {
      expect(m.errors, m.mode).toEqual([]);
      expect(m.rows.map((r) => r.id), m.mode).toEqual(ROWS);
      expect(m.rows.every((r) => /\d/.test(r.measured)), m.mode).toBe(true);
      // The server's own memory, not that of bin/heap-limit.mjs's ~40 MB wrapper (Node 20 runs
      // the server as its child): a server with its database client is well over 80 MB.
      const rss = m.rows.find((r) => r.id === 'rss')!.values as { startRss: number; rssMb: number };
      expect(rss.startRss, m.mode).toBeGreaterThan(80);
      expect(rss.rssMb, m.mode).toBeGreaterThan(80);
      // Every release imported in both languages, and each one took space.
      expect(m.raw.imports.map((i) => i.version)).toEqual(report.versions);
      for (const i of m.raw.imports) {
        expect(i.primaryS, `${m.mode} ${i.version}`).toBeGreaterThan(0);
        expect(i.secondS, `${m.mode} ${i.version}`).toBeGreaterThan(0);
        // Where the import's time went, from the CLI's own progress lines.
        expect(Object.keys(i.phases), `${m.mode} ${i.version}`).toEqual(expect.arrayContaining(['read+validate', 'write', 'changes', 'commit']));
      }
      const bytes = m.raw.imports.map((i) => i.storageBytes);
      expect(bytes[0]).toBeGreaterThan(0);
      expect(bytes[2]).toBeGreaterThan(bytes[0]!);
      // The baseline: the last release imported alone into a fresh store, in both languages; it
      // takes less room than the three releases together and more than none.
      expect(m.raw.alone.version).toBe('90.2');
      expect(m.raw.alone.primaryS).toBeGreaterThan(0);
      expect(m.raw.alone.secondS).toBeGreaterThan(0);
      expect(m.raw.alone.storageBytes).toBeGreaterThan(0);
      expect(m.raw.alone.storageBytes).toBeLessThan(bytes[2]!);
      // The first → last change set was computed from two non-neighbour releases.
      const changes = m.rows.find((r) => r.id === 'changes')!.values as { counts: { added: number } };
      expect(changes.counts.added).toBeGreaterThan(0);
    }
    const text = readFileSync(md, 'utf8');
    expect(text).toContain('earlier figures');
    expect(text).toContain('## Many releases (bench/manyReleases.ts, issue 32)');
  }, 600_000);

  it('replaces its own section and its own subsections, keeping the others and every other section', () => {
    const old = [
      '# Benchmark results', '', '## Before', 'kept', '',
      '## Many releases (bench/manyReleases.ts, issue 32)', 'old figures', '',
      '### Embedded (PGlite)', 'old table', '',
      '### Ranged storage (issue 32 step 4, milestone B), small scale', 'a round written by hand', '',
      '## After', 'also kept', '',
    ].join('\n');
    const section = ['## Many releases (bench/manyReleases.ts, issue 32)', 'new figures', '', '### Embedded (PGlite)', 'new table'].join('\n');
    const out = replaceSection(old, section);
    expect(out).toContain('new figures');
    expect(out).toContain('new table');
    expect(out).not.toContain('old figures');
    expect(out).not.toContain('old table');
    expect(out).toContain('a round written by hand');
    expect(out.indexOf('new table')).toBeLessThan(out.indexOf('a round written by hand'));
    expect(out.indexOf('a round written by hand')).toBeLessThan(out.indexOf('## After'));
    expect(out.match(/### Embedded \(PGlite\)/g)).toHaveLength(1);
    expect(out).toContain('## Before\nkept');
    // No section yet: appended.
    expect(replaceSection('# Benchmark results\n', section)).toBe('# Benchmark results\n\n' + section + '\n');
  });
});
