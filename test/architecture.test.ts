// The architecture rules of the repository (.dependency-cruiser.cjs): layers db ← domain ←
// services ← graphql ← rest ← http, no import cycles in any folder, config at the bottom, the
// explorer only through the API, src ← tools ← scripts/bench ← test, the coding engine without
// a database, no file the entry points do not reach. Type-only imports
// count. `npm run arch` prints the same report. Needs no database: runs once per suite run.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { projectRoot } from '../src/paths.ts';

describe('architecture of the repository', () => {
  it('keeps every rule of .dependency-cruiser.cjs', async () => {
    const options = await extractDepcruiseOptions(path.join(projectRoot, '.dependency-cruiser.cjs'));
    const { output } = await cruise(['src', 'web/src', 'tools', 'bench', 'scripts', 'test'], { ...options, baseDir: projectRoot });
    const result = output as ICruiseResult;
    // One line per violation: rule, then the import (or the cycle, or the lone file).
    const violations = result.summary.violations.map((v) => {
      const where = v.cycle?.length ? [v.from, ...v.cycle.map((c) => c.name)].join(' → ') : v.from === v.to ? v.from : `${v.from} → ${v.to}`;
      return `${v.rule.name}: ${where}`;
    });
    expect(result.summary.totalCruised, 'the cruise found the sources').toBeGreaterThan(300);
    expect(violations).toEqual([]);
  });
});
