// ValueSet/$expand with activeOnly=true, driven by fhir-kit-client over real HTTP on the demo
// releases: non-current LLTs are left out before paging, so the expansion has a total (the
// current members), every page but the last holds `count`, and offsets continue without
// gaps or repeats — for the whole code system, a level, subtrees and SMQs, with and without
// a filter. Each activeOnly expansion must equal the full one (paged alike) without its
// inactive entries, in the same order.
import { Client } from 'fhir-kit-client';
import { describe, expect, it } from 'vitest';
import { serveTestApp, type TestApp } from '../helpers/app.ts';
import { expectValidR4 } from './r4.ts';
import { rowsAt } from '../helpers/releaseRows.ts';

const MDR = 'https://www.meddra.org';
// Demo 5.0.1 (the latest): Diarrhea's LLTs "Runs" and "Flux" and Fatigue's "Run down" and
// "Debility" are non-current; SMQ 90500004 lists the non-current "Steven-Johnson syndrome"
// (narrow), SMQ 90500005 "Hypopiesis", "Pruritis" and "Nettlerash" (broad).
const DIARRHEA = '10012727';
const GASTRO_SOC = '10017947';
const GENERAL_SIGNS_HLGT = '90100100';
const DIARRHEA_HLT = '90200121';
const RUNS_NONCURRENT = '90300310';

let t: TestApp;
let client: Client;

serveTestApp((app, url) => {
  t = app;
  client = new Client({ baseUrl: `${url}/fhir` });
}, { readOnly: true });

type Entry = { code: string; display: string; inactive?: boolean };

async function expand(vs: string, input: Record<string, string | number | boolean>): Promise<any> {
  const got: any = await client.operation({ name: '$expand', resourceType: 'ValueSet', method: 'GET', input: { url: `${MDR}${vs}`, ...input } });
  expectValidR4(got);
  return got;
}

/** Every page of an expansion, `count` at a time: each page checked, the entries in order. */
async function allPages(vs: string, count: number, input: Record<string, string | boolean>): Promise<{ total: number; entries: Entry[] }> {
  const first = await expand(vs, { ...input, count: 0 });
  const total: number = first.expansion.total;
  expect(total, 'count=0 answers the total').toEqual(expect.any(Number));
  const entries: Entry[] = [];
  for (let offset = 0; offset < total + count; offset += count) {
    const page = await expand(vs, { ...input, count, offset });
    expect(page.expansion).toMatchObject({ total, offset });
    const got: Entry[] = page.expansion.contains ?? [];
    // Full pages but the last; past the end, none.
    expect(got.length, `page at ${offset}`).toBe(Math.max(0, Math.min(count, total - offset)));
    entries.push(...got.map(({ code, display, inactive }) => ({ code, display, ...(inactive ? { inactive } : {}) })));
  }
  expect(entries).toHaveLength(total);
  expect(new Set(entries.map((e) => e.code)).size, 'no code twice').toBe(total);
  return { total, entries };
}

/** The activeOnly expansion against the full one, both paged by `count`. */
async function compare(vs: string, count: number, filter?: string) {
  const input: Record<string, string> = filter ? { filter } : {};
  const full = await allPages(vs, count, input);
  const active = await allPages(vs, count, { ...input, activeOnly: true });
  expect(active.entries.some((e) => e.inactive)).toBe(false);
  expect(active.entries).toEqual(full.entries.filter((e) => !e.inactive));
  return { full, active };
}

