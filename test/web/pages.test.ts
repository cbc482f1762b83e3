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
import { explorerSession, SCREENSHOTS, SHOTS } from './session.ts';

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
    if (SCREENSHOTS) {
      const bottom = await page.locator('.impact-tables').evaluate((el) => el.getBoundingClientRect().bottom + window.scrollY);
      await page.screenshot({ path: path.join(SHOTS, 'impact-summary-1280.png'), clip: { x: 0, y: 0, width: 1280, height: Math.ceil(bottom + 16) }, fullPage: true });
    }

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
  it('SMQ page: apply the SMQ to coded rows — the counts of POST /smqs/{code}/apply, the matches, the cases, a CSV', async () => {
    const rows = [
      { rowId: '1', caseId: 'A', code: '10006482' },
      { rowId: '2', caseId: 'A', code: '10046735' },
      { rowId: '3', code: '90300062' },
      { rowId: '=HYPERLINK("http://x")', code: '10028813' },
      { rowId: 'hlt', code: '90200027' },
      { rowId: 'unknown', code: '99999999' },
    ];
    const res = await fetch(`${base}/smqs/90500005/apply`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ rows }) });
    expect(res.status).toBe(200);
    const expected = await res.json();
    const pasted = ['rowId,code,caseId', ...rows.map((r) => [r.rowId.includes('"') ? `"${r.rowId.replace(/"/g, '""')}"` : r.rowId, r.code, r.caseId ?? ''].join(','))].join('\n');

    const { page, problems } = await open('/?view=smqs&smq=90500005');
    await page.getByRole('heading', { level: 1, name: 'Demo anaphylactic reaction (demo SMQ)' }).waitFor();
    const section = page.locator('.smq-apply');
    expect(await section.getByRole('button', { name: 'Apply the SMQ' }).isDisabled()).toBe(true);
    await section.getByLabel('API key').fill(key);
    await section.getByRole('button', { name: 'Use key' }).click();
    await section.getByLabel('…or paste rows').fill(pasted);
    await section.getByRole('button', { name: 'Apply the SMQ' }).click();
    await section.locator('.impact-summary').waitFor({ timeout: 20_000 });
    const dd = (k: string) => section.locator(`dd[data-k=${k}]`).textContent();
    for (const k of ['rows', 'narrow', 'broad', 'broadSearch', 'unmatched', 'problems']) expect(await dd(k), k).toBe(String(expected.counts[k]));
    expect(expected.counts).toMatchObject({ rows: 6, problems: 2 });
    expect(await section.locator('.smq-matches tbody tr').count()).toBe(expected.narrow.length + expected.broad.length);
    expect(await section.locator('.bad-rows').textContent()).toMatch(/unknown.*99999999.*not in release 5\.0\.1/);
    // The algorithm's verdict per case, as the API gives it.
    expect(await section.locator('.smq-cases [role=status]').textContent()).toBe(`${expected.algorithm.matchedCases} of ${expected.algorithm.cases.length} cases with a matching row meet the rule.`);
    expect(await section.locator('.smq-cases li').count()).toBe(expected.algorithm.cases.length);

    // The CSV: every row sent, in order, with its outcome; formula-looking cells defused.
    const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('smq-90500005-5.0.1.csv');
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('rowId,caseId,code,outcome,scope,matchedCode,matchedTerm,matchedLevel,smqCode,category,weight,problem,smq,release');
    expect(lines).toHaveLength(7);
    const outcome = (id: string) => (expected.narrow.some((m: any) => m.rowId === id) ? 'narrow' : expected.broad.some((m: any) => m.rowId === id) ? 'broad' : expected.problems.some((p: any) => p.rowId === id) ? 'problem' : 'unmatched');
    expect(lines[1]!.split(',').slice(0, 4)).toEqual(['1', 'A', '10006482', outcome('1')]);
    expect(lines[4]!.startsWith(`"'=HYPERLINK(""http://x"")",,10028813,${outcome('=HYPERLINK("http://x")')},`)).toBe(true);
    expect(lines[6]).toMatch(/^unknown,,99999999,problem,.*UNKNOWN_CODE,90500005,5\.0\.1$/);
    await auditInPlace(page, 'smq-apply');
    // The rows never reach the URL or storage.
    expect(page.url()).not.toMatch(/10006482|HYPERLINK/);
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain('10006482');
    expect(problems).toEqual([]);
  });

  it('research bin: collect terms while browsing (localStorage), export CSV and JSON, check the bin or an imported list against a release', async () => {
    const { page, problems } = await open('/?code=10001723&v=5.0');
    await page.waitForLoadState('networkidle');
    const add = async (url: string, term: string) => {
      await page.goto(`${base}${url}`);
      await page.getByRole('heading', { level: 1, name: term }).waitFor();
      await page.getByRole('button', { name: 'Add to research bin' }).click();
      await page.getByRole('button', { name: 'Remove from research bin' }).waitFor();
      // Nothing in flight when the next page loads (an aborted request counts as a failure).
      await page.waitForLoadState('networkidle');
    };
    await add('/?code=10001723&v=5.0', 'Allergic rhinitis');
    await add('/?code=90301218&lvl=LLT&v=5.0', 'Cold');
    await add('/?code=90300351&lvl=LLT&v=5.0', (await (await fetch(`${base}/codes/90300351?version=5.0`)).json()).term);
    // Kept across page loads, in this browser only.
    await page.reload();
    const nav = page.getByRole('link', { name: 'Research bin (3)' });
    await nav.waitFor();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('terminology-explorer.researchBin') ?? '[]'));
    expect(stored.map((i: any) => [i.code, i.level, i.release])).toEqual([
      ['10001723', 'PT', '5.0'],
      ['90301218', 'LLT', '5.0'],
      ['90300351', 'LLT', '5.0'],
    ]);
    expect(stored[0].primarySocCode).toBe('10038738');
    await nav.click();
    await page.getByRole('heading', { level: 1, name: 'Research bin' }).waitFor();
    expect(await page.locator('.bin-items li').count()).toBe(3);

    // Exports.
    const [csvDl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(csvDl.suggestedFilename()).toBe('research-bin.csv');
    const csv = readFileSync((await csvDl.path())!, 'utf8').slice(1).trim().split('\r\n');
    expect(csv[0]).toBe('code,term,level,release,ptCode,primarySocCode');
    expect(csv[1]).toBe('10001723,Allergic rhinitis,PT,5.0,,10038738');
    expect(csv[2]).toMatch(/^90301218,Cold,LLT,5\.0,\d+,\d+$/);
    const [jsonDl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON' }).click()]);
    const jsonPath = (await jsonDl.path())!;
    expect(JSON.parse(readFileSync(jsonPath, 'utf8')).researchBin.map((i: any) => i.code)).toEqual(['10001723', '90301218', '90300351']);

    // The bin against 5.0.1 (the latest): a primary SOC moved, an LLT made non-current, an LLT moved to another PT.
    const statuses = () => page.locator('.bin-table tbody tr').evaluateAll((trs) => trs.map((tr) => `${tr.querySelector('td .muted')?.textContent}:${tr.getAttribute('data-status')}`));
    await page.getByRole('button', { name: 'Check the bin' }).click();
    await poll(statuses).toEqual(['10001723:moved', '90301218:non-current', '90300351:moved']);
    expect(await page.locator('.bin-counts').textContent()).toBe('0 current · 1 non-current · 2 moved · 0 missing');
    expect(await page.locator('.bin-table tbody tr').first().textContent()).toContain('primary SOC now Immune system disorders (10021428), was 10038738');
    expect(await page.locator('.bin-table tbody tr').last().textContent()).toMatch(/now under PT .* \(10066874\), was 10013946/);
    await auditInPlace(page, 'research-bin');
    // Against the release they were collected from: all current.
    await page.selectOption('#bin-against', '5.0');
    expect(new URL(page.url()).searchParams.get('against')).toBe('5.0');
    await page.getByRole('button', { name: 'Check the bin' }).click();
    await poll(() => page.locator('.bin-counts').textContent()).toBe('3 current · 0 non-current · 0 moved · 0 missing');

    // Emptied, then a pasted list and the exported file re-imported and checked against 5.0.1.
    await page.getByRole('button', { name: 'Empty the bin' }).click();
    await page.getByRole('link', { name: 'Research bin (0)' }).waitFor();
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await page.selectOption('#bin-against', '5.0.1');
    await page.getByLabel('…or paste codes').fill('code,term\n10028813,Nausea\n99999999,=cmd|x');
    await page.getByRole('button', { name: 'Check the list' }).click();
    await poll(statuses).toEqual(['10028813:current', '99999999:missing']);
    // The check as CSV: a formula-looking term from the list is defused.
    const [checkDl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the check (CSV)' }).click()]);
    expect(checkDl.suggestedFilename()).toBe('research-bin-check-5.0.1.csv');
    const checkCsv = readFileSync((await checkDl.path())!, 'utf8').slice(1).trim().split('\r\n');
    expect(checkCsv[0]).toBe('code,term,level,collectedIn,status,notes,termInRelease,levelInRelease,release');
    expect(checkCsv[1]).toBe('10028813,Nausea,,,current,,Nausea,PT,5.0.1');
    expect(checkCsv[2]).toBe("99999999,'=cmd|x,,,missing,not in the release,,,5.0.1");
    await page.setInputFiles('#bin-file', jsonPath);
    await poll(() => page.locator('.research-bin [role=status]').first().textContent()).toMatch(/: 3 terms read/);
    await page.getByRole('button', { name: 'Check the list' }).click();
    await poll(statuses).toEqual(['10001723:moved', '90301218:non-current', '90300351:moved']);
    await page.getByRole('button', { name: 'Add the list to the bin' }).click();
    await page.getByRole('link', { name: 'Research bin (3)' }).waitFor();
    expect(problems).toEqual([]);
  });
});
