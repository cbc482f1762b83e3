// Recode suggestions for retired codes (absent from the target release): from the structure
// first — the LLT's PT, the same name elsewhere, a close sibling under the same HLT — then text
// similarity only at or above a floor, otherwise "no good match" naming the HLT to look under.
// Every reason states its basis. Realistic cases from the demo releases (CTCAE 4.03 → 5.0
// retired eight PTs), and a small fixture for the cases the demo does not have.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { miniSpec } from '../helpers/medascii.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';

async function suggestions(t: TestApp, from: string, to: string, rows: { rowId: string; code: string; term?: string }[]) {
  const key = (await createApiKey(t.db.prisma, 'retired')).key;
  const r = await t.json('/impact', { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ from, to, rows }) });
  expect(r.status).toBe(200);
  return Object.fromEntries(
    r.body.rows.map((row: any) => [row.rowId, row.impacts.find((i: any) => i.kind === 'CODE_RETIRED')?.suggestion]),
  ) as Record<string, { action: string; code: string | null; term: string | null; reason: string }>;
}

describe('retired codes in the demo releases (4.03 → 5.0)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it('no lexical guess: a retired PT without a close name gets "no good match" and the HLT to look under', async () => {
    const s = await suggestions(t, '4.03', '5.0', [
      { rowId: 'acs', code: '10051592', term: 'Acute coronary syndrome' },
      { rowId: 'wpw', code: '10048015' },
      { rowId: 'spleen', code: '10041633' },
    ]);
    // Was: "review → Retinoic acid syndrome (fuzzy 0.41)".
    expect(s.acs).toMatchObject({ action: 'REVIEW', code: null, term: null });
    expect(s.acs!.reason).toMatch(/^No good match in release 5\.0 .*: code the case again\. Look under HLT 90200093 'Ischemic coronary conditions'\.$/);
    expect(s.wpw).toMatchObject({ action: 'REVIEW', code: null });
    expect(s.wpw!.reason).toMatch(/Look under HLT 90200092 'Cardiac conduction disorders'/);
    // 'Sinus disorder' (0.48) is below the floor.
    expect(s.spleen).toMatchObject({ action: 'REVIEW', code: null });
    expect(s.spleen!.reason).toMatch(/'Sinus disorder', has similarity 0\.48, below 0\.55/);
  });

  it('a close sibling under the same HLT is offered for review, saying so', async () => {
    const s = await suggestions(t, '4.03', '5.0', [{ rowId: 'skin', code: '10065846' }]);
    expect(s.skin).toMatchObject({ action: 'REVIEW', code: '10065844', term: 'Intraoperative ear injury' });
    expect(s.skin!.reason).toMatch(/^Basis: sibling under the same HLT 90200231 'Intraoperative organ injuries'\..*similarity 0\.69/);
  });

  it('text similarity says what it is and never claims more: Menopause → Early menopause is a review at 0.63, not 1.00', async () => {
    const s = await suggestions(t, '4.03', '5.0', [{ rowId: 'm', code: '10027308', term: 'Menopause' }]);
    expect(s.m).toMatchObject({ action: 'REVIEW', term: 'Early menopause' });
    expect(s.m!.reason).toMatch(/^Basis: text similarity\. .*name similarity 0\.63/);
  });
});

describe('retired codes whose structure answers (fixture)', () => {
  let t: TestApp;
  beforeAll(async () => {
    const base = miniSpec('1.0');
    // 1.1: LLT 'Throwing up' retired (its PT Vomiting stays); PT Dizziness and its LLT retired,
    // 'Dizziness' now an LLT of Ménière's-like vertigo under a new code; PT Nausea retired.
    const next = {
      ...miniSpec('1.1'),
      pts: base.pts.filter((p) => p[0] !== 10013573 && p[0] !== 10028813),
      llts: [...base.llts.filter((l) => ![93000001, 93000009, 93000004].includes(l[0])), [93000011, 'Dizziness', 10027183] as (typeof base.llts)[number]],
    };
    t = await createTestApp({ fixtures: [base, next] });
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it('its PT, the same name elsewhere, or no good match under the HLT', async () => {
    const s = await suggestions(t, '1.0', '1.1', [
      { rowId: 'llt', code: '93000001', term: 'Throwing up' },
      { rowId: 'name', code: '10013573' },
      { rowId: 'none', code: '10028813', term: 'Nausea' },
    ]);
    expect(s.llt).toMatchObject({ action: 'RECODE', code: '10047700', term: 'Vomiting' });
    expect(s.llt!.reason).toMatch(/^Basis: its PT\./);
    expect(s.name).toMatchObject({ action: 'RECODE', code: '93000011', term: 'Dizziness' });
    expect(s.name!.reason).toMatch(/^Basis: same name\. 'Dizziness' is a current LLT of PT 10027183/);
    expect(s.none).toMatchObject({ action: 'REVIEW', code: null });
    expect(s.none!.reason).toMatch(/No good match in release 1\.1.*Look under HLT 92000001 'Nausea and vomiting symptoms'/);
  });
});
