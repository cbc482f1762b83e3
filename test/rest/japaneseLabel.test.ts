// Issue 28, "done when": real-looking Japanese drug-label text against a release imported as
// two language folders (the demo 5.0.1 in English, then its Japanese folder). The documented
// behaviour: the narrative endpoints code English only and refuse Japanese text with 422
// LANGUAGE_NOT_SUPPORTED naming the supported languages (README › Languages) — never silent
// English-only results; the terms the label names are found by search in Japanese.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';
import { projectRoot } from '../../src/paths.ts';

let t: TestApp;
let key: string;
beforeAll(async () => {
  const demo = path.join(projectRoot, 'data', 'demo');
  t = await createTestApp({ dirs: [path.join(demo, '5.0.1'), path.join(demo, '5.0.1-ja')] });
  key = (await createApiKey(t.db.prisma, 'japanese-label')).key;
});
afterAll(async () => {
  await t?.cleanup();
});

// Written for this test in the style of a Japanese package insert's 副作用 section (not taken from
// any label); every term it names is a demo Japanese PT name (data/demo/5.0.1-ja/pt.asc).
const LABEL = [
  '11. 副作用',
  '次の副作用があらわれることがあるので、観察を十分に行い、異常が認められた場合には投与を中止するなど適切な処置を行うこと。',
  '11.1 重大な副作用',
  '11.1.1 肝不全（頻度不明）：AST、ALTの著しい上昇を伴う肝不全があらわれることがある。',
  '11.2 その他の副作用',
  '| | 5%以上 | 1～5%未満 |',
  '| 消化器 | 悪心、嘔吐、下痢 | 便秘 |',
  '| 精神神経系 | 頭痛 | 浮動性めまい、不眠症 |',
  '| 皮膚 | | そう痒症 |',
  '| その他 | 疲労 | 発熱、貧血 |',
].join('\n');

/** The PTs the label names, by code (demo Japanese names). */
const NAMED: Record<string, string> = {
  '10019663': '肝不全', '10028813': '悪心', '10047700': '嘔吐', '10012727': '下痢', '10010774': '便秘', '10019211': '頭痛',
  '10013573': '浮動性めまい', '10022437': '不眠症', '10037087': 'そう痒症', '10016256': '疲労', '10016558': '発熱', '10002272': '貧血',
};

describe('a Japanese drug label against a release hosted in English and Japanese', () => {
  it('the release hosts both languages', async () => {
    const r = await t.json('/versions');
    expect(r.body.results.map((v: { version: string; languages: string[] }) => [v.version, v.languages])).toEqual([['5.0.1', ['en', 'ja']]]);
  });

  it('POST /labels/classify refuses it: 422 LANGUAGE_NOT_SUPPORTED naming what is supported, in any lang', async () => {
    for (const query of ['', '?lang=ja', '?lang=en']) {
      const r = await t.json(`/labels/classify${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key, 'accept-language': 'ja' },
        body: JSON.stringify({ description: LABEL }),
      });
      expect(r.status).toBe(422);
      expect(r.headers.get('content-type')).toMatch(/problem\+json/);
      expect(r.body).toMatchObject({ code: 'LANGUAGE_NOT_SUPPORTED', status: 422, supportedLanguages: ['en'], detectedLanguage: 'ja' });
      expect(r.body.detail).toMatch(/English/);
      // No partial (English-only) coding slips through.
      expect(r.body.results).toBeUndefined();
    }
    // The same through GraphQL.
    const g = await t.graphql('query ($d: String!) { classifyLabel(input: { description: $d }, language: "ja") { terminologyCodes { code { code } } } }', { d: LABEL }, { 'x-api-key': key });
    expect(g.body.errors[0].extensions).toMatchObject({ code: 'LANGUAGE_NOT_SUPPORTED', status: 422 });
  });

  it('every term the label names is found by search in Japanese, first, with its Japanese name', async () => {
    for (const [code, name] of Object.entries(NAMED)) {
      const r = await t.json(`/codes?q=${encodeURIComponent(name)}&lang=ja&level=PT&limit=3`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-language')).toBe('ja');
      expect([name, r.body.results[0]?.code, r.body.results[0]?.term]).toEqual([name, code, name]);
    }
    // Half-width katakana and a full-width query fold as documented (NFKC).
    const halfWidth = await t.json(`/codes?q=${encodeURIComponent('ｿｳ痒症')}&lang=ja&level=PT`);
    expect(halfWidth.body.results[0]?.code).toBe('10037087');
  });
});
