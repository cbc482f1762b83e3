// The architecture rules of the repository (.dependency-cruiser.cjs): layers db ← domain ←
// services ← transport ← graphql ← rest ← http (fhir beside graphql and rest), no import cycles in any
// folder, config at the bottom, the explorer only through the API, src ← tools ← scripts/bench ←
// test, the CLI at the top (nothing in src/ imports src/cli/), the coding engine without a database,
// no file the entry points do not reach. Type-only imports count. `npm run arch` prints the same report. Needs no database: runs once per suite run.
// Beside the import rules, one rule on calls (rangedModelCalls below): no Prisma model call on a
// table of release content outside src/importer/.
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

// Tables of release content (docs/storage.md): read through their `*_at(release)` SQL functions
// (prisma/migrations/20261126180000_release_read_functions), never as Prisma models, so that
// storing a row once for the releases it belongs to changes those functions and the importer
// only. The importer writes them and may use the models.
const RANGED_MODELS = ['concept', 'conceptName', 'hierarchyLink', 'hierarchyPath', 'smq', 'smqTerm', 'smqName', 'gradeDefinition'];
const MODEL_METHODS = [
  'findMany', 'findFirst', 'findFirstOrThrow', 'findUnique', 'findUniqueOrThrow', 'count', 'aggregate', 'groupBy',
  'create', 'createMany', 'createManyAndReturn', 'update', 'updateMany', 'updateManyAndReturn', 'upsert', 'delete', 'deleteMany',
];
const MODEL_CALL = new RegExp(`\\.\\s*(${RANGED_MODELS.join('|')})\\s*\\.\\s*(${MODEL_METHODS.join('|')})\\s*[(<]`, 'g');
// A function given a model's delegate by type (its calls then read `prisma.concept.findMany`).
const MODEL_PICK = new RegExp(`Pick<\\s*PrismaClient\\s*,[^>]*'(${RANGED_MODELS.join('|')})'`, 'g');
const SCANNED = ['src', 'tools', 'bench', 'scripts'];

/** `file:line: model.method` for every Prisma model call (or model picked by type) on a ranged table outside src/importer/ under `root`. */
function rangedModelCalls(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && rel !== 'src/generated' && rel !== 'src/importer') walk(rel);
      } else if (/\.(ts|mts|mjs|js)$/.test(e.name)) {
        const text = readFileSync(path.join(root, rel), 'utf8');
        for (const m of [...text.matchAll(MODEL_CALL), ...text.matchAll(MODEL_PICK)]) {
          const line = text.slice(0, m.index).split('\n').length;
          out.push(`${rel}:${line}: ${m[2] ? `${m[1]}.${m[2]}` : `Pick<PrismaClient, '${m[1]}'>`}`);
        }
      }
    }
  };
  for (const dir of SCANNED) walk(dir);
  return out.sort();
}

describe('architecture of the repository', () => {
  it('reads tables of release content through their *_at functions: no Prisma model call on them outside src/importer/', () => {
    expect(rangedModelCalls(projectRoot)).toEqual([]);
  });

  it('names every planted model call on a ranged table, and none in the importer or on other objects', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'te-ranged-'));
    try {
      const write = (file: string, text: string) => {
        mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        writeFileSync(path.join(root, file), text);
      };
      for (const dir of SCANNED) mkdirSync(path.join(root, dir), { recursive: true });
      write('src/domain/a.ts', [
        'const rows = await prisma.concept', '  .findMany({ where: { releaseId } });',
        'await tx.smqTerm.count();',
        "export async function f(db: Pick<PrismaClient, '$queryRawUnsafe' | 'gradeDefinition'>) {}",
        'await scope.loaders.concept.load(key);',
        'await prisma.release.findMany();',
      ].join('\n'));
      write('bench/b.ts', 'await db.prisma.hierarchyPath.groupBy({ by: ["socCode"] });\n');
      write('src/importer/c.ts', 'await tx.conceptName.deleteMany({ where });\n');
      write('src/generated/prisma/d.ts', 'client.concept.findMany();\n');
      expect(rangedModelCalls(root)).toEqual([
        'bench/b.ts:1: hierarchyPath.groupBy',
        'src/domain/a.ts:1: concept.findMany',
        'src/domain/a.ts:3: smqTerm.count',
        "src/domain/a.ts:4: Pick<PrismaClient, 'gradeDefinition'>",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

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
