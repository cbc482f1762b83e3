// Imports every type file (each registers itself on the builder) and builds the schema.
import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.ts';
import './types/enums.ts';
import './types/Version.ts';
import './types/Code.ts';
import './types/Search.ts';
import './types/Change.ts';
import './types/Assessment.ts';
import './types/Smq.ts';
import './types/Impact.ts';
import './types/CodeList.ts';

export const schema = builder.toSchema();

/** The checked-in schema.graphql: sorted, so diffs show real changes only. */
export function printSortedSchema(): string {
  return printSchema(lexicographicSortSchema(schema));
}
