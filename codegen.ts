// GraphQL Code Generator: typed documents for the REST layer's operations
// (src/rest/operations/*.graphql), checked against the checked-in schema.graphql.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['src/rest/operations/*.graphql'],
  generates: {
    'src/rest/operations/generated.ts': {
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
  hooks: {},
};

export default config;
