// What a person sees after `npm start` in a terminal: one line saying where to go, and
// readable log lines. Run under a real pseudo-terminal (util-linux `script`), as a shell
// would run it; with output to a pipe the same command writes JSON lines (every other test).
// One server for the file — a first start on an empty store, as after `npm install` — whose
// terminal output both tests read: each process start costs seconds of WebAssembly start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, childEnv, freshStore, type Store } from '../helpers/cli.ts';
import { CHILD_NODE_FLAGS } from '../setup/node-flags.ts';

let store: Store;
let child: ChildProcess;
let closed: Promise<unknown>;
let out = '';

// Apart from the start below: the first files of a run wait here for the store templates.
beforeAll(async () => {
  store = await freshStore();
});

beforeAll(async () => {
  child = spawn('script', ['-qfec', [process.execPath, ...CHILD_NODE_FLAGS, BIN, 'serve'].join(' '), '/dev/null'], {
    env: childEnv({ PORT: '0', TERMINOLOGY_DATA_DIR: store.dataDir! }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  closed = new Promise((resolve) => child.on('close', resolve));
  // The demo import of a first start comes before the ready line (seconds on a loaded machine);
  // the whole line, which the first test reads.
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in 90 s:\n${out}`)), 90_000);
    child.stdout!.on('data', (d) => {
      out += d;
      if (/Terminology Explorer is ready[^\n]*\n/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before it was ready:\n${out}`));
    });
  });
}, 120_000);

afterAll(async () => {
  child?.kill('SIGTERM');
  await closed;
  await store?.cleanup();
});

describe('npm start on a terminal', () => {
  it('prints the URLs in one line and pretty log lines, not JSON', async () => {
    expect(out).toMatch(/Terminology Explorer is ready: explorer http:\/\/localhost:\d+\/ · GraphiQL http:\/\/localhost:\d+\/graphql · REST docs http:\/\/localhost:\d+\/docs · health http:\/\/localhost:\d+\/health\/ready/);
    expect(out).toMatch(/INFO.*Terminology Explorer is listening/);
    expect(out).not.toContain('"level":30');
    const port = /localhost:(\d+)\/graphql/.exec(out)![1];
    expect((await fetch(`http://127.0.0.1:${port}/health/live`)).status).toBe(200);
  });

  it('on a first start, says that it imports the demo releases before it is ready', () => {
    const says = out.indexOf('First start: importing the demo releases 4.03, 5.0, 5.0.1 into the empty store');
    expect(says).toBeGreaterThan(-1);
    expect(says).toBeLessThan(out.indexOf('Terminology Explorer is ready'));
  });
});