describe('$expand activeOnly=true: filtered before paging', () => {
  it('the whole code system: total = every code but the release’s non-current LLTs', async () => {
    const { full, active } = await compare('?fhir_vs', 400);
    const nonCurrent = (await rowsAt(t.db.prisma, 'concept', '5.0.1', 'NOT t.current')).length;
    expect(nonCurrent).toBeGreaterThan(0);
    expect(active.total).toBe(full.total - nonCurrent);
  });

  it('the whole code system with a filter (LLT matches return their current PT): a total, full pages', async () => {
    const { full, active } = await compare('?fhir_vs', 2, 'fever');
    expect(active.total).toBe(full.total);
    expect(active.total).toBeGreaterThan(2);
  });

  it('level/LLT with a filter: the matching current LLTs only', async () => {
    const { active } = await compare('?fhir_vs=level/LLT', 2, 'fever');
    const names = active.entries.map((e) => e.display);
    expect(names).toEqual(expect.arrayContaining(['Fever', 'Hay fever', 'Neutropenic fever']));
    expect(names).not.toContain('Brain fever');
    expect(names).not.toContain('Lung fever');
    expect(active.total).toBe(6);
  });

  // Few pages for the SOC: each listing of a subtree without a filter is a scan of the release's paths.
  it('isa/{SOC}, isa/{HLGT} and isa/{HLT}: the subtree on every path without its non-current LLTs', async () => {
    const soc = await compare(`?fhir_vs=isa/${GASTRO_SOC}`, 150);
    expect(soc.full.total - soc.active.total).toBeGreaterThanOrEqual(2);
    expect(soc.active.entries.map((e) => e.code)).not.toContain(RUNS_NONCURRENT);
    expect(soc.active.total).toBeGreaterThan(150); // more than one page
    const hlgt = await compare(`?fhir_vs=isa/${GENERAL_SIGNS_HLGT}`, 60);
    expect(hlgt.active.entries.map((e) => e.display)).not.toEqual(expect.arrayContaining(['Run down']));
    expect(hlgt.full.total - hlgt.active.total).toBeGreaterThanOrEqual(2);
    const hlt = await compare(`?fhir_vs=isa/${DIARRHEA_HLT}`, 3);
    expect(hlt.full.total - hlt.active.total).toBeGreaterThanOrEqual(2);
  });

  it('isa/{PT}, with and without a filter; isa/{non-current LLT} is empty', async () => {
    const pt = await compare(`?fhir_vs=isa/${DIARRHEA}`, 1);
    expect(pt.active.entries[0]).toMatchObject({ code: DIARRHEA });
    expect(pt.active.entries.map((e) => e.display)).not.toEqual(expect.arrayContaining(['Runs']));
    expect(pt.full.total - pt.active.total).toBe(2);
    const filtered = await compare(`?fhir_vs=isa/${DIARRHEA}`, 1, 'r');
    expect(filtered.full.entries.map((e) => e.display)).toContain('Runs');
    expect(filtered.active.total).toBe(filtered.full.total - 1);
    const llt = await compare(`?fhir_vs=isa/${RUNS_NONCURRENT}`, 1);
    expect([llt.full.total, llt.active.total]).toEqual([1, 0]);
  });

  it('SMQ value sets, narrow and broad, with and without a filter', async () => {
    const narrow = await compare('?fhir_vs=smq/90500004/narrow', 3);
    expect(narrow.full.entries.find((e) => e.display === 'Steven-Johnson syndrome')).toMatchObject({ inactive: true });
    expect(narrow.active.total).toBe(narrow.full.total - 1);
    const syndrome = await compare('?fhir_vs=smq/90500004/narrow', 1, 'syndrome');
    expect(syndrome.active.total).toBe(syndrome.full.total - 1);
    expect(syndrome.active.total).toBeGreaterThan(0);
    const broad = await compare('?fhir_vs=smq/90500005', 4);
    expect(broad.full.total - broad.active.total).toBe(3);
  });

  it('POST Parameters: activeOnly with count=0 answers the total of current members', async () => {
    const posted: any = await client.operation({
      name: '$expand',
      resourceType: 'ValueSet',
      input: { resourceType: 'Parameters', parameter: [{ name: 'url', valueUri: `${MDR}?fhir_vs=isa/${DIARRHEA}` }, { name: 'activeOnly', valueBoolean: true }, { name: 'count', valueInteger: 0 }] },
    });
    expectValidR4(posted);
    const listed = await expand(`?fhir_vs=isa/${DIARRHEA}`, { count: 100 });
    expect(posted.expansion.total).toBe(listed.expansion.contains.filter((c: Entry) => !c.inactive).length);
    expect(posted.expansion.contains).toBeUndefined();
    expect(posted.expansion.parameter).toContainEqual({ name: 'activeOnly', valueBoolean: true });
  });
});
