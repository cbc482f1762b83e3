// Client values in error messages are clipped to 40 characters, wherever graphql-js puts them.
import { describe, expect, it } from 'vitest';
import { clip, clipMessage } from '../../src/domain/clientText.ts';

const long = 'Z'.repeat(5000);
const clipped = `${'Z'.repeat(40)}…`;

describe('clip', () => {
  it('keeps short values and cuts long ones without splitting a surrogate pair', () => {
    expect(clip('5.0')).toBe('5.0');
    expect(clip(long)).toBe(clipped);
    expect(clip(`${'a'.repeat(39)}😀😀`)).toBe(`${'a'.repeat(39)}…`);
  });
});

describe('clipMessage', () => {
  it.each([
    [`Variable "$v" got invalid value "${long}"; Int cannot represent non-integer value: "${long}"`, `Variable "$v" got invalid value "${clipped}"; Int cannot represent non-integer value: "${clipped}"`],
    [`Cannot query field "${long}" on type "Query".`, `Cannot query field "${clipped}" on type "Query".`],
    [`Syntax Error: Unexpected Name "${long}".`, `Syntax Error: Unexpected Name "${clipped}".`],
    [`String cannot represent a non string value: [${Array(500).fill('1').join(', ')}]`, `String cannot represent a non string value: [${'1, '.repeat(13)}…`],
    [`Expected value of type "String!", found ${long}.`, `Expected value of type "String!", found ${clipped}.`],
  ])('%#', (message, expected) => {
    expect(clipMessage(message)).toBe(expected);
  });

  it('leaves messages without long client values alone', () => {
    const m = 'Cannot query field "foo" on type "Query". Did you mean "code"?';
    expect(clipMessage(m)).toBe(m);
  });
});
