// The document a server validates before it listens (src/graphql/validationWarmUp.ts) must go
// through every rule as a client's would: valid for the schema, refused only by listWork's rule
// (two coded-data fields), so a schema change that broke it would not leave the rules unwarmed.
import { describe, expect, it } from 'vitest';
import { warmUpValidation } from '../../src/graphql/validationWarmUp.ts';

describe('warmUpValidation', () => {
  it('is refused by the list-work rule alone', () => {
    expect(warmUpValidation().map((e) => e.message)).toEqual([expect.stringMatching(/^A document may select at most 1 of validateCodes.*it selects 2/)]);
  });
});
