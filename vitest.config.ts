import { defineConfig } from 'vitest/config';

// The suite runs on the embedded database (PGlite) and, when TEST_DATABASE_URL
// points at a PostgreSQL server, a second time against it (each test file gets
// a fresh database there). Tests that never touch a database run once.
const postgres = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true as const, test: { name: 'pglite', include: ['test/**/*.test.ts'], env: { TEST_DB: 'pglite' } } },
      ...(postgres
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: ['test/**/*.test.ts'],
                exclude: ['test/unit/**', 'test/e2e/**'],
                env: { TEST_DB: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
