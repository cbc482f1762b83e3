import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/setup/sequencer.ts';

// Node resolves `graphql` to its CommonJS entry (no exports map), Vite to index.mjs:
// two instances of graphql would break instanceof checks, so tests use Node's.
const graphqlEntry = createRequire(import.meta.url).resolve('graphql');

// The suite runs on the embedded database (PGlite) and, when TEST_DATABASE_URL
// points at a PostgreSQL server, a second time against it (each test file gets
// a fresh database there). Tests that never touch a database run once; tests of
// server-mode behaviour (test/server: replicas, outages) run only against PostgreSQL.
const postgres = process.env.TEST_DATABASE_URL;

// Files with no database behaviour (no store, no database client), and HTTP-layer files whose
// assertions are about the transport, not what the database answers (rate and body limits, CORS,
// 405s, static bodies): the PostgreSQL pass would run them again for nothing. A new file runs on both unless
// it is listed here.
const NO_DATABASE = [
  'test/assessment/vocabularySource.test.ts', 'test/assessment/vocabulary-budget.test.ts', 'test/cli/loader.test.ts', 'test/config/loadConfig.test.ts',
  'test/domain/clientText.test.ts', 'test/domain/intersect-lists.test.ts', 'test/domain/language-names-failure.test.ts', 'test/domain/languageTags.test.ts', 'test/domain/languageText.test.ts', 'test/graphql/jit.test.ts', 'test/graphql/schema-drift.test.ts',
  'test/http/clientIp.test.ts', 'test/http/compressed-bodies.test.ts', 'test/http/cors.test.ts', 'test/http/etag.test.ts',
  'test/http/methods.test.ts', 'test/http/protection.test.ts', 'test/http/windowCounter.test.ts', 'test/impact/csv.test.ts',
  'test/http/early413.test.ts', 'test/transport/jsonStream.test.ts', 'test/http/rateLimitConnect.test.ts',
  'test/nlp/assess.test.ts', 'test/nlp/bounds.test.ts', 'test/nlp/calibration.test.ts', 'test/nlp/classify.test.ts',
  'test/nlp/context.test.ts', 'test/nlp/generalisation.test.ts', 'test/nlp/identify.test.ts', 'test/nlp/label-sections-data.test.ts',
  'test/nlp/label.test.ts', 'test/nlp/text.test.ts', 'test/nlp/vocabulary.test.ts', 'test/nlp/eval.test.ts',
  'test/observability/config.test.ts', 'test/observability/ops.test.ts', 'test/observability/workerExporter.test.ts', 'test/shipped/engines.test.ts', 'test/smq/algorithm.test.ts',
  // Caches and clients over answers the other files check on both databases: yoga's document
  // caches, the language a cache entry is keyed on, an npm FHIR client's interoperability (the
  // FHIR answers: test/fhir/operations), the index cache's byte bounds, the OpenAI provider's
  // HTTP exchange and fallback.
  'test/graphql/document-cache.test.ts', 'test/graphql/input-limits.test.ts', 'test/http/languageCacheKey.test.ts', 'test/fhir/client.test.ts', 'test/domain/index-memory.test.ts',
  'test/assessment/openai.test.ts',
  // The API's description and the GraphQL request policy (what one request may ask for, and how
  // it is refused): decided before any database is asked.
  'test/rest/openapi.test.ts', 'test/graphql/list-work.test.ts',
  // Which middleware each router mounts (body limits, the key, cache headers, the rate count), and
  // Node's fast path for warm answers byte for byte against the Fetch adapter's: both over the same
  // answers, whatever database gave them.
  'test/http/routeMiddleware.test.ts', 'test/http/nodeListener.test.ts',
  // What a store only sets up, with nothing asserted about what the database answers: V8's heap
  // bound of `terminology serve` (a process matter; server-mode starts: test/server/startup), the
  // bigram postings against the scan they replace over one index (the language index each database
  // gives: test/domain/languageIndex-snapshot), the engine workers' memory accounting (the
  // vocabulary sources read from each database: test/assessment/vocabulary-from-index).
  'test/cli/heap-limit.test.ts', 'test/domain/cjkBigrams.test.ts', 'test/assessment/engine-pool-memory.test.ts',
  // The embedded store's own upgrade between PGlite versions (a PostgreSQL server is upgraded by its operator).
  'test/db/storeUpgrade.test.ts',
  // An index's overlay and its materialisation are arrays in memory over the index each database
  // builds from its rows (which test/domain/releaseIndex-* check on both): a synthetic chain imported
  // twice for the same arrays is a minute of the PostgreSQL pass for nothing.
  'test/domain/index-overlay.test.ts',
  // Search through an overlay view is the same arrays again (the newest's index, the release's delta),
  // compared with the whole index built from the same rows: thousands of queries, half a minute of
  // CPU, for nothing a second database could change.
  'test/domain/index-overlay-search.test.ts',
  // The typo pass and paging against scoring every name: the arrays of the index each database
  // loads (test/domain/search checks that on both), searched and scored in memory.
  'test/domain/search-typo-exhaustive.test.ts',
  // A change record's JSON text against JSON.stringify's, over records made in memory.
  'test/domain/changes-stored-json.test.ts',
];

