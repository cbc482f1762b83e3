// CSV in and out of impact analysis, without a database: RFC 4180 parsing as a stream
// (quotes, embedded commas and line breaks, BOM, header aliases), the row bound, and
// cells a spreadsheet opens as text.
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { csvCell, csvLine, impactCsv, parseCodedRowsCsv } from '../../src/domain/impact/csv.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { parseCodedRows } from '../../web/src/csv.ts';

async function* chunks(text: string, size = 7): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

describe('parseCodedRowsCsv', () => {
  it('reads quoted fields, embedded commas, quotes and line breaks across chunk boundaries, with line numbers', async () => {
    const text = '\uFEFFCode,Row ID,Term\r\n10047848,a,"Watering, eyes"\r\n90301218,"b ""2""","two\nlines"\r\n\r\n10028813,c\r\n';
    const { rows, problems } = await parseCodedRowsCsv(chunks(text), 10);
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      { rowId: 'a', code: '10047848', term: 'Watering, eyes', caseId: null, line: 2, position: 1 },
      { rowId: 'b "2"', code: '90301218', term: 'two\nlines', caseId: null, line: 4, position: 2 },
      { rowId: 'c', code: '10028813', term: null, caseId: null, line: 6, position: 3 },
    ]);
  });

  it('refuses more rows than the bound, a header without rowId and code, and malformed CSV', async () => {
    const many = `rowId,code\n${Array.from({ length: 4 }, (_, i) => `r${i},1`).join('\n')}`;
    await expect(parseCodedRowsCsv(chunks(many), 3)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', errors: { rows: [expect.stringContaining('at most 3 rows')] } });
    await expect(parseCodedRowsCsv(chunks('a,b\n1,2\n'), 3)).rejects.toBeInstanceOf(DomainError);
    await expect(parseCodedRowsCsv(chunks(''), 3)).rejects.toMatchObject({ errors: { file: [expect.stringContaining('empty')] } });
    await expect(parseCodedRowsCsv(chunks('rowId,code\n"a,1\n'), 3)).rejects.toMatchObject({ errors: { file: [expect.stringMatching(/^malformed CSV/)] } });
  });

  it('reports records with more fields than the header; trailing empty fields are fine', async () => {
    const { rows, problems } = await parseCodedRowsCsv(chunks('rowId,code\na,1,,\nb,2,x\n'), 10);
    expect(rows.map((r) => r.rowId)).toEqual(['a']);
    expect(problems).toEqual([{ rowId: 'b', position: 2, line: 3, field: 'row', reason: 'more fields than the 2 columns of the header' }]);
  });
});

