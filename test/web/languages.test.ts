// The explorer in several languages (issue 28, item 5), in a real Chromium against the app over a
// real socket on the demo releases (English, with German and Japanese written for the demo):
// the language switcher (lang=), search in Japanese and in every language, the code page with a
// second language beside the first (lang2=), `lang` on the names, deep links and Back, the
// browser's language as the default, and axe-core on the code page in German and in Japanese.
// One browser and one server for the file; a page per flow.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { explorerSession } from './session.ts';

const { open, axe, shoot } = explorerSession('explorer-language-tests', () => {});

/** expect.poll with room for a busy machine (two cores shared with other work). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 50 });
const param = (page: Page, key: string) => new URL(page.url()).searchParams.get(key);
/** Every GraphQL request the page sends, with its variables and Accept-Language header. */
function recordQueries(page: Page): { variables: Record<string, unknown>; query: string; acceptLanguage: string | undefined }[] {
  const seen: { variables: Record<string, unknown>; query: string; acceptLanguage: string | undefined }[] = [];
  page.on('request', (r) => {
    if (!r.url().endsWith('/graphql') || r.method() !== 'POST') return;
    const body = JSON.parse(r.postData() ?? '{}') as { query: string; variables: Record<string, unknown> };
    seen.push({ query: body.query, variables: body.variables ?? {}, acceptLanguage: r.headers()['accept-language'] });
  });
  return seen;
}

