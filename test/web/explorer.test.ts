// The explorer in a real Chromium (playwright-core + @sparticuz/chromium) against the app over
// a real socket on the demo releases: search → code → tree → history; compare releases and
// download the CSV; the workbench with an API key; deep links; keyboard-only use; axe-core on
// every page (no serious or critical violation); screenshots at 1280 and 360 px (with TE_SCREENSHOTS=1: session.ts); the first
// meaningful paint of a code page. One browser and one server for the file.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { AI_NOTICE } from '../../src/assessment/notice.ts';
import { explorerSession } from './session.ts';

let base: string;
let key: string;
const { open, axe, shoot } = explorerSession('explorer-tests', (s) => ({ base, key } = s));

/** Accessibility and screenshots of the page as it is, at desktop and 360 px (and dark, when asked). */
async function audit(page: Page, name: string, opts: { dark?: boolean } = {}): Promise<void> {
  if (opts.dark) {
    // Dark is the stylesheet's alone (prefers-color-scheme; no script reads it): the same page
    // switched in place is what a fresh load in dark renders, without a second load of it.
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(15, 20, 25)');
    await axe(page, `${name} (dark)`);
    await shoot(page, `${name}-dark`);
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgb(15, 20, 25)');
  }
  await axe(page, `${name} (desktop)`);
  await shoot(page, name);
  const url = page.url();
  const narrow = await open(url.slice(base.length), 360);
  await narrow.page.waitForSelector('main h1, main h2', { timeout: 15_000 });
  await narrow.page.waitForLoadState('networkidle');
  await axe(narrow.page, `${name} (360 px)`);
  // Nothing wider than the screen at 360 px (tables scroll inside their own region).
  const overflow = await narrow.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} overflows at 360 px`).toBeLessThanOrEqual(0);
  await shoot(narrow.page, name);
  expect(narrow.problems).toEqual([]);
  await narrow.page.context().close();
}

/** axe and the 360 px check on the page as it is, resized in place (its state is not in the URL). */
async function auditInPlace(page: Page, name: string): Promise<void> {
  await axe(page, `${name} (desktop)`);
  await shoot(page, name);
  await page.setViewportSize({ width: 360, height: 800 });
  await axe(page, `${name} (360 px)`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} overflows at 360 px`).toBeLessThanOrEqual(0);
  await shoot(page, name);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** expect.poll with room for a busy machine (two cores shared with other work). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 50 });

const treeItem = (page: Page, name: string) => page.locator('[role=treeitem]', { has: page.locator(':scope > .row .label', { hasText: new RegExp(`^${name}$`) }) }).first();

