// One browser test file's setup: the built explorer, the test app behind a real listener, an API
// key, one Chromium; pages opened with everything that goes wrong in them recorded; axe-core
// checks and screenshots.
import { afterAll, beforeAll, expect } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { listen } from '../helpers/http.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';
import { projectRoot } from '../../src/paths.ts';
import { buildExplorer } from './build.ts';

export const SHOTS = path.join(projectRoot, 'test-results', 'screenshots');
/**
 * Screenshots are for people (the README's pictures are copies), not assertions: a full-page PNG
 * is ~0.3 s of Chromium's CPU, some 30 of them per run, so they are taken only on request
 * (`TE_SCREENSHOTS=1 npx vitest run test/web`). What they show is checked anyway: axe-core, the
 * 360 px overflow and the page's own assertions render the same pages.
 */
export const SCREENSHOTS = process.env.TE_SCREENSHOTS === '1';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Watched {
  page: Page;
  /** Console errors, CSP violations, failed requests and page errors seen so far. */
  problems: string[];
}

export function explorerSession(keyName: string, ready: (s: { t: TestApp; base: string; key: string }) => void) {
  let t: TestApp | undefined;
  let base = '';
  let close: (() => Promise<void>) | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    buildExplorer();
    mkdirSync(SHOTS, { recursive: true });
    [t, browser] = await Promise.all([createTestApp(), launchBrowser()]);
    ({ url: base, close } = await listen(t.app));
    ready({ t, base, key: (await createApiKey(t.db.prisma, keyName)).key });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await close?.();
    await t?.cleanup();
  });

  /**
   * `locale` sets the browser's language (navigator.languages, Accept-Language); en-US unless
   * given, so the interface's words the tests read are English whatever the machine's locale.
   */
  async function open(url: string, width = 1280, colorScheme: 'light' | 'dark' = 'light', locale = 'en-US'): Promise<Watched> {
    const context = await browser!.newContext({ viewport: { width, height: width < 600 ? 800 : 900 }, acceptDownloads: true, colorScheme, locale });
    contexts.push(context);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    // A request the page itself gave up on (navigating away, or a newer view aborting an older
    // fetch) fails with net::ERR_ABORTED: that is the explorer working, not a fault.
    page.on('requestfailed', (r) => {
      const reason = r.failure()?.errorText ?? 'unknown';
      if (!reason.includes('ERR_ABORTED')) problems.push(`failed: ${r.url()} (${reason})`);
    });
    page.on('request', (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) problems.push(`external: ${r.url()}`);
    });
    await page.goto(`${base}${url}`, { waitUntil: 'load' });
    return { page, problems };
  }

  /** axe-core in the page: no serious or critical violation. */
  async function axe(page: Page, name: string): Promise<void> {
    // Evaluated through the DevTools protocol, which the page's CSP does not govern; once per
    // document (a page audited at two widths in place keeps it).
    if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const r = await (globalThis as any).axe.run(document, { resultTypes: ['violations'] });
      return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n: any) => n.target.join(' ')).slice(0, 3) }));
    });
    const bad = violations.filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad, `${name}: ${JSON.stringify(bad, null, 1)}`).toEqual([]);
  }

  async function shoot(page: Page, name: string): Promise<void> {
    if (!SCREENSHOTS) return;
    await page.screenshot({ path: path.join(SHOTS, `${name}-${page.viewportSize()!.width}.png`), fullPage: true });
  }

  return { open, axe, shoot };
}
