// Which documents graphql-jit compiles (src/graphql/jit.ts): every REST operation and small
// client queries; not documents whose fragments expand past the bound, however they are built.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { compiles, expandedFieldCount, MAX_JIT_FIELDS } from '../../src/graphql/jit.ts';

const opsDir = path.join(import.meta.dirname, '../../src/rest/operations');

describe('graphql-jit eligibility', () => {
  it('compiles every REST operation', () => {
    const files = readdirSync(opsDir).filter((f) => f.endsWith('.graphql'));
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) expect(compiles(parse(readFileSync(path.join(opsDir, f), 'utf8'))), f).toBe(true);
  });

  it('counts fragment fields at every use: 100 aliases of a 6-field fragment are 700 fields', () => {
    const aliases = Array.from({ length: 100 }, (_, i) => `c${i}: code(code: "${i}") { ...D }`).join(' ');
    const doc = parse(`{ ${aliases} } fragment D on Code { code term level parents { code { code } } }`);
    expect(expandedFieldCount(doc, 10_000)).toBe(100 * 7);
    expect(compiles(doc)).toBe(false);
    expect(compiles(parse('{ code(code: "1") { code term children { code { code term } } } }'))).toBe(true);
  });

  // Counting every field would not finish: reaching the bound ends the walk.
  it('stops counting at the bound: fragments fanning out to 10^10 fields', () => {
    const defs = Array.from({ length: 10 }, (_, i) => `fragment F${i} on Code { ${Array.from({ length: 10 }, (_, j) => `a${j}: parents { code { ...F${i + 1} } }`).join(' ')} }`);
    defs[9] = 'fragment F9 on Code { code }';
    const doc = parse(`{ code(code: "1") { ...F0 } } ${defs.join(' ')}`);
    expect(expandedFieldCount(doc)).toBe(MAX_JIT_FIELDS + 1);
  });
});
