// The explorer's SMQ and upgrade-impact pages in a real Chromium against the app over a real
// socket on the demo releases: a CSV of demo codes uploaded with a key from createApiKey, the
// summary checked against POST /impact (same rows), a suggested recode, the filter, the CSV
// download checked line by line against POST /impact?format=csv; SMQ list → SMQ page → a term →
// its code page's "In SMQs"; axe-core (no serious or critical violation) at 1280 and 360 px.
// One browser and one server for the file.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { explorerSession, SHOTS } from './session.ts';

let base: string;
let key: string;
const { open, axe, shoot } = explorerSession('explorer-pages-tests', (s) => ({ base, key } = s));

/** The page's accessibility at 1280 px and, resized in place (its state is not in the URL), at 360 px. */
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

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 50 });

/** Demo codes with known impacts from 5.0 to 5.0.1 (see test/impact/impact.test.ts), and one bad row. */
const CSV = [
  'rowId,code,term',
  'non-current,90301218,Cold',
  'moved,90300351,',
  'demoted,10066480,',
  'promoted,10010783,',
  'renamed,10047848,Watering eyes',
  'soc,10001723,',
  'hierarchy,10025476,',
  'mismatch,90300351,Nausea',
  'unchanged,10028813,nausea',
  'formula,10028813,=HYPERLINK("http://x")',
  'bad,12ab,',
  // Unaffected rows, so that the rows run over one page (25).
  ...Array.from({ length: 20 }, (_, i) => `same-${i + 1},10028813,Nausea`),
  '',
].join('\r\n');

