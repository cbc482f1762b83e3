// The architecture rules of the repository (.dependency-cruiser.cjs): layers db ← domain ←
// services ← transport ← graphql ← rest ← http (fhir beside graphql and rest), no import cycles in any
// folder, config at the bottom, the explorer only through the API, src ← tools ← scripts/bench ←
// test, the CLI at the top (nothing in src/ imports src/cli/), the coding engine without a database,
// no file the entry points do not reach. Type-only imports count. `npm run arch` prints the same report. Needs no database: runs once per suite run.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { projectRoot } from '../src/paths.ts';

const FOLDERS = ['src', 'web/src', 'tools', 'bench', 'scripts', 'test'];

/** One line per violation of the repository's rules under `root`: rule, then the import (or the cycle, or the lone file). */
async function violationsIn(root: string): Promise<{ cruised: number; violations: string[] }> {
  const options = await extractDepcruiseOptions(path.join(projectRoot, '.dependency-cruiser.cjs'));
  const { output } = await cruise(FOLDERS, { ...options, baseDir: root });
  const result = output as ICruiseResult;
  const violations = result.summary.violations.map((v) => {
    const where = v.cycle?.length ? [v.from, ...v.cycle.map((c) => c.name)].join(' → ') : v.from === v.to ? v.from : `${v.from} → ${v.to}`;
    return `${v.rule.name}: ${where}`;
  });
  return { cruised: result.summary.totalCruised, violations };
}

describe('architecture of the repository', () => {
  it('keeps every rule of .dependency-cruiser.cjs', async () => {
    const { cruised, violations } = await violationsIn(projectRoot);
    expect(cruised, 'the cruise found the sources').toBeGreaterThan(300);
    expect(violations).toEqual([]);
  });

  describe('on a planted fixture', () => {
    // A throwaway repository of the same shape: a cycle in every folder and an upward import
    // between each pair of neighbouring layers. The rules must name every one of them.
    const root = mkdtempSync(path.join(tmpdir(), 'te-arch-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    };
    write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true, noEmit: true } }));
    for (const folder of FOLDERS) {
      write(`${folder}/cycle/a.ts`, "import { b } from './b.ts';\nexport const a = () => b();\n");
      write(`${folder}/cycle/b.ts`, "import { a } from './a.ts';\nexport const b = (): unknown => a;\n");
    }
    // Each layer importing the one above it (and config importing a layer).
    const upward: [string, string][] = [
      ['src/db/x.ts', 'src/domain/x.ts'],
      ['src/domain/x.ts', 'src/services/x.ts'],
      ['src/services/x.ts', 'src/transport/x.ts'],
      ['src/transport/y.ts', 'src/graphql/x.ts'],
      ['src/graphql/x.ts', 'src/rest/x.ts'],
      ['src/rest/x.ts', 'src/http/x.ts'],
      ['src/services/y.ts', 'src/fhir/x.ts'],
      ['src/fhir/x.ts', 'src/rest/y.ts'],
      ['src/fhir/y.ts', 'src/graphql/y.ts'],
      ['src/fhir/z.ts', 'src/http/y.ts'],
      ['src/config.ts', 'src/services/z.ts'],
      ['src/assessment/x.ts', 'src/importer/x.ts'],
      ['src/server.ts', 'src/cli/x.ts'],
      ['tools/x.ts', 'scripts/x.ts'],
      ['bench/x.ts', 'test/x.ts'],
      ['web/src/x.ts', 'src/domain/y.ts'],
      ['src/runtime/x.ts', 'src/db/y.ts'],
      ['src/observability/x.ts', 'src/graphql/z.ts'],
      ['src/observability/y.ts', 'src/services/w.ts'],
    ];
    for (const [from, to] of upward) {
      write(to, 'export const x = 1;\n');
      write(from, `import { x } from '${path.relative(path.dirname(from), to).replace(/^(?!\.)/, './')}';\nexport const y = x;\n`);
    }

    // One cruise of the fixture for both checks (a cruise takes seconds).
    let planted: Promise<{ violations: string[] }> | undefined;
    const plantedViolations = () => (planted ??= violationsIn(root));

    it('names a cycle in every folder', async () => {
      const { violations } = await plantedViolations();
      for (const folder of FOLDERS) expect(violations).toContain(`no-circular: ${folder}/cycle/a.ts → ${folder}/cycle/b.ts → ${folder}/cycle/a.ts`);
    });

    it('names every upward import', async () => {
      const { violations } = await plantedViolations();
      for (const [from, to] of upward) expect(violations.some((v) => v.endsWith(`: ${from} → ${to}`)), `${from} → ${to} in\n${violations.join('\n')}`).toBe(true);
    });
  });
});
