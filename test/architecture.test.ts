// The architecture rules of src/ (.dependency-cruiser.cjs): layers db ← domain ← services ←
// graphql ← rest ← http, no import cycles, the coding engine without a database, nothing from
// tools/, scripts/, bench/ or test/, no file the entry points do not reach. Type-only imports
// count. `npm run arch` prints the same report. Needs no database: runs once per suite run.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { projectRoot } from '../src/paths.ts';

describe('architecture of src/', () => {
  it('keeps every rule of .dependency-cruiser.cjs', async () => {
    const options = await extractDepcruiseOptions(path.join(projectRoot, '.dependency-cruiser.cjs'));
    const { output } = await cruise(['src'], { ...options, baseDir: projectRoot });
    const result = output as ICruiseResult;
    // One line per violation: rule, then the import (or the cycle, or the lone file).
    const violations = result.summary.violations.map((v) => {
      const where = v.cycle?.length ? [v.from, ...v.cycle.map((c) => c.name)].join(' → ') : v.from === v.to ? v.from : `${v.from} → ${v.to}`;
      return `${v.rule.name}: ${where}`;
    });
    expect(result.summary.totalCruised, 'the cruise found the sources').toBeGreaterThan(100);
    expect(violations).toEqual([]);
  });
});
