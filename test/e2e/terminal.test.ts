// What a person sees after `npm start` in a terminal: one line saying where to go, and
// readable log lines. Run under a real pseudo-terminal (util-linux `script`), as a shell
// would run it; with output to a pipe the same command writes JSON lines (every other test).
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { BIN, childEnv, freshStore } from '../helpers/cli.ts';

describe('npm start on a terminal', () => {
  it('prints the URLs in one line and pretty log lines, not JSON', async () => {
    const store = await freshStore();
    const child = spawn('script', ['-qfec', `${process.execPath} ${BIN} serve`, '/dev/null'], {
      env: childEnv({ PORT: '0', TERMINOLOGY_DATA_DIR: store.dataDir!, TERMINOLOGY_DEMO: 'false' }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const closed = new Promise((resolve) => child.on('close', resolve));
    try {
      await expect.poll(() => out, { timeout: 60_000, interval: 100 }).toMatch(/Terminology Explorer is ready: explorer http:\/\/localhost:\d+\/ · GraphiQL http:\/\/localhost:\d+\/graphql · REST docs http:\/\/localhost:\d+\/docs · health http:\/\/localhost:\d+\/health\/ready/);
      expect(out).toMatch(/INFO.*Terminology Explorer is listening/);
      expect(out).not.toContain('"level":30');
      const port = /localhost:(\d+)\/graphql/.exec(out)![1];
      expect((await fetch(`http://127.0.0.1:${port}/health/live`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await closed;
    }
  }, 90_000);

  it('on a first start, says that it imports the demo releases before it is ready', async () => {
    const store = await freshStore();
    const child = spawn('script', ['-qfec', `${process.execPath} ${BIN} serve`, '/dev/null'], {
      env: childEnv({ PORT: '0', TERMINOLOGY_DATA_DIR: store.dataDir! }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const closed = new Promise((resolve) => child.on('close', resolve));
    try {
      await expect.poll(() => out, { timeout: 90_000, interval: 100 }).toContain('Terminology Explorer is ready');
      const says = out.indexOf('First start: importing the demo releases 4.03, 5.0, 5.0.1 into the empty store');
      expect(says).toBeGreaterThan(-1);
      expect(says).toBeLessThan(out.indexOf('Terminology Explorer is ready'));
    } finally {
      child.kill('SIGTERM');
      await closed;
      await store.cleanup();
    }
  }, 120_000);
});
