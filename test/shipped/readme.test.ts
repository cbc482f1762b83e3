// The README as a new user follows it: `npm start` (the shipped bundle, on the embedded
// store), the Quick start URLs, then the README's own shell blocks — the narrative endpoints'
// key step and the safety-data workflows' key and impact steps — extracted from README.md and
// run by bash exactly as written, while the server runs. The only edit: port 4000 becomes the
// test's port. `npx terminology …` runs from a scratch folder whose node_modules/.bin holds
// the checkout's `terminology`, as in a project that installed the package.
//
// While the embedded server owns the store, key management, `impact` and `releases` reach it
// through its control socket in the data directory (0600, in a 0700 folder); `import` is still
// refused, with a message naming it.
//
// Typed clients: the README's recipe for client developers — graphql-codegen against the running
// server's /graphql, openapi-typescript against its /openapi.json, a client file that tsc compiles
// and node runs — from the section's blocks as written, in a scratch ES-module project whose
// node_modules is the checkout's (the generators are its dev dependencies; no network here).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, childEnv, freshStore, run, type Store } from '../helpers/cli.ts';
import { usingPostgres } from '../helpers/db.ts';
import { miniSpec, writeFixture } from '../helpers/medascii.ts';
import { readmeSectionBlocks, readmeShellBlocks } from '../helpers/readme.ts';
import { projectRoot } from '../../src/paths.ts';

const block = (marker: string) => {
  const found = readmeShellBlocks().filter((b) => b.includes(marker));
  expect(found, `one README shell block containing ${marker}`).toHaveLength(1);
  return found[0]!;
};

let store: Store;
let server: ChildProcess | undefined;
let port = 0;
let log = '';
let work: string;

