// GraphQL Code Generator: typed documents for the REST layer's operations
// (src/rest/operations/*.graphql) and for the web explorer's (web/src/operations/*.graphql),
// checked against the checked-in schema.graphql.
import type { CodegenConfig } from '@graphql-codegen/cli';

// CODEGEN_OUTPUT lets the drift test generate into a temporary file and compare.
const output = process.env.CODEGEN_OUTPUT ?? 'src/rest/operations/generated.ts';
const webOutput = process.env.CODEGEN_WEB_OUTPUT ?? 'web/src/operations/generated.ts';

const shared = {
  useTypeImports: true,
  enumsAsTypes: true,
  avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: true },
  skipTypename: true,
  scalars: { ID: 'string', JSON: 'unknown' },
};

const config: CodegenConfig = {
  schema: 'schema.graphql',
  generates: {
    [output]: {
      documents: ['src/rest/operations/*.graphql'],
      plugins: ['typescript-operations', 'typed-document-node'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: true },
        skipTypename: true,
        scalars: { ID: 'string' },
      },
    },
    // The browser bundle: documents as plain strings (documentMode 'string'), so the explorer
    // ships no GraphQL parser or printer; each still carries its result and variable types.
    [webOutput]: {
      documents: ['web/src/operations/*.graphql'],
      plugins: ['typescript-operations', 'typed-document-node'],
      config: { ...shared, documentMode: 'string' },
    },
  },
};

export default config;
