// GraphQL Code Generator: typed documents for the REST layer's operations
// (src/rest/operations/*.graphql), checked against the checked-in schema.graphql.
import type { CodegenConfig } from '@graphql-codegen/cli';

// CODEGEN_OUTPUT lets the drift test generate into a temporary file and compare.
const output = process.env.CODEGEN_OUTPUT ?? 'src/rest/operations/generated.ts';

const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['src/rest/operations/*.graphql'],
  generates: {
    [output]: {
      plugins: ['typescript-operations', 'typed-document-node'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: true },
        skipTypename: true,
        scalars: { ID: 'string' },
      },
    },
  },
};

export default config;