function bash(script: string, timeoutMs = 120_000, cwd = work): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn('bash', ['-e', '-o', 'pipefail', '-c', script.replaceAll('localhost:4000', `localhost:${port}`)], {
      cwd,
      env: childEnv({ TERMINOLOGY_DATA_DIR: store.dataDir!, PATH: process.env.PATH! }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Concatenated JSON documents (curl -s prints them back to back). */
function jsonDocuments(text: string): any[] {
  const docs: any[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') {
      if (depth++ === 0) start = i;
    } else if (ch === '}' && --depth === 0) docs.push(JSON.parse(text.slice(start, i + 1)));
  }
  return docs;
}

describe.skipIf(usingPostgres)('the README, followed as written, while `npm start` runs', () => {
  beforeAll(async () => {
    store = await freshStore('demo');
    work = mkdtempSync(path.join(tmpdir(), 'readme-'));
    mkdirSync(path.join(work, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(BIN, path.join(work, 'node_modules', '.bin', 'terminology'));
    // The Quick start's `npm start` (its `npm install` is what the suite's own setup ran).
    expect(block('npm start')).toMatch(/^npm install && npm start\s/);
    server = spawn('npm', ['start'], {
      cwd: projectRoot,
      env: childEnv({ PORT: '0', TERMINOLOGY_DATA_DIR: store.dataDir!, LOG_FORMAT: 'json' }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    server.stdout!.on('data', (d) => (log += d));
    server.stderr!.on('data', (d) => (log += d));
    const deadline = Date.now() + 90_000;
    while (!/"url":"http:\/\/127\.0\.0\.1:(\d+)"[^\n]*is listening/.test(log)) {
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`npm start did not listen:\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    port = Number(/"url":"http:\/\/127\.0\.0\.1:(\d+)"/.exec(log)![1]);
  }, 120_000);

  afterAll(async () => {
    if (server?.pid && server.exitCode === null) {
      const closed = new Promise((r) => server!.on('close', r));
      process.kill(-server.pid, 'SIGTERM');
      await closed;
    }
    await store?.cleanup();
  });

  it('Quick start: every URL of its table answers', async () => {
    const readme = readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
    const quick = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## Explorer'));
    const urls = [...quick.matchAll(/^\| (http:\/\/localhost:4000\/\S*) \|/gm)].map((m) => m[1]!.replace(':4000', `:${port}`));
    expect(urls.length).toBeGreaterThanOrEqual(4);
    for (const u of urls) expect((await fetch(u, { headers: { accept: 'text/html' } })).status, u).toBe(200);
  });

  it('the control socket is private: 0600 in a 0700 folder of the data directory', () => {
    const sock = path.join(store.dataDir!, 'run', 'control.sock');
    expect(statSync(sock).isSocket()).toBe(true);
    expect(statSync(sock).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(sock)).mode & 0o777).toBe(0o700);
  });

  it('the narrative endpoints’ block: the key is created and both calls answer with it', async () => {
    const r = await bash(block('keys create --name demo'));
    expect(r.stderr).toMatch(/created key /);
    expect(r.code).toBe(0);
    const docs = jsonDocuments(r.stdout);
    expect(docs.map((d) => d.code ?? 'ok')).toEqual(['ok', 'ok']);
    expect(docs[0].results.length).toBeGreaterThan(0);
    expect(docs[1].results.terminologyCodes.length).toBeGreaterThan(0);
  }, 120_000);

  it('the safety-data block: key, CSV upload, JSON upload and the local `terminology impact`', async () => {
    const r = await bash(block('keys create --name pv'));
    expect(r.code, r.stderr).toBe(0);
    const docs = jsonDocuments(r.stdout);
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ from: '5.0', to: '5.0.1', summary: { rowsValid: 1 } });
    const csv = readFileSync(path.join(work, 'impact.csv'), 'utf8');
    expect(csv).toMatch(/case-1/);
    expect(csv).toMatch(/case-2/);
    const local = JSON.parse(readFileSync(path.join(work, 'impact.json'), 'utf8'));
    expect(local).toMatchObject({ from: '5.0', to: '5.0.1', summary: { rowsUploaded: 2, rowsValid: 2 } });
    expect(r.stderr).toMatch(/impact 5\.0 → 5\.0\.1: 2 rows/);
  }, 120_000);

  it('keys list, releases and impact from stdin go through the server too; import is refused, naming the command', async () => {
    const env = { TERMINOLOGY_DATA_DIR: store.dataDir! };
    const keys = await run(['keys', 'list'], env, 30_000, { cwd: work });
    expect(keys.code, keys.stderr).toBe(0);
    expect(keys.stdout).toMatch(/\tdemo\t/);
    const releases = await run(['releases'], env, 30_000, { cwd: work });
    expect(releases.stdout).toMatch(/^5\.0\.1\t2025-06-01\tEnglish\tlatest$/m);
    const piped = await bash(`printf 'rowId,code\\nr1,10047848\\n' | npx terminology impact - --from 5.0 --to 5.0.1 --format json`);
    expect(piped.code, piped.stderr).toBe(0);
    expect(JSON.parse(piped.stdout).summary.rowsValid).toBe(1);
    const refused = await run(['import', writeFixture(miniSpec('9.9'))], env, 30_000, { cwd: work });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^terminology import was refused: The embedded database in .* is in use by another terminology process/);
    expect(existsSync(path.join(work, 'coded.csv'))).toBe(true);
  }, 120_000);
  it('Typed clients: the recipe as written — codegen against /graphql, openapi-typescript against /openapi.json, a client compiled and run', async () => {
    const blocks = readmeSectionBlocks('Typed clients');
    const dir = path.join(work, 'client');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
    symlinkSync(path.join(projectRoot, 'node_modules'), path.join(dir, 'node_modules'));
    const files = blocks.flatMap((b) => {
      const name = /\bfile=(\S+)/.exec(b.info)?.[1];
      return name ? [{ name, body: b.body }] : [];
    });
    expect(files.map((f) => f.name)).toEqual(['operations.graphql', 'codegen.yml', 'client.ts']);
    for (const f of files) writeFileSync(path.join(dir, f.name), f.body.replaceAll('localhost:4000', `localhost:${port}`));

    const [install, ...steps] = blocks.filter((b) => b.info === 'sh').map((b) => b.body);
    // The install line needs a registry: checked instead of run — it names exactly the versions pinned here.
    expect(install).toMatch(/^npm install --save-dev \S/);
    const pkg = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
    const pinned: Record<string, string> = { ...pkg.dependencies, ...pkg.devDependencies };
    const specs = install!.trim().split(/\s+/).slice(3);
    expect(specs.length).toBeGreaterThanOrEqual(5);
    for (const spec of specs) {
      const at = spec.lastIndexOf('@');
      expect(pinned[spec.slice(0, at)], spec).toBe(spec.slice(at + 1));
    }
    expect(steps).toHaveLength(2);
    const generated = await bash(steps[0]!, 180_000, dir);
    expect(generated.code, generated.stderr + generated.stdout).toBe(0);
    expect(readFileSync(path.join(dir, 'graphql.ts'), 'utf8')).toMatch(/export type CodeTermQuery = \{ code: \{ code: string, term: string, level: Level, status: CodeStatus, primarySocCode: string \| null \} \}/);
    expect(readFileSync(path.join(dir, 'api.d.ts'), 'utf8')).toMatch(/"\/codes\/\{code\}": \{/);
    const ran = await bash(steps[1]!, 180_000, dir);
    expect(ran.code, ran.stderr + ran.stdout).toBe(0);
    expect(ran.stdout).toMatch(/^10027787 .+ \(PT\); GraphQL: .+, primary SOC 100\d{5}$/m);

    // The generated types are real: a misuse of either is a compile error.
    writeFileSync(
      path.join(dir, 'misuse.ts'),
      [
        "import type { paths } from './api.js';",
        "import type { CodeTermQuery } from './graphql.js';",
        'declare const q: CodeTermQuery;',
        "declare const a: paths['/codes/{code}']['get']['responses'][200]['content']['application/json'];",
        'export const soc: number = q.code.primarySocCode;',
        'export const code: number = a.code;',
      ].join('\n'),
    );
    // The types only: ECMAScript's library and no ambient @types (the default library adds the DOM's,
    // ~2 s of CPU to parse for a check that uses none of it; the README's own tsc line keeps the default).
    const program = ts.createProgram([path.join(dir, 'misuse.ts')], {
      strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true,
      lib: ['lib.es2022.d.ts'], types: [],
    });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => `${d.start}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    expect(errors).toHaveLength(2);
    for (const e of errors) expect(e).toMatch(/is not assignable to type 'number'/);
  }, 300_000);
});
