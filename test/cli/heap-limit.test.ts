// `terminology serve` bounds V8's heap at half of MEMORY_BUDGET_MB (bin/heap-limit.mjs): Node
// reads --max-old-space-size only at start, so the command starts Node again with it — the same
// pid after process.execve (Node ≥ 22.15), else a child it watches over. The serving process
// reports its pid and heap limit in its "is listening" line. A wrapper killed with SIGKILL must
// not leave its server running; an operator's own limit (NODE_OPTIONS) is kept. SIGTERM through
// the command (a drain, exit 0) is test/e2e/shutdown.test.ts's; the default budget's limit is
// checked by test/shipped/memory-budget.test.ts. Two server starts: each costs seconds.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { freshStore } from '../helpers/cli.ts';
import { startServerProcess, type ServerProcess } from '../helpers/server.ts';

const started: ServerProcess[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) await s.stop();
});

async function serve(env: Record<string, string>): Promise<ServerProcess> {
  const store = await freshStore('demo');
  // The store's env quiets the logs; the "is listening" line (info) is what the helper reads.
  const server = await startServerProcess({ ...store.env, LOG_LEVEL: 'info', ...env }, 120_000);
  started.push(server);
  return server;
}

const alive = (pid: number) => existsSync(`/proc/${pid}`);
const wrapped = typeof (process as { execve?: unknown }).execve !== 'function';

describe('serve bounds V8 heap by MEMORY_BUDGET_MB', () => {
  it('half the budget (the young generation comes on top); a kill -9 of the command ends the server too', async () => {
    const server = await serve({ MEMORY_BUDGET_MB: '600' });
    expect(server.heapLimitMb).toBeGreaterThanOrEqual(300);
    expect(server.heapLimitMb).toBeLessThan(400);
    if (!wrapped) {
      expect(server.serverPid).toBe(server.child.pid);
      return;
    }
    expect(server.serverPid).not.toBe(server.child.pid);
    expect(alive(server.serverPid)).toBe(true);
    server.child.kill('SIGKILL');
    // The child sees its parent's IPC channel close and drains as on SIGTERM.
    const until = Date.now() + 20_000;
    while (alive(server.serverPid) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(alive(server.serverPid), 'server outlived its command').toBe(false);
  }, 180_000);

  it('SIGTERM to the command drains the server and exits 0; an operator-set limit is kept', async () => {
    const server = await serve({ NODE_OPTIONS: '--max-old-space-size=700' });
    expect(server.heapLimitMb).toBeGreaterThanOrEqual(700);
    // Nothing to restart for: the command is the server.
    expect(server.serverPid).toBe(server.child.pid);
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.logs()).toContain('"msg":"stopped"');
  }, 180_000);
});