describe('parseCodedRowsCsv line bounds (issue 27)', () => {
  async function* once(text: string): AsyncGenerator<Uint8Array> {
    yield Buffer.from(text);
  }

  it('refuses a line of a million empty fields before the parser builds it, naming the line', async () => {
    const started = performance.now();
    const text = `rowId,code\nr0,10047848\nr1,10047848,${','.repeat(1_000_000)}\nr2,10047848\n`;
    await expect(parseCodedRowsCsv(once(text), 10)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', errors: { file: [expect.stringMatching(/^line 3 is longer than 65536 bytes/)] } });
    // Refused at the first 64 KB piece past the bound, not after reading the line.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('refuses a line longer than the bound even without a line break, in any chunking', async () => {
    await expect(parseCodedRowsCsv(chunks(`rowId,code,term\na,1,${'x'.repeat(70_000)}`, 4096), 10)).rejects.toMatchObject({ errors: { file: [expect.stringMatching(/^line 2 is longer/)] } });
  });

  it('refuses more than 32 fields on a short line, and takes 32', async () => {
    await expect(parseCodedRowsCsv(chunks(`rowId,code\na,1${',x'.repeat(40)}\n`), 10)).rejects.toMatchObject({ errors: { file: [expect.stringMatching(/^line 2 has 42 fields; at most 32/)] } });
    const { rows, problems } = await parseCodedRowsCsv(chunks(`rowId,code\na,1${','.repeat(30)}\n`), 10);
    expect(rows).toHaveLength(1);
    expect(problems).toEqual([]);
  });
});

describe('CSV output', () => {
  it('quotes per RFC 4180 and neutralises formula-looking cells', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    for (const s of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx']) expect(csvCell(s)).toBe(`'${s}`);
    expect(csvCell('=HYPERLINK("x","y")')).toBe(`"'=HYPERLINK(""x"",""y"")"`);
    expect(csvCell(10047848)).toBe('10047848');
    expect(csvCell(null)).toBe('');
    expect(csvLine(['a', null, 'b,c'])).toBe('a,,"b,c"\r\n');
  });

  it('one line per row and impact, unchanged rows once, bad rows last; every line as wide as the header', () => {
    const state = { term: 'T', pt: { code: 1, term: 'P' }, soc: { code: 2, term: 'S' } };
    const suggestion = { action: 'KEEP', code: 5, term: 'T', reason: 'r' };
    const text = [
      ...impactCsv({
        rows: [
          { rowId: 'a', code: 5, recordedTerm: null, line: 2, position: 1, before: state, after: state, impacts: [] },
          {
            rowId: 'b',
            code: 5,
            recordedTerm: '-x',
            line: 3,
            position: 2,
            before: state,
            after: null,
            impacts: [
              { kind: 'RENAMED', details: 'd', before: 'x', after: 'y', suggestion },
              { kind: 'CODE_RETIRED', details: 'd', before: 'x', after: null, suggestion },
            ],
          },
        ],
        errors: [{ rowId: 'c', line: 4, position: 3, field: 'code', reason: 'code is required' }],
      }),
    ].join('');
    const records: string[][] = parse(text, { bom: true });
    expect(records.every((r) => r.length === records[0]!.length)).toBe(true);
    expect(records.slice(1).map((r) => [r[0], r[4], r[5]])).toEqual([
      ['a', 'UNCHANGED', ''],
      ['b', 'IMPACTED', 'RENAMED'],
      ['b', 'IMPACTED', 'CODE_RETIRED'],
      ['c', 'INVALID', ''],
    ]);
    expect(records[2]![3]).toBe("'-x");
  });
});

describe("the explorer's reader (web/src/csv.ts, csv-parse's browser build)", () => {
  // One contract, two ends: what the page shows before uploading is what the server will read.
  const texts = [
    '\uFEFFCode,Row ID,Term\r\n10047848,a,"Watering, eyes"\r\n90301218,"b ""2""","two\nlines"\r\n\r\n10028813,c\r\n',
    'rowId,code,term,caseId\nr1,10047848,=HYPERLINK("x"),case 1\n  \nr2,10028813,,case 1\n',
    'rowId,code\na,1,,\nb,2,x\nc,3\n',
    'code,rowId\r\n1,"multi\r\nline"\r\n2,z\r\n',
  ];
  it.each(texts)('reads the rows, lines and problems the server reads: %j', async (text) => {
    const server = await parseCodedRowsCsv(chunks(text), 10);
    const browser = parseCodedRows(text, 10);
    expect(browser.header).toBe(true);
    expect(browser.rows).toEqual(
      server.rows.map((r) => ({ rowId: r.rowId?.trim() ?? '', code: r.code?.trim() ?? '', term: r.term || undefined, ...(r.caseId ? { caseId: r.caseId } : {}), line: r.line })),
    );
    expect(browser.problems).toEqual(server.problems);
  });

  it('stops at the row bound and names malformed CSV as the server does', async () => {
    expect(() => parseCodedRows('rowId,code\na,1\nb,2\nc,3\n', 2)).toThrow('more than 2 rows');
    expect(parseCodedRows('rowId,code\na,1\n', 1).rows).toHaveLength(1);
    const text = 'rowId,code\n"a,1\n';
    await expect(parseCodedRowsCsv(chunks(text), 3)).rejects.toMatchObject({ errors: { file: ['malformed CSV at line 2 (CSV_QUOTE_NOT_CLOSED)'] } });
    expect(parseCodedRows(text, 3).problems).toEqual([{ rowId: null, position: 0, line: 2, field: 'file', reason: 'malformed CSV at line 2 (CSV_QUOTE_NOT_CLOSED)' }]);
  });
});
