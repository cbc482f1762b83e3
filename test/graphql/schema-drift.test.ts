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

  it('src/rest/operations/generated.ts and web/src/operations/generated.ts match codegen output (run `npm run codegen`)', async () => {
    // The CLI in a child process: codegen and vitest must not share one graphql module instance.
    // Both targets into a temporary folder: the checked-in files are never rewritten by a test.
    const dir = mkdtempSync(path.join(tmpdir(), 'codegen-'));
    const cli = path.join(projectRoot, 'node_modules', '@graphql-codegen', 'cli', 'cjs', 'bin.js');
    execFileSync(process.execPath, [cli, '--config', 'codegen.ts', '--silent'], {
      cwd: projectRoot,
      env: { ...process.env, CODEGEN_OUTPUT: path.join(dir, 'rest.ts'), CODEGEN_WEB_OUTPUT: path.join(dir, 'web.ts') },
      stdio: 'pipe',
    });
    expect(readFileSync(path.join(dir, 'rest.ts'), 'utf8')).toBe(readFileSync(path.join(projectRoot, 'src/rest/operations/generated.ts'), 'utf8'));
    expect(readFileSync(path.join(dir, 'web.ts'), 'utf8')).toBe(readFileSync(path.join(projectRoot, 'web/src/operations/generated.ts'), 'utf8'));
  });
});
