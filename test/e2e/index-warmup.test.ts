// Start-up with a persisted release index: the demo import writes each release's snapshot,
// so the server loads the latest release's index at once from it (one read), not after
// SEARCH_INDEX_WARM_DELAY_MS, and readiness probes keep answering meanwhile. The store is a
// copy of the suite's demo template, which that same demo import built (snapshots included).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { templatesReady } from '../setup/templates.ts';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { captureLogs } from '../helpers/http.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { startServer, type RunningServer } from '../../src/server.ts';

let server: RunningServer | undefined;
const dataDir = mkdtempSync(path.join(tmpdir(), 'warm-'));
// The demo template builds while the first files run: waited for in a hook, outside the test's
// timeout (on a loaded host the wait alone took the test's 60 s).
beforeAll(() => templatesReady(inject('templates')), 600_000);
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('release index warm-up', () => {
  it('loads the latest release index from its snapshot right after start, not after the delay', async () => {
    const logs = captureLogs();
    cpSync(inject('templates').dirs!.demo, dataDir, { recursive: true });
    const config = loadConfig({
      TERMINOLOGY_DATA_DIR: dataDir,
      TERMINOLOGY_DEMO: 'true',
      SEARCH_INDEX_WARM_DELAY_MS: '600000',
      NLP_WORKERS: '0',
      PORT: '0',
      HOST: '127.0.0.1',
    });
    server = await startServer(config, { log: createLogger('info', logs.stream), handleSignals: false });
    const ready = await fetch(`${server.url}/health/ready`);
    expect(ready.status).toBe(200);
    const deadline = Date.now() + 20_000;
    let line: Record<string, unknown> | undefined;
    while (!line && Date.now() < deadline) {
      line = logs.lines().find((l) => l.msg === 'release index ready');
      if (!line) await new Promise((r) => setTimeout(r, 50));
    }
    expect(line).toMatchObject({ source: 'snapshot' });
  }, 60_000);
});
