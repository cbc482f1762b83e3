// A part of the run's setup that builds while test files run (global.ts) says it is done by a
// `ready` file: `ok`, or why it could not be built. A test file waits for the parts it uses.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

/** Written whole (renamed into place): a waiter never reads half of it. */
export function writeReady(file: string, state: string): void {
  writeFileSync(`${file}.tmp`, state);
  renameSync(`${file}.tmp`, file);
}

/** Milliseconds this process waited in waitReady since the last takeWaited(). */
let waited = 0;

/** The time waited for setup since the last call (wait-templates.ts: a file's, its own hooks' waits included). */
export function takeWaited(): number {
  const ms = waited;
  waited = 0;
  return ms;
}

/** Waits until `file` is written; throws with its text if that is not `ok`. */
export async function waitReady(file: string, what: string, timeoutMs = 600_000): Promise<void> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${what} not built within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  waited += Date.now() - started;
  const state = readFileSync(file, 'utf8');
  if (state !== 'ok') throw new Error(`building ${what} failed:\n${state}`);
}