describe('explorer pages in a browser', () => {
  it('upgrade impact: a CSV upload → the summary of POST /impact, suggestions, filter, CSV download', async () => {
    const rest = async (accept: string) => {
      const res = await fetch(`${base}/impact?from=5.0&to=5.0.1`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'text/csv', accept }, body: CSV });
      expect(res.status).toBe(200);
      return res;
    };
    const expected = await (await rest('application/json')).json();
    // Decoded with its byte-order mark kept (the download keeps it too).
    const expectedCsv = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await (await rest('text/csv')).arrayBuffer());

    // The compare page links to the impact page for the same pair.
    const { page, problems } = await open('/?view=compare&from=5.0&to=5.0.1');
    await page.getByRole('link', { name: 'Impact of this upgrade on coded data' }).click();
    await page.getByRole('heading', { level: 1, name: 'Upgrade impact' }).waitFor();
    expect(await page.locator('#impact-from').inputValue()).toBe('5.0');
    expect(await page.locator('#impact-to').inputValue()).toBe('5.0.1');
    // Without a key the analysis cannot start.
    expect(await page.getByRole('button', { name: 'Analyse the upgrade' }).isDisabled()).toBe(true);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Use key' }).click();
    expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([key]);

    // A file over the row limit is refused here, before anything is sent.
    const big = ['rowId,code', ...Array.from({ length: 10_001 }, (_, i) => `r${i},10028813`)].join('\n');
    await page.setInputFiles('#impact-file', { name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(big) });
    await poll(() => page.locator('.impact-form [role=alert]').textContent()).toMatch(/big\.csv has more than 10,000 rows/);

    await page.setInputFiles('#impact-file', { name: 'coded.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    await poll(() => page.locator('.impact-form [role=status]').textContent()).toMatch(/coded\.csv: 31 rows read/);
    await page.getByRole('button', { name: 'Analyse the upgrade' }).click();
    await page.locator('.impact-summary').waitFor({ timeout: 20_000 });

    const s = expected.summary;
    const dd = (k: string) => page.locator(`.impact-summary dd[data-k=${k}]`).textContent();
    expect(await dd('uploaded')).toBe(String(s.rowsUploaded));
    expect(await dd('valid')).toBe(String(s.rowsValid));
    expect(await dd('invalid')).toBe(String(s.rowsInvalid));
    expect(await dd('impacted')).toContain(`${s.rowsImpacted} (${s.impactedPercent.toFixed(1)} % of valid rows)`);
    expect(s).toMatchObject({ rowsUploaded: 31, rowsValid: 30, rowsInvalid: 1 });
    for (const k of s.byKind) expect(await page.locator(`.by-kind tr[data-kind=${k.kind}] td`).textContent(), k.kind).toBe(String(k.rows));
    const moves = await page.locator('.soc-moves tbody tr').allTextContents();
    expect(moves).toEqual(s.socMovements.map((m: any) => `${m.from.term}${m.to.term}${m.rows}`));
    const deltas = await page.locator('.pt-deltas tbody tr').allTextContents();
    expect(deltas).toEqual(s.ptDeltas.slice(0, 20).map((d: any) => `${d.pt.term} ${d.pt.code}${d.before}${d.after}${d.delta > 0 ? `+${d.delta}` : d.delta}`));

    // A suggested recode with its reason; the bad row with its id and reason.
    const rows = page.locator('.impact-rows tbody tr');
    const nonCurrent = rows.filter({ hasText: 'non-current' }).first();
    expect(await nonCurrent.locator('.suggestion').textContent()).toMatch(/^recode to Common cold 90301217: .*closest to 'Cold'/);
    expect(await page.locator('.bad-rows').textContent()).toMatch(/bad.*code.*code must be a terminology code/);
    // Filter by kind.
    await page.selectOption('#impact-filter', 'LLT_NON_CURRENT');
    await poll(() => rows.count()).toBe(1);
    await page.selectOption('#impact-filter', 'all');
    await poll(() => rows.count()).toBe(25);
    expect(await page.locator('.impact-result .count').textContent()).toBe('30 rows · page 1 of 2');
    await page.getByRole('button', { name: 'Next rows' }).click();
    await poll(() => rows.count()).toBe(5);
    expect(await rows.last().locator('td').first().textContent()).toContain('same-20');
    await page.getByRole('button', { name: 'Previous rows' }).click();
    await poll(() => rows.count()).toBe(25);
    await auditInPlace(page, 'impact');
    // The summary alone (top of the page down to its tables), for the README.
    const bottom = await page.locator('.impact-tables').evaluate((el) => el.getBoundingClientRect().bottom + window.scrollY);
    await page.screenshot({ path: path.join(SHOTS, 'impact-summary-1280.png'), clip: { x: 0, y: 0, width: 1280, height: Math.ceil(bottom + 16) }, fullPage: true });

    // The CSV: the same lines as POST /impact?format=csv for the same file.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('impact-5.0-to-5.0.1.csv');
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv).toBe(expectedCsv);
    const lines = csv.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toMatch(/^rowId,line,code,recordedTerm,status,impact,/);
    expect(lines.some((l) => l.startsWith(`formula,11,10028813,"'=HYPERLINK(""http://x"")",`))).toBe(true);
    expect(lines.filter((l) => l.startsWith('moved,')).map((l) => l.split(',')[5])).toEqual(['LLT_MOVED', 'HIERARCHY_CHANGED']);
    expect(lines.at(-1)).toMatch(/^bad,12,,,INVALID,,code: code must be/);

    // Pasted rows (no header line: rowId,code,term), once the file is cleared.
    await page.getByRole('button', { name: 'Clear the file' }).click();
    await page.getByLabel('…or paste rows').fill('p1,10047848,Watering eyes\np2,10028813,Nausea');
    await page.getByRole('button', { name: 'Analyse the upgrade' }).click();
    await poll(() => page.locator('.impact-result h2').first().textContent()).toBe('Summary: The pasted rows, 5.0 → 5.0.1');
    expect(await dd('uploaded')).toBe('2');
    expect(await dd('impacted')).toContain('1 (50.0 % of valid rows)');

    // The rows never reach the URL; the release pair does.
    const url = new URL(page.url());
    expect([...url.searchParams.keys()].sort()).toEqual(['from', 'to', 'view']);
    expect(page.url()).not.toMatch(/9030|HYPERLINK|Watering/);
    expect(problems).toEqual([]);
  });

  it('SMQ list → SMQ page → a term → its code page lists its SMQs', async () => {
    const { page, problems } = await open('/?view=smqs');
    await page.getByRole('heading', { level: 1, name: 'SMQs' }).waitFor();
    await poll(() => page.locator('.smqs .count').textContent()).toBe('7 SMQs');
    // The release switcher: 5.0 has one SMQ fewer (90500007 is new in 5.0.1).
    await page.selectOption('#release-switcher', '5.0');
    await poll(() => page.locator('.smqs .count').textContent()).toBe('6 SMQs');
    expect(new URL(page.url()).searchParams.get('v')).toBe('5.0');
    await page.selectOption('#release-switcher', '5.0.1');
    await poll(() => page.locator('.smqs .count').textContent()).toBe('7 SMQs');
    await page.getByLabel('SMQ name contains').fill('hepatic');
    await poll(() => new URL(page.url()).searchParams.get('sq')).toBe('hepatic');
    await poll(() => page.locator('.smqs .count').textContent()).toMatch(/with “hepatic” in the name/);
    await page.getByRole('link', { name: 'Demo hepatic disorders (demo SMQ)' }).click();
    await page.getByRole('heading', { level: 1, name: 'Demo hepatic disorders (demo SMQ)' }).waitFor();
    expect(new URL(page.url()).searchParams.get('smq')).toBe('90500001');
    // Sub-SMQs as links; terms with their scope, the sub-SMQs' included.
    const subs = page.locator('section[aria-labelledby=smq-children-heading] a');
    expect(await subs.count()).toBeGreaterThan(0);
    const terms = page.locator('.smq-terms tbody tr');
    await poll(() => terms.count()).toBeGreaterThan(0);
    expect(await page.locator('.smq-page .count').textContent()).toMatch(/^\d+ terms? \(\d+ narrow, \d+ broad/);
    await auditInPlace(page, 'smq');
    // Terms are paged (25 a page), the page in the URL.
    const firstTerm = await terms.first().locator('td').first().textContent();
    await page.getByRole('button', { name: 'Next terms' }).click();
    await poll(() => new URL(page.url()).searchParams.get('after')).toBeTruthy();
    await poll(() => terms.first().locator('td').first().textContent()).not.toBe(firstTerm);
    await page.getByRole('button', { name: 'Previous terms' }).click();
    await poll(() => terms.first().locator('td').first().textContent()).toBe(firstTerm);
    await page.selectOption('#smq-scope', 'narrow');
    await poll(() => new URL(page.url()).searchParams.get('scope')).toBe('narrow');
    await poll(async () => new Set((await page.locator('.smq-terms tbody tr td:nth-child(3)').allTextContents()))).toEqual(new Set(['narrow']));

    // A term opens its code page, whose "In SMQs" names this SMQ (or its sub-SMQ) with the scope.
    const first = terms.first().locator('td').first().locator('a');
    const name = (await first.textContent())!;
    await first.click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    const inSmqs = page.locator('.code-smqs');
    await poll(() => inSmqs.locator('h2').textContent()).toMatch(/^In SMQs \(\d+\)$/);
    // The term is listed by the SMQ itself or by one of its sub-SMQs.
    expect(await inSmqs.textContent()).toMatch(/Demo hepatic disorders \(demo SMQ\) 90500001 narrow|narrow · sub-SMQ of Demo hepatic disorders \(demo SMQ\)/);
    // From the code page back to an SMQ page.
    await inSmqs.locator('a').first().click();
    await page.locator('#smq-title').waitFor();

    // An algorithmic SMQ shows its rule; a deep link with a release.
    await page.goto(`${base}/?view=smqs&smq=90500005&v=5.0`);
    await page.getByRole('heading', { level: 1, name: 'Demo anaphylactic reaction (demo SMQ)' }).waitFor();
    expect(await page.locator('.algorithm').textContent()).toBe('A or (B and C) or (D and (B or C))');
    expect(await page.locator('.smq-page .facts').textContent()).toContain('Release 5.0');
    expect(await page.locator('.smq-terms thead').textContent()).toContain('Category');
    expect(problems).toEqual([]);
  });
});