// Files whose assertions include latency under load, measured by a probe: each runs one at a time
// with nothing else on the other core. The hostile-cost suite stays in `npm test` (issue 27 asks for
// it there), after everything else, on each database; the 5,000-request fuzz and the engine pool's latency run in
// `npm run test:bench` after the benchmarks, on each database (a minute or two of `npm test` on one core).
const ALONE = ['test/shipped/hostile-cost.test.ts'];
const LOAD = ['test/shipped/hostile.test.ts', 'test/e2e/engine-pool.test.ts', 'test/shipped/uploads-probe.test.ts'];

// The benchmark smoke test (test/bench/) starts the bench script with its own stores and servers:
// a minute of process start-ups that proves the bench still runs, not that the product works. It
// is out of `npm test` and runs as `npm run test:bench` (TE_SUITE=bench), which .ci/run calls too,
// with the shipped server's memory budget under 50,000 distinct searches (minutes of wrk).
const benchOnly = process.env.TE_SUITE === 'bench';
// The coding-quality evaluation (TAC 2017, cross-validated: a minute of CPU, one database; and the test-half
// scorer's own test, half a minute: an evaluation release imported in a process) is a measurement too,
// and so are the full-size builds: the engine pool's (two 111,000-term releases built in a process of
// its own, its event loop's longest turn timed: 10-16 s of CPU) and buildVocabulary's (~10 s); and the
// caches-full test (test/shipped/memory-caches.test.ts): 80 s of the server's CPU at the default budget.
// The migration to ranged storage converts a store built on the schema before it (several releases and
// languages, every answer recorded before and compared after): a minute of imports and requests per
// database for a migration file that never changes once shipped. test:bench runs it on both databases
// (the importer's ranges themselves are tested in npm test: test/importer/ranges.test.ts).
const MIGRATIONS = ['test/db/rangedMigration.test.ts'];
// The first search on an older release after a start, held to 150 ms of serving-thread CPU per turn
// (test/shipped/older-release-first-search.test.ts): a performance bound with a shipped server of its
// own; the warm-up's behaviour (nothing kept, same answers) is test/services/olderReleaseWarming.test.ts's, in npm test.
const BENCH = ['test/shipped/older-release-first-search.test.ts', 'test/bench/**/*.test.ts', 'test/shipped/memory-budget.test.ts', 'test/shipped/memory-caches.test.ts', 'test/nlp/eval.test.ts', 'test/nlp/eval-tac-test.test.ts', 'test/assessment/engine-full-size.test.ts', 'test/nlp/vocabulary-full-size.test.ts'];

export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlEntry }] },
  test: {
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/wait-templates.ts', 'test/setup/file-cpu.ts', 'test/setup/file-profile.ts'],
    // The files that need no store template first (the templates build meanwhile), then the
    // longest first, so that no long file runs alone at the end (test/setup/sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    // Each file's time, for README › Testing and the order above (test/setup/file-times.ts).
    reporters: ['default', './test/setup/file-times.ts'],
    // Many files wait on child processes, sockets and the PostgreSQL server rather than the
    // CPU: one file per core (vitest's default is one fewer) keeps both cores of CI busy.
    maxWorkers: Math.max(2, availableParallelism()),
    // Test files of one worker share loaded modules (each builds its own app, database and
    // services): loading the product's modules anew for every file cost ~100 s of a run.
    isolate: false,
    // PGlite's WebAssembly on V8's baseline tier only in the workers too (test/setup/node-flags.ts).
    execArgv: process.env.TE_WORKER_V8 === 'default' ? [] : ['--liftoff-only'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: benchOnly
      ? [
          { extends: true as const, test: { name: 'bench', include: [...BENCH, ...MIGRATIONS], env: { TEST_DB: 'pglite' } } },
          ...(postgres ? [{ extends: true as const, test: { name: 'bench-postgres', include: MIGRATIONS, env: { TEST_DB: 'postgres' } } }] : []),
          {
            extends: true as const,
            test: { name: 'load-pglite', include: LOAD, env: { TEST_DB: 'pglite' }, fileParallelism: false, sequence: { groupOrder: 1 } },
          },
          ...(postgres
            ? [
                {
                  extends: true as const,
                  test: {
                    name: 'load-postgres',
                    include: LOAD.filter((f) => !f.startsWith('test/e2e/')),
                    env: { TEST_DB: 'postgres' },
                    fileParallelism: false,
                    sequence: { groupOrder: 2 },
                  },
                },
              ]
            : []),
        ]
      : [
          { extends: true as const, test: { name: 'pglite', include: ['test/**/*.test.ts'], exclude: ['test/server/**', ...BENCH, ...MIGRATIONS, ...LOAD, ...ALONE], env: { TEST_DB: 'pglite' } } },
          {
            extends: true as const,
            test: { name: 'pglite-alone', include: ALONE, env: { TEST_DB: 'pglite' }, fileParallelism: false, sequence: { groupOrder: 1 } },
          },
          ...(postgres
            ? [
                {
                  extends: true as const,
                  test: {
                    name: 'postgres',
                    include: ['test/**/*.test.ts'],
                    // No database in these: the pglite pass runs them once.
                    exclude: ['test/e2e/**', 'test/web/**', ...BENCH, ...MIGRATIONS, ...LOAD, ...ALONE, 'test/architecture.test.ts', ...NO_DATABASE],
                    env: { TEST_DB: 'postgres' },
                  },
                },
                {
                  extends: true as const,
                  test: { name: 'postgres-alone', include: ALONE, env: { TEST_DB: 'postgres' }, fileParallelism: false, sequence: { groupOrder: 2 } },
                },
              ]
            : []),
        ],
  },
});