describe('explorer in a browser', () => {
  it('search → open code → tree expanded to its primary path → history', async () => {
    const { page, problems } = await open('/');
    await page.waitForSelector('[role=tree] [role=treeitem]');
    // The start page sums up the latest release.
    await poll(() => page.locator('.summary').textContent()).toContain('Since 5.0: 19 added, 31 updated, 3 retired');
    await audit(page, 'home');
    const input = page.getByRole('combobox', { name: 'Term, synonym or code' });
    await input.fill('allergic rhin');
    const option = page.locator('#search-results [role=option]').filter({ hasText: 'Allergic rhinitis' }).first();
    await option.waitFor();
    expect(await page.locator('.count').textContent()).toMatch(/\d+ results?/);
    // The matched name highlighted, the level as text, the primary path shown.
    expect(await option.locator('mark').first().textContent()).toMatch(/allergic rhin/i);
    expect(await option.locator('.badge').first().textContent()).toBe('PT');
    expect(await option.locator('.path').textContent()).toContain('›');
    await poll(() => new URL(page.url()).searchParams.get('q')).toBe('allergic rhin');
    await audit(page, 'search');
    await option.click();

    await page.getByRole('heading', { level: 1, name: 'Allergic rhinitis' }).waitFor();
    expect(new URL(page.url()).searchParams.get('code')).toBe('10001723');
    // Multiaxial: several paths, the primary one marked.
    const paths = page.locator('.paths > li');
    expect(await paths.count()).toBeGreaterThan(1);
    expect(await paths.first().locator('.badge.primary').textContent()).toBe('primary');
    const primary = (await paths.first().locator('.trail a').allTextContents()).map((s) => s.replace(/^(SOC|HLGT|HLT|PT|LLT) /, ''));
    // The tree opens itself down the primary path and selects the code.
    const selected = page.locator('[role=treeitem][aria-selected=true]');
    await poll(async () => (await selected.count()) === 1 && (await selected.locator(':scope > .row .label').textContent())).toBe('Allergic rhinitis');
    expect(await selected.getAttribute('aria-level')).toBe(String(primary.length));
    for (const name of primary.slice(0, -1)) expect(await treeItem(page, name).getAttribute('aria-expanded'), name).toBe('true');
    await audit(page, 'code', { dark: true });

    await page.getByRole('link', { name: /^History/ }).click();
    await page.getByRole('heading', { name: 'History across releases' }).waitFor();
    const timeline = page.locator('.timeline > li');
    expect(await timeline.count()).toBe(3);
    expect(await timeline.last().textContent()).toContain('Primary SOC moved');
    expect(new URL(page.url()).searchParams.get('tab')).toBe('history');
    await audit(page, 'history');
    // Back returns to the overview.
    await page.goBack();
    await page.getByRole('heading', { name: /^Paths/ }).waitFor();
    expect(problems).toEqual([]);
  });

  it('a deep link reproduces the view; the release switcher changes it; first meaningful paint', async () => {
    const url = '/?code=10001723&path=10021428.90100014.90200027.10001723&v=5.0';
    const { page, problems } = await open(url);
    await page.getByRole('heading', { level: 1, name: 'Allergic rhinitis' }).waitFor();
    const measure = () =>
      page.evaluate(() => ({
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Infinity,
        content: performance.getEntriesByName('explorer:code-page')[0]?.startTime ?? Infinity,
      }));
    let timing = await measure();
    console.info(`code page: first contentful paint ${timing.fcp.toFixed(0)} ms, code rendered ${timing.content.toFixed(0)} ms`);
    if (timing.content > 1000) {
      // One retry on a busy machine: the goal is the code on screen within 1 s, not a benchmark.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Allergic rhinitis' }).waitFor();
      timing = await measure();
      console.info(`code page (reload): first contentful paint ${timing.fcp.toFixed(0)} ms, code rendered ${timing.content.toFixed(0)} ms`);
    }
    expect(timing.fcp).toBeLessThan(1000);
    expect(timing.content).toBeLessThan(1000);
    // The path in the link (a secondary one in 5.0, through Immune system disorders) is the one opened.
    const selected = page.locator('[role=treeitem][aria-selected=true]');
    await poll(async () => (await selected.count()) === 1 && (await selected.locator(':scope > .row .label').textContent())).toBe('Allergic rhinitis');
    expect(await page.locator('#tree-10021428').getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('#tree-10038738').getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('#release-switcher').inputValue()).toBe('5.0');
    expect(await page.locator('.code-head').textContent()).toContain('Release 5.0');
    await page.selectOption('#release-switcher', '5.0.1');
    await poll(() => page.locator('.code-head').textContent()).toContain('Release 5.0.1');
    expect(new URL(page.url()).searchParams.get('v')).toBeNull();
    await page.goBack();
    await poll(() => page.locator('.code-head').textContent()).toContain('Release 5.0');
    // An unknown code: a readable error with the request id.
    await page.goto(`${base}/?code=99999999`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/CODE_NOT_FOUND|NOT_FOUND/);
    expect(await alert.locator('.request-id').textContent()).toMatch(/^[0-9a-f-]{36}$/);
    expect(problems.filter((p) => !p.includes('404') && !p.includes('status of'))).toEqual([]);
  });

  it('search filters and paging live in the URL; non-current LLTs are marked and can be hidden', async () => {
    const { page, problems } = await open('/?q=disorders');
    const count = page.locator('.results .count');
    await poll(() => count.textContent()).toMatch(/^\d+ results$/);
    const total = Number(/^(\d+)/.exec((await count.textContent())!)![1]);
    expect(total).toBeGreaterThan(20);
    expect(await page.locator('#search-results [role=option]').count()).toBe(20);
    const firstPage = await page.locator('#search-results [role=option] .term').first().textContent();
    await page.getByRole('button', { name: 'Next results' }).click();
    await poll(() => new URL(page.url()).searchParams.get('after')).toBeTruthy();
    await poll(() => page.locator('#search-results [role=option] .term').first().textContent()).not.toBe(firstPage);
    await page.goBack();
    await poll(() => page.locator('#search-results [role=option] .term').first().textContent()).toBe(firstPage);
    await page.selectOption('#search-level', 'SOC');
    await poll(() => new URL(page.url()).searchParams.get('level')).toBe('SOC');
    await poll(async () => new Set(await page.locator('#search-results [role=option] .badge').allTextContents())).toEqual(new Set(['SOC']));

    // Chills has a non-current LLT (Ague): struck through and labelled in the tree, hideable there and on the page.
    await page.goto(`${base}/?code=10008531`);
    await page.getByRole('heading', { level: 1, name: 'Chills' }).waitFor();
    const chills = page.locator('[role=treeitem][aria-selected=true]');
    await poll(() => chills.count()).toBe(1);
    await chills.locator(':scope > .row .twisty').click();
    const ague = treeItem(page, 'Ague');
    await ague.waitFor();
    expect(await ague.locator('.badge.noncurrent').textContent()).toBe('non-current');
    await page.getByLabel('Show non-current LLTs').uncheck();
    await poll(() => ague.count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('nc')).toBe('0');
    expect(await page.locator('.links').last().textContent()).toContain('Ague');
    await page.getByLabel(/Hide \d+ non-current/).check();
    expect(await page.locator('.links').last().textContent()).not.toContain('Ague');
    expect(problems).toEqual([]);
  });

  it('compare two demo releases and download the CSV of the filtered list', async () => {
    const { page, problems } = await open('/?view=compare&from=5.0&to=5.0.1');
    await page.getByRole('table', { name: /Changes from 5.0 to 5.0.1/ }).waitFor();
    const status = page.locator('.list-head [role=status]');
    await poll(() => status.textContent()).toMatch(/^53 changes/);
    await audit(page, 'compare', { dark: true });
    await page.selectOption('#compare-level', 'PT');
    await poll(() => status.textContent()).toMatch(/^17 changes match the filters/);
    await page.selectOption('#compare-type', 'UPDATED');
    // 14 of the 17 PT changes are updates (the counts table says so too).
    await poll(() => status.textContent()).toMatch(/^14 changes match the filters/);
    const shown = 14;
    expect(new URL(page.url()).searchParams.get('ct')).toBe('UPDATED');
    expect(new URL(page.url()).searchParams.get('level')).toBe('PT');
    expect(await page.locator('.changes-table').textContent()).toContain('Allergic rhinitis');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('changes-5.0-to-5.0.1-PT-updated.csv');
    const csv = readFileSync((await download.path())!, 'utf8');
    // A spreadsheet opens it as is: UTF-8 byte-order mark, CRLF line ends (as the impact CSV).
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).trim().split(/\r\n/);
    expect(lines[0]).toBe('code,level,change_type,kinds,term,previous_term,details,before,after,from,to');
    expect(lines.length - 1).toBe(shown);
    const rows = lines.slice(1);
    expect(rows.every((r) => r.includes(',PT,UPDATED,') && r.endsWith(',5.0,5.0.1'))).toBe(true);
    expect(rows.some((r) => r.startsWith('10008661,PT,UPDATED,renamed,Blood cholesterol increased,Cholesterol high,'))).toBe(true);
    // Before/after in words in the CSV too (the page's cells, below, say the same).
    const moved = rows.find((r) => r.startsWith('10001723,'))!;
    expect(moved).toContain('primary SOC: Respiratory, thoracic and mediastinal disorders (10038738)');
    expect(moved).toContain('primary SOC: Immune system disorders (10021428)');
    expect(csv).not.toMatch(/primarySocCode|ptCode/);
    expect(problems).toEqual([]);
  });

  it('compare: before/after in words (names and codes, not field names), whether metadata codes are numbers or strings', async () => {
    const check = async (page: Page) => {
      await page.getByRole('table', { name: /Changes from 5.0 to 5.0.1/ }).waitFor();
      const cell = (code: string) => page.locator('.changes-table tbody tr', { has: page.locator(`td:first-child a`, { hasText: new RegExp(`^${code}$`) }) }).locator('.ba');
      // Primary SOC moved: both SOCs by name, each with its code.
      await poll(() => cell('10001723').textContent()).toContain('primary SOC: Respiratory, thoracic and mediastinal disorders (10038738)');
      expect(await cell('10001723').locator('dd').first().textContent()).toBe('primary SOC: Respiratory, thoracic and mediastinal disorders (10038738)');
      expect(await cell('10001723').locator('dd').last().textContent()).toBe('primary SOC: Immune system disorders (10021428)');
      // Demoted: the level and the PT it now belongs to, named in the target release.
      expect(await cell('10066480').locator('dd').last().textContent()).toMatch(/^level: LLT · PT: \S.* \(10031264\)$/);
      // Parents: a PT's parents are HLTs, each named.
      expect(await cell('10014678').locator('dd').first().textContent()).toMatch(/^HLTs: \S.* \(90200002\); \S.* \(90200097\)$/);
      expect(await page.locator('.changes-table').textContent()).not.toMatch(/primarySocCode|ptCode|parents:/);
    };
    const { page, problems } = await open('/?view=compare&from=5.0&to=5.0.1&level=PT&ct=UPDATED');
    await check(page);
    // Change-record metadata with codes as strings ("ptCode": "10031264") reads the same.
    await page.waitForLoadState('networkidle');
    let rewritten = 0;
    await page.route('**/graphql', async (route) => {
      if (!(route.request().postData() ?? '').includes('query ExplorerChanges')) return route.continue();
      const res = await route.fetch();
      const body = await res.json();
      const stringify = (v: unknown): unknown => (typeof v === 'number' ? String(v) : Array.isArray(v) ? v.map(stringify) : v);
      for (const e of body.data.version.changes.edges) {
        for (const side of ['before', 'after']) {
          const m = e.node.metadata[side];
          for (const k of Object.keys(m)) if (k !== 'internationalOrder') m[k] = stringify(m[k]);
        }
        rewritten++;
      }
      await route.fulfill({ response: res, json: body });
    });
    await page.reload();
    await check(page);
    expect(rewritten).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it("Enter on a lone search result opens it; a PT's parents are its HLTs (the primary SOC is in the header)", async () => {
    const { page, problems } = await open('/');
    const input = page.getByRole('combobox', { name: 'Term, synonym or code' });
    await input.fill('hay fever');
    await poll(() => page.locator('.results .count').textContent()).toBe('1 result');
    // No arrow key: the one result opens on Enter, and focus lands on its heading.
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Allergic rhinitis' }).waitFor();
    expect(new URL(page.url()).searchParams.get('code')).toBe('10001723');
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('code-title');
    // Several results: Enter without a chosen option opens nothing.
    await input.fill('vomiting');
    await poll(() => page.locator('.results .count').textContent()).toMatch(/^[2-9]\d* results$/);
    await page.keyboard.press('Enter');
    await page.locator('#search-results [role=option]').first().waitFor();
    expect(new URL(page.url()).searchParams.get('code')).toBeNull();

    // The PT's parents: its two HLTs (the primary one marked), not its primary SOC.
    await page.goto(`${base}/?code=10001723`);
    const parents = page.locator('section[aria-labelledby=parents-heading]');
    await parents.waitFor();
    expect(await parents.locator('h2').textContent()).toBe('Parents (2)');
    expect(await parents.locator('li abbr.badge').allTextContents()).toEqual(['HLT', 'HLT']);
    const items = await parents.locator('li').allTextContents();
    expect(items.join(' | ')).not.toContain('Immune system disorders');
    expect(items.find((t) => t.includes('Allergic and anaphylactic reactions'))).toContain('primary');
    expect(items.some((t) => t.includes('Nasal and sinus conditions'))).toBe(true);
    expect(await page.locator('.code-head').textContent()).toContain('Primary SOC: Immune system disorders');
    // An HLT's parents are unchanged: its HLGT.
    await page.goto(`${base}/?code=90200027`);
    await parents.waitFor();
    expect(await parents.locator('li abbr.badge').allTextContents()).toEqual(['HLGT']);
    expect(problems).toEqual([]);
  });

  it('workbench: a key in session storage codes a narrative and shows the evidence', async () => {
    const { page, problems } = await open('/?view=workbench');
    await page.getByRole('heading', { name: 'Coding workbench' }).waitFor();
    await audit(page, 'workbench-empty');
    // Without a key: the server's refusal, readable, with its request id.
    await page.getByLabel('API key').fill('sk-notavalidkeynotavalidkey0000');
    await page.getByRole('button', { name: 'Use key' }).click();
    await page.getByLabel('Narrative text').fill('The patient vomited repeatedly.');
    await page.getByRole('button', { name: 'Code the narrative' }).click();
    const alert = page.getByRole('alert').first();
    await alert.waitFor();
    expect(await alert.textContent()).toContain('UNAUTHORIZED');
    expect(await alert.locator('.request-id').textContent()).toMatch(/\S{8,}/);
    await page.getByRole('button', { name: 'Forget key' }).click();

    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Use key' }).click();
    expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([key]);
    expect(await page.evaluate(() => Object.keys(localStorage).length)).toBe(0);
    const sentKeys: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/graphql') && r.headers()['x-api-key']) sentKeys.push(r.headers()['x-api-key']!);
    });
    const narrative = 'Two days after the second dose the patient vomited repeatedly and was admitted overnight; no rash. She also complained of a pounding headache the next morning.';
    await page.getByLabel('Narrative text').fill(narrative);
    await page.getByRole('button', { name: 'Code the narrative' }).click();
    await page.locator('.wb-result').waitFor({ timeout: 30_000 });
    expect(sentKeys.length).toBeGreaterThan(1);
    expect(new Set(sentKeys)).toEqual(new Set([key]));
    expect(await page.getByRole('note', { name: 'AI notice' }).textContent()).toContain(AI_NOTICE);
    const marks = await page.locator('.evidence mark').allTextContents();
    expect(marks.join(' | ').toLowerCase()).toMatch(/vomit/);
    expect(marks.join(' | ').toLowerCase()).toMatch(/headache/);
    const events = page.locator('.event');
    expect(await events.count()).toBeGreaterThanOrEqual(2);
    const all = (await page.locator('.events').textContent())!;
    expect(all).toContain('Vomiting');
    expect(all).toContain('Headache');
    expect(all).toMatch(/confidence \d+ %/);
    expect(await page.locator('.assessments').textContent()).toMatch(/Serious/);
    await audit(page, 'workbench');
    // The narrative never enters the URL; the key never leaves the tab's session storage.
    expect(page.url()).not.toContain('vomit');

    // A label section: codes with their snippets located in the text.
    await page.getByRole('radio', { name: 'Label section' }).check();
    const label = 'ADVERSE REACTIONS: The most common adverse reactions (≥5%) were nausea, headache and dizziness.';
    await page.getByLabel(/^Label text/).fill(label);
    await page.getByRole('button', { name: 'Code the label' }).click();
    await page.locator('.wb-result .predictions').waitFor({ timeout: 30_000 });
    const labelMarks = (await page.locator('.evidence mark').allTextContents()).join(' | ').toLowerCase();
    expect(labelMarks).toContain('nausea');
    expect(new URL(page.url()).searchParams.get('mode')).toBe('label');
    expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
  });

  it('workbench review: the matched words marked, a confidence floor, accept / reject / another code, CSV and JSON of the coded events with offsets', async () => {
    const { page, problems } = await open('/?view=workbench');
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Use key' }).click();
    const narrative = 'Two days after the second dose the patient vomited repeatedly and was admitted overnight; no rash. She also complained of a pounding headache the next morning.';
    await page.getByLabel('Narrative text').fill(narrative);
    await page.getByRole('button', { name: 'Code the narrative' }).click();
    await page.locator('.wb-result .events').waitFor({ timeout: 30_000 });
    // The words that matched, not the clauses around them.
    expect(await page.locator('.evidence mark').allTextContents()).toEqual(['vomited', 'headache']);
    const ev1 = page.locator('.event').nth(0);
    const ev2 = page.locator('.event').nth(1);
    expect(await ev1.locator('h3').textContent()).toContain('vomited');

    // Candidates under the floor (20 %) are hidden unless asked for.
    expect(await ev1.locator('.predictions > li').count()).toBe(1);
    expect(await ev1.locator('.below-floor').textContent()).toMatch(/^\d+ candidates? below 20 % hidden\.$/);
    const hidden = Number(/^(\d+)/.exec((await ev2.locator('.below-floor').textContent())!)![1]);
    await page.getByLabel('Show candidates below the floor').check();
    await poll(() => ev2.locator('.predictions > li').count()).toBe(1 + hidden);
    expect(new URL(page.url()).searchParams.get('all')).toBe('1');
    await page.getByLabel('Show candidates below the floor').uncheck();
    await poll(() => ev2.locator('.predictions > li').count()).toBe(1);
    await page.getByLabel('Hide candidates below (%)').fill('0');
    await page.keyboard.press('Tab');
    await poll(() => ev2.locator('.predictions > li').count()).toBe(1 + hidden);
    expect(new URL(page.url()).searchParams.get('floor')).toBe('0');

    // Accept a proposal; reject both of another event's, then choose another code, by keyboard.
    const accept = ev1.getByRole('button', { name: 'Accept Vomiting for event 1' });
    await accept.click();
    expect(await accept.getAttribute('aria-pressed')).toBe('true');
    expect(await ev1.locator('.coded').textContent()).toBe('Coded: Vomiting 10047700 (proposal accepted)');
    const ev2Codes = await ev2.locator('.predictions > li .pred-head a').allTextContents();
    expect(ev2Codes[0]).toBe('Headache');
    for (const term of [...ev2Codes].reverse()) await ev2.getByRole('button', { name: `Reject ${term} for event 2` }).click();
    expect(await ev2.locator('.coded').textContent()).toBe('Not coded: every proposal rejected.');
    await ev2.getByRole('button', { name: 'Choose another code for event 2' }).focus();
    await page.keyboard.press('Enter');
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('pick-2-q');
    await page.keyboard.type('nausea');
    const nausea = ev2.getByRole('button', { name: /^PT Nausea 10028813/ });
    await nausea.waitFor();
    await nausea.focus();
    await page.keyboard.press('Enter');
    expect(await ev2.locator('.coded').textContent()).toBe('Coded: Nausea 10028813 (chosen by you) Clear the code of event 2');
    await poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Choose another code for event 2');
    expect(await page.locator('.export [role=status]').textContent()).toBe('2 of 2 events coded');
    await auditInPlace(page, 'workbench-review');

    // The exports: one line / object per event, the decision, the code and the evidence offsets.
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.locator('.export').getByRole('button', { name: 'Download CSV' }).click()]);
    expect(csvDownload.suggestedFilename()).toBe('coded-events-5.0.1.csv');
    const csv = readFileSync((await csvDownload.path())!, 'utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('event,description,event_confidence,decision,code,term,level,code_confidence,evidence_offsets,evidence_text,rejected_codes,release,request_id');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^1,Two days after the second dose the patient vomited repeatedly and was admitted overnight\.,0\.\d+,accepted,10047700,Vomiting,PT,0\.\d+,43-50,vomited,,5\.0\.1,\S+$/);
    // The rejected codes in the order proposed (they were rejected in the reverse order).
    const rejected = (await ev2.locator('.predictions > li .pred-head .muted').allTextContents()).join(';');
    expect(lines[2]).toMatch(new RegExp(`^2,She also complained of a pounding headache the next morning\\.,0\\.\\d+,edited,10028813,Nausea,PT,,133-141,headache,${rejected},5\\.0\\.1,\\S+$`));
    const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON' }).click()]);
    expect(jsonDownload.suggestedFilename()).toBe('coded-events-5.0.1.json');
    const exported = JSON.parse(readFileSync((await jsonDownload.path())!, 'utf8'));
    expect(exported.release).toBe('5.0.1');
    expect(exported.events.map((e: any) => [e.decision, e.code?.code, e.evidence.map((m: any) => m.text)])).toEqual([
      ['accepted', '10047700', ['vomited']],
      ['edited', '10028813', ['headache']],
    ]);
    for (const e of exported.events) for (const m of e.evidence) expect(narrative.slice(m.start, m.end)).toBe(m.text);
    expect(exported.events[1].rejected.map((r: any) => r.code).join(';')).toBe(rejected);
    // Decisions are client data like the narrative: not in the URL, not in storage.
    expect(page.url()).not.toMatch(/10047700|10028813|vomit/);
    expect(await page.evaluate(() => Object.keys(localStorage).length)).toBe(0);
    expect(problems).toEqual([]);
  });

  it('keyboard only: search with arrows and Enter, then the tree with arrows, Home/End and type-ahead', async () => {
    const { page, problems } = await open('/');
    await page.waitForSelector('[role=tree] [role=treeitem]');
    // Skip link first, then the header; Tab until the search field has focus.
    for (let i = 0; i < 12 && !(await page.evaluate(() => document.activeElement?.id === 'search-input')); i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('search-input');
    await page.keyboard.type('vomit');
    await page.locator('#search-results [role=option]').first().waitFor();
    await page.keyboard.press('ArrowDown');
    const input = page.locator('#search-input');
    expect(await input.getAttribute('aria-activedescendant')).toBe('hit-0');
    expect(await page.locator('#hit-0').getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    expect(await input.getAttribute('aria-activedescendant')).toBe('hit-0');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Vomiting' }).waitFor();
    // The listbox is gone: focus lands on the code's heading.
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('code-title');
    // A code number is not a name: the first option opens that code. Its option is there before
    // the name search answers; the search is held back here so ↓ and Enter land first, and its
    // answer arriving must not clear the chosen option (it did, under load).
    let releaseSearch!: () => void;
    const held = new Promise<void>((r) => (releaseSearch = r));
    await page.route('**/graphql', async (route) => {
      if ((route.request().postData() ?? '').includes('10028813')) await held;
      await route.continue();
    });
    await input.fill('10028813');
    await page.locator('#hit-0', { hasText: 'Open code 10028813' }).waitFor();
    await page.keyboard.press('ArrowDown');
    expect(await input.getAttribute('aria-activedescendant')).toBe('hit-0');
    releaseSearch();
    await page.locator('#hit-1').waitFor(); // the name search's answer is shown
    // Preact runs effects after the next paint: let two frames pass before reading.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(() => requestAnimationFrame(() => setTimeout(r, 0)), 0))));
    expect(await input.getAttribute('aria-activedescendant')).toBe('hit-0');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Nausea' }).waitFor();
    await page.unroute('**/graphql');
    await page.goBack(); // the search for the number
    await page.locator('#hit-0', { hasText: 'Open code 10028813' }).waitFor();
    expect(await input.inputValue()).toBe('10028813');
    await page.goBack(); // Vomiting again
    await page.getByRole('heading', { level: 1, name: 'Vomiting' }).waitFor();
    expect(await input.inputValue()).toBe('vomit');

    // Into the tree: one tab stop, on the selected item (Vomiting, revealed on its primary path).
    const focused = () => page.evaluate(() => document.activeElement?.querySelector(':scope > .row .label')?.textContent ?? null);
    await poll(() => page.locator('[role=treeitem][aria-selected=true]').count()).toBe(1);
    expect(await page.locator('[role=tree] [tabindex="0"]').count()).toBe(1);
    await page.locator('[role=treeitem][aria-selected=true]').focus();
    const attr = (name: string) => page.evaluate((n) => document.activeElement?.getAttribute(n) ?? null, name);
    // Focus moves after the tree re-renders: poll rather than read once.
    await poll(focused).toBe('Vomiting');
    await page.keyboard.press('ArrowRight'); // expands Vomiting: its LLTs, fetched now
    await poll(() => attr('aria-expanded')).toBe('true');
    await poll(() => page.evaluate(() => document.activeElement?.querySelectorAll(':scope > [role=group] > [role=treeitem]').length ?? 0)).toBeGreaterThan(0);
    await page.keyboard.press('ArrowRight'); // first LLT
    await poll(() => attr('aria-level')).toBe('5');
    await page.keyboard.press('ArrowLeft'); // back to the parent
    await poll(focused).toBe('Vomiting');
    await page.keyboard.press('ArrowLeft'); // collapses it
    await poll(() => attr('aria-expanded')).toBe('false');
    await page.keyboard.press('Home');
    const first = await page.locator('[role=tree] > [role=treeitem]').first().locator(':scope > .row .label').textContent();
    await poll(focused).toBe(first);
    await page.keyboard.press('End');
    const last = await page.locator('[role=tree] > [role=treeitem]').last().locator(':scope > .row .label').textContent();
    await poll(focused).toBe(last);
    await page.keyboard.press('Home');
    await poll(focused).toBe(first);
    // Type-ahead: "n" jumps to the next name starting with n; "ner" (typed within a second) to Nervous system disorders.
    await page.keyboard.type('n');
    await poll(focused).toMatch(/^N/);
    await page.keyboard.type('er');
    await poll(focused).toBe('Nervous system disorders');
    await page.keyboard.press('ArrowRight');
    await poll(() => attr('aria-expanded')).toBe('true');
    await poll(() => page.evaluate(() => document.activeElement?.querySelectorAll(':scope > [role=group] > [role=treeitem]').length ?? 0)).toBeGreaterThan(0);
    await page.keyboard.press('ArrowDown');
    await poll(() => attr('aria-level')).toBe('2');
    const hlgt = await focused();
    await page.keyboard.press('Enter'); // opens the HLGT's page
    await page.getByRole('heading', { level: 1, name: hlgt! }).waitFor();
    expect(new URL(page.url()).searchParams.get('path')).toMatch(/^\d+\.\d+$/);
    await axe(page, 'keyboard');
    expect(problems).toEqual([]);
  });
});
