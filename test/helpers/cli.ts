// Runs the real `terminology` CLI in a child process against a test store.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { inject } from 'vitest';
import { templatesReady, type TemplateName } from '../setup/templates.ts';
import { CHILD_NODE_FLAGS } from '../setup/node-flags.ts';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../src/paths.ts';
import { createFreshPostgres, usingPostgres } from './db.ts';
import { CONFIG_VARIABLES } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { runCli } from '../../src/cli/index.ts';

export const BIN = path.join(projectRoot, 'bin', 'terminology.mjs');

export interface Store {
  env: Record<string, string>;
  /** PGlite data directory (embedded mode). */
  dataDir?: string;
  url?: string;
  cleanup(): Promise<void>;
}

/**
 * A store of its own for CLI and server processes, copied from the run's template (test/setup):
 * migrated and empty, or with the demo releases. A temporary PGlite directory, or a new
 * PostgreSQL database on the PostgreSQL pass.
 */
export async function freshStore(template: TemplateName = 'migrated'): Promise<Store> {
  const base = { TERMINOLOGY_DEMO: 'false', LOG_LEVEL: 'warn' };
  if (usingPostgres) {
    const pgdb = await createFreshPostgres(template);
    return { env: { ...base, DATABASE_URL: pgdb.url }, url: pgdb.url, cleanup: pgdb.drop };
  }
  await templatesReady(inject('templates'), template);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'te-cli-'));
  cpSync(inject('templates').dirs![template], dataDir, { recursive: true });
  return { env: { ...base, TERMINOLOGY_DATA_DIR: dataDir }, dataDir, cleanup: async () => rmSync(dataDir, { recursive: true, force: true }) };
}

/**
 * Opens a CLI test store in this process (no CLI process started: on the PGlite pass that saves
 * seconds of WebAssembly start), for checks of what CLI runs stored. An embedded store takes the
 * same process lock as the CLI, so no CLI process may be running on it meanwhile.
 */
export async function withStoreDb<T>(store: Store, fn: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase({ databaseUrl: store.url, dataDir: store.dataDir });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The test runner's own settings (CI exports REDIS_URL, say) never leak into a child: it sees exactly `env`. */
const NOT_INHERITED = new Set([...CONFIG_VARIABLES, 'TEST_DB', 'TEST_DATABASE_URL']);

export function childEnv(env: Record<string, string>): Record<string, string> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => !NOT_INHERITED.has(k) && v !== undefined)) as Record<string, string>;
  return { ...clean, ...env };
}

/**
 * `bin`: another checkout's bin/terminology.mjs (a benchmark's baseline), else this one's.
 * `shipped`: Node's own V8 settings, as a user runs it; otherwise CHILD_NODE_FLAGS (test/setup/node-flags.ts).
 */
export function start(args: string[], env: Record<string, string>, opts: { cwd?: string; bin?: string; shipped?: boolean } = {}): ChildProcess {
  const flags = opts.shipped || opts.bin ? [] : CHILD_NODE_FLAGS;
  return spawn(process.execPath, [...flags, opts.bin ?? BIN, ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'], cwd: opts.cwd });
}

/** Runs the CLI to completion; after timeoutMs it is killed, and the result shows what it printed. */
export function run(args: string[], env: Record<string, string>, timeoutMs = 45_000, opts: { cwd?: string } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const p = start(args, env, opts);
    const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.on('close', () => clearTimeout(timer));
    let stdout = '';
    let stderr = '';
    p.stdout!.on('data', (d) => (stdout += d));
    p.stderr!.on('data', (d) => (stderr += d));
    p.on('error', reject);
    p.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/**
 * The same command in this process (src/cli/index.ts runCli): the environment the child would
 * get, its output captured. For tests of what a command does and prints rather than of the
 * process boundary — each command keeps at least one test through a real process (run()) —
 * it saves a process start (on the PGlite pass, seconds of WebAssembly start each). An embedded
 * store takes this process's lock meanwhile, as withStoreDb does.
 */
export async function runHere(args: string[], env: Record<string, string>, opts: { cwd?: string; stdin?: string } = {}): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const cwd = opts.cwd ?? process.cwd();
  const code = await runCli(args, {
    env: childEnv(env),
    io: {
      out: (s) => void (stdout += s),
      err: (s) => void (stderr += s),
      progress: { isTTY: false, write: (s: string) => (stderr += s) },
      input: (file) => (file === '-' ? Readable.from([opts.stdin ?? '']) : createReadStream(path.resolve(cwd, file))),
      cwd,
    },
  });
  return { code, signal: null, stdout, stderr };
}
