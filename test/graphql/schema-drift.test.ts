// schema.graphql and the generated REST operation types are checked in; a schema
// change that is not regenerated fails here (snapshots are never written in CI).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { printSortedSchema } from '../../src/graphql/schema.ts';
import { projectRoot } from '../../src/paths.ts';

describe('checked-in GraphQL artefacts', () => {
  it('schema.graphql is the sorted print of the Pothos schema (run `npm run schema:print`)', async () => {
    await expect(`${printSortedSchema()}\n`).toMatchFileSnapshot(path.join(projectRoot, 'schema.graphql'));
  });

  it('src/rest/operations/generated.ts matches codegen output (run `npm run codegen`)', async () => {
    // The CLI in a child process: codegen and vitest must not share one graphql module instance.
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'codegen-')), 'generated.ts');
    const cli = path.join(projectRoot, 'node_modules', '@graphql-codegen', 'cli', 'cjs', 'bin.js');
    execFileSync(process.execPath, [cli, '--config', 'codegen.ts', '--silent'], { cwd: projectRoot, env: { ...process.env, CODEGEN_OUTPUT: out }, stdio: 'pipe' });
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(path.join(projectRoot, 'src/rest/operations/generated.ts'), 'utf8'));
  });
});