describe('explorer in several languages', () => {
  it('switch to Japanese → search 頭痛 → the code page in Japanese with English beside it', async () => {
    const { page, problems } = await open('/');
    const queries = recordQueries(page);
    const switcher = page.locator('#language-switcher');
    await switcher.waitFor();
    // The release's languages, each by its own name, each option in its language.
    const options = await switcher.locator('option').evaluateAll((os) => os.map((o) => ({ value: (o as HTMLOptionElement).value, text: o.textContent, lang: o.getAttribute('lang') })));
    expect(options).toEqual([
      { value: 'en', text: 'English', lang: 'en' },
      { value: 'de', text: 'Deutsch', lang: 'de' },
      { value: 'ja', text: '日本語', lang: 'ja' },
    ]);
    // Chromium's default locale here is en-US: English is the default, and not written into the URL.
    expect(await switcher.inputValue()).toBe('en');
    expect(param(page, 'lang')).toBeNull();

    const sentBefore = queries.length;
    await switcher.selectOption('ja');
    await poll(() => param(page, 'lang')).toBe('ja');
    // The tree's SOCs are named in Japanese, in elements that say so.
    const soc = page.locator('[role=tree] .label', { hasText: '神経系障害' }).first();
    await soc.waitFor();
    expect(await soc.getAttribute('lang')).toBe('ja');

    const input = page.getByRole('combobox', { name: 'Term, synonym or code' });
    await input.fill('頭痛');
    const option = page.locator('#search-results [role=option]').filter({ has: page.locator('.term', { hasText: /^頭痛$/ }) }).first();
    await option.waitFor();
    expect(await option.locator('.term').getAttribute('lang')).toBe('ja');
    expect(await option.locator('.code').textContent()).toBe('10019211');
    // The whole name contains the query: it ranks first.
    expect(await page.locator('#search-results [role=option] .term').first().textContent()).toBe('頭痛');
    await poll(() => param(page, 'q')).toBe('頭痛');

    // A second language for the results: English beside the Japanese names.
    await page.selectOption('#search-lang2', 'en');
    await poll(() => param(page, 'lang2')).toBe('en');
    const besideHit = option.locator('.name2 [lang=en]');
    await poll(() => besideHit.textContent()).toBe('Headache');
    await option.click();

    await page.getByRole('heading', { level: 1, name: '頭痛' }).waitFor();
    const h1 = page.locator('#code-title');
    expect(await h1.getAttribute('lang')).toBe('ja');
    const beside = page.locator('.name2-head .name2-text');
    await poll(() => beside.textContent()).toBe('Headache');
    expect(await beside.getAttribute('lang')).toBe('en');
    expect(await page.locator('.name2-head .lang-label').textContent()).toBe('English');
    // Names down the page carry their language too: the primary SOC in Japanese, English beside it.
    const socLink = page.locator('.code-head a', { hasText: '神経系障害' }).first();
    expect(await socLink.locator('[lang=ja]').count()).toBe(1);
    expect(await page.locator('.code-head .name2 [lang=en]', { hasText: 'Nervous system disorders' }).count()).toBeGreaterThan(0);
    // Every hosted language's name, from Code.names.
    await page.locator('.all-names summary').click();
    const all = await page.locator('.all-names dd').evaluateAll((ds) => ds.map((d) => [d.getAttribute('lang'), d.textContent]));
    expect(all).toEqual([
      ['en', 'Headache'],
      ['de', 'Kopfschmerzen'],
      ['ja', '頭痛'],
    ]);
    // Japanese names get a CJK font from the system's stack (none downloaded: see `problems`).
    expect(await h1.evaluate((e) => getComputedStyle(e).fontFamily)).toMatch(/Hiragino Sans|Noto Sans CJK JP|Yu Gothic/);
    expect(param(page, 'lang')).toBe('ja');
    expect(param(page, 'lang2')).toBe('en');

    // Every query named the language: Accept-Language on all, the `language` variable where the field takes one.
    expect(queries.length).toBeGreaterThan(3);
    const afterSwitch = queries.slice(sentBefore);
    for (const q of afterSwitch) expect(q.acceptLanguage, q.query.slice(0, 60)).toBe('ja');
    const codeQuery = afterSwitch.find((q) => q.query.includes('query ExplorerCode('));
    expect(codeQuery?.variables).toMatchObject({ code: '10019211', language: 'ja', second: 'en', withSecond: true });
    expect(afterSwitch.find((q) => q.query.includes('query ExplorerSearch('))?.variables).toMatchObject({ q: '頭痛', language: 'ja' });

    // Back returns to English names, and forward to Japanese.
    await shoot(page, 'language-ja-code');
    await page.goBack(); // the result opened
    await page.goBack(); // lang2
    await page.goBack(); // the search
    await page.goBack(); // lang=ja
    await poll(() => switcher.inputValue()).toBe('en');
    await poll(() => page.locator('[role=tree] .label', { hasText: 'Nervous system disorders' }).count()).toBe(1);
    await page.goForward();
    await poll(() => switcher.inputValue()).toBe('ja');
    await poll(() => page.locator('[role=tree] .label[lang=ja]', { hasText: '神経系障害' }).count()).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a deep link with lang=de reproduces the German view; axe passes on the code page in German and in Japanese', async () => {
    const { page, problems } = await open('/?code=10028813&lang=de&lang2=en');
    await page.getByRole('heading', { level: 1, name: 'Übelkeit' }).waitFor();
    expect(await page.locator('#language-switcher').inputValue()).toBe('de');
    expect(await page.locator('#code-title').getAttribute('lang')).toBe('de');
    await poll(() => page.locator('.name2-head .name2-text[lang=en]').textContent()).toBe('Nausea');
    expect(await page.locator('#code-lang2').inputValue()).toBe('en');
    // The page's own language stays English (the chrome); names say theirs.
    await poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.waitForLoadState('networkidle');
    await axe(page, 'code page (de)');
    await shoot(page, 'language-de-code');

    // The same code in Japanese, by switching: same code, Japanese names.
    await page.selectOption('#language-switcher', 'ja');
    await page.getByRole('heading', { level: 1, name: '悪心' }).waitFor();
    expect(await page.locator('#code-title').getAttribute('lang')).toBe('ja');
    expect(param(page, 'code')).toBe('10028813');
    await page.waitForLoadState('networkidle');
    await axe(page, 'code page (ja)');
    // No violation of any impact (the shared helper fails on serious and critical ones).
    const minor = await page.evaluate(async () => (await (globalThis as any).axe.run(document, { resultTypes: ['violations'] })).violations.map((v: any) => v.id));
    expect(minor).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('search every language at once shows which language matched', async () => {
    const { page, problems } = await open('/?q=%C3%BCbelkeit&ql=*');
    const option = page.locator('#search-results [role=option]').filter({ hasText: '10028813' }).first();
    await option.waitFor();
    // The hit is named in the language that matched (the API's answer for language "*"), and says which.
    const term = option.locator('.term');
    expect(await term.textContent()).toBe('Übelkeit');
    expect(await term.getAttribute('lang')).toBe('de');
    expect(await option.locator('.matched-language').textContent()).toContain('German');
    expect(await page.locator('#search-language').inputValue()).toBe('*');
    // The same query in English only finds nothing named Übelkeit.
    await page.selectOption('#search-language', '');
    await poll(() => param(page, 'ql')).toBeNull();
    await poll(() => page.locator('#search-results .term[lang=de]').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('defaults to the browser’s language when the release hosts it; the interface follows it too, and its own selector switches it, kept across reloads', async () => {
    const { page, problems } = await open('/?code=10019211', 1280, 'light', 'de-DE');
    await page.getByRole('heading', { level: 1, name: 'Kopfschmerzen' }).waitFor();
    expect(await page.locator('#language-switcher').inputValue()).toBe('de');
    expect(param(page, 'lang')).toBeNull();

    // The interface in German, from the browser's language alone (nothing chosen: no ui= in the URL).
    const ui = page.locator('#ui-switcher');
    expect(await ui.inputValue()).toBe('de');
    expect(param(page, 'ui')).toBeNull();
    await poll(() => page.evaluate(() => document.documentElement.lang)).toBe('de');
    const german = async () => ({
      placeholder: await page.locator('#search-input').getAttribute('placeholder'),
      tree: await page.locator('#tree-heading').textContent(),
      copy: await page.locator('.code-head button.copy').first().textContent(),
      nav: await page.locator('header.top nav').getAttribute('aria-label'),
    });
    await poll(german).toEqual({ placeholder: 'z. B. Erbrechen, Kopfschmerzen, 10028813', tree: 'Hierarchie', copy: 'Code kopieren', nav: 'Ansichten' });
    expect(await page.getByRole('combobox', { name: 'Begriff, Synonym oder Code' }).count()).toBe(1);
    await page.getByRole('button', { name: 'In den Recherchekorb' }).waitFor();
    // Counts in German number style, plural by German rules (one tree heading, German "Synonyme").
    expect(await page.locator('#synonyms-heading').textContent()).toMatch(/^Synonyme \(LLTs: \d+\)$/);
    // German's longer words still fit a 360 px screen without scrolling sideways.
    await page.setViewportSize({ width: 360, height: 800 });
    await poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });

    // The selector lists every interface language by its own name.
    const options = await ui.locator('option').evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent, o.getAttribute('lang')]));
    expect(options).toEqual([
      ['en', 'English', 'en'],
      ['de', 'Deutsch', 'de'],
      ['fr', 'Français', 'fr'],
      ['es', 'Español', 'es'],
      ['it', 'Italiano', 'it'],
      ['pt-BR', 'Português (Brasil)', 'pt-BR'],
      ['ja', '日本語', 'ja'],
      ['zh-Hans', '简体中文', 'zh-Hans'],
    ]);

    // Japanese interface: the words change, the names keep their own language (lang= is independent).
    await ui.selectOption('ja');
    await poll(() => param(page, 'ui')).toBe('ja');
    await poll(() => page.locator('#tree-heading').textContent()).toBe('階層構造');
    expect(await page.locator('#search-input').getAttribute('placeholder')).toBe('例：嘔吐、頭痛、10028813');
    expect(await page.locator('.code-head button.copy').first().textContent()).toBe('コードをコピー');
    await poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ja');
    expect(await page.evaluate(() => localStorage.getItem('terminology-explorer.ui'))).toBe('ja');
    expect(await page.locator('#code-title').textContent()).toBe('Kopfschmerzen');
    expect(await page.locator('#code-title').getAttribute('lang')).toBe('de');
    expect(await page.locator('#language-switcher').inputValue()).toBe('de');
    await page.waitForLoadState('networkidle');
    await axe(page, 'code page, Japanese interface, German names');
    await shoot(page, 'ui-ja-names-de');

    // A reload keeps it (ui= in the URL) …
    await page.reload({ waitUntil: 'load' });
    await poll(() => page.locator('#tree-heading').textContent()).toBe('階層構造');
    expect(await page.locator('#ui-switcher').inputValue()).toBe('ja');
    // … and so does a fresh page of the same browser without ui= (localStorage), which puts it in the URL to share.
    const fresh = await page.context().newPage();
    await fresh.goto(page.url().replace(/[?&]ui=ja/, '').replace(/\/&/, '/?'), { waitUntil: 'load' });
    await poll(() => fresh.locator('#tree-heading').textContent()).toBe('階層構造');
    await poll(() => param(fresh, 'ui')).toBe('ja');
    await fresh.close();

    // Back to German: the words, <html lang> and the remembered choice.
    await ui.selectOption('de');
    await poll(() => page.locator('#tree-heading').textContent()).toBe('Hierarchie');
    // <html lang> is set by an effect after the render that changed the words: polled, not read once.
    await poll(() => page.evaluate(() => [document.documentElement.lang, localStorage.getItem('terminology-explorer.ui')])).toEqual(['de', 'de']);
    expect(param(page, 'ui')).toBe('de');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
