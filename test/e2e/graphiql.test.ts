// End to end in a real browser: the Chromium shipped in an npm package (driven by
// playwright-core) opens GraphiQL at /graphql, runs a hierarchy query and sees the result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { listen } from '../helpers/http.ts';
import { launchBrowser } from '../helpers/browser.ts';

let t: TestApp;
let base: string;
let close: () => Promise<void>;
let browser: Browser;

beforeAll(async () => {
  t = await createTestApp({ readOnly: true });
  ({ url: base, close } = await listen(t.app));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await close?.();
  await t?.cleanup();
});

describe('GraphiQL in a browser', () => {
  it('loads offline, runs the SOC subtree query and shows the hierarchy', async () => {
    // A tall window: the result editor only renders the lines in view.
    const page = await browser.newPage({ viewport: { width: 1400, height: 2400 } });
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    await page.goto(`${base}/graphql`, { waitUntil: 'load' });
    await page.waitForSelector('.graphiql-container', { timeout: 30_000 });
    // The default query is the GI SOC's subtree; run it with the toolbar button.
    const response = page.waitForResponse((r) => r.url().startsWith(`${base}/graphql`) && r.request().method() === 'POST' && (r.request().postData() ?? '').includes('SocTree'));
    await page.click('.graphiql-execute-button');
    const body = await (await response).json();
    expect(body.errors).toBeUndefined();
    expect(body.data.code.term).toBe('Gastrointestinal disorders');
    expect(body.data.code.children.length).toBeGreaterThan(1);
    const result = page.locator('.graphiql-response');
    // The editor renders spaces as no-break spaces; compare on normalised text.
    const shown = async () => ((await result.textContent()) ?? '').replace(/\s+/g, ' ');
    await expect.poll(shown, { timeout: 30_000 }).toContain('Gastrointestinal disorders');
    const text = await shown();
    expect(text).toContain('Anal and rectal conditions');
    expect(failed.filter((u) => u.startsWith(base))).toEqual([]);
    await page.screenshot({ path: 'test/e2e/.graphiql.png' }).catch(() => {});
    await page.close();
  });

  it('serves the REST reference at /docs', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/docs`, { waitUntil: 'load' });
    await page.waitForSelector('.swagger-ui .opblock', { timeout: 30_000 });
    const text = (await page.locator('#swagger-ui').textContent()) ?? '';
    expect(text).toContain('/codes/{code}');
    expect(text).toContain('/versions');
    await page.close();
  });
});
