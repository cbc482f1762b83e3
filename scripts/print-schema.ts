// Writes schema.graphql from the Pothos schema (tests fail when it drifts).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { printSortedSchema } from '../src/graphql/schema.ts';
import { projectRoot } from '../src/paths.ts';

writeFileSync(path.join(projectRoot, 'schema.graphql'), `${printSortedSchema()}\n`);
console.log('wrote schema.graphql');
