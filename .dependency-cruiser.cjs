// Architecture rules of the whole repository (src/, web/, tools/, bench/, scripts/, test/), checked by test/architecture.test.ts (part of `npm test`) and printed
// by `npm run arch`. Paths are relative to the repository root. Type-only imports count
// (tsPreCompilationDeps), and so do dynamic import()s.
//
// Layers, lowest first: src/db ← src/domain ← src/services ← src/transport ← src/graphql ← src/rest ← src/http.
// A layer may import any layer below it, never one above it. src/transport/ holds what the HTTP
// surfaces share (request env, problem details, the key guard). src/fhir/ sits beside GraphQL
// and REST: above src/transport/, below the HTTP app, importing neither GraphQL nor REST.
const LAYERS = ['db', 'domain', 'services', 'transport', 'graphql', 'rest', 'http'];

const layerRules = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${layer}`,
  comment: `src/${layer}/ is below ${LAYERS.slice(i + 1).map((l) => `src/${l}/`).join(', ')} and imports none of them`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${LAYERS.slice(i + 1).join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import cycles anywhere in the repository (type-only imports included)',
      severity: 'error',
      from: { path: '^(src|web|tools|bench|scripts|test)/' },
      to: { circular: true },
    },
    {
      name: 'config-at-the-bottom',
      comment: 'configuration, paths and the logger are read by every layer and import none (src/net/ parses addresses for the config)',
      severity: 'error',
      from: { path: '^src/(config|paths|logger)\\.ts$' },
      to: { path: '^src/', pathNot: ['^src/net/', '^src/(config|paths|logger)\\.ts$'] },
    },
    {
      name: 'runtime-at-the-bottom',
      comment: 'src/runtime/ holds Node runtime helpers every layer may use (scoped async storage) and imports nothing of src/',
      severity: 'error',
      from: { path: '^src/runtime/' },
      to: { path: '^src/', pathNot: '^src/runtime/' },
    },
    {
      name: 'observability-below-the-surfaces',
      comment: 'metrics and traces are set up by the server and read by every layer: they import no surface (GraphQL, REST, FHIR, HTTP, transport) and no service',
      severity: 'error',
      from: { path: '^src/observability/' },
      to: { path: '^src/(graphql|rest|fhir|http|transport|services|domain|db|cli)/|^src/(compose|server)\\.ts$' },
    },
    {
      name: 'fhir-beside-graphql-and-rest',
      comment: 'the FHIR surface calls services and domain like the GraphQL schema does (and src/transport/ like REST), never GraphQL, REST or the HTTP app that mounts it',
      severity: 'error',
      from: { path: '^src/fhir/' },
      to: { path: '^src/(graphql|rest|http)/' },
    },
    {
      name: 'layer-fhir',
      comment: 'src/fhir/ is a surface above the services: nothing below the HTTP app imports it',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/fhir/', '^src/http/', '^src/(compose|server)\\.ts$', '^src/cli/'] },
      to: { path: '^src/fhir/' },
    },
    {
      name: 'cli-at-the-top',
      comment: 'src/cli/ is the entry point: it starts the server and runs commands; nothing else in src/ imports it (the server gets what it runs for the CLI passed in)',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'engine-below-importer',
      comment: 'the coding engine and its wrapper (src/nlp/, src/assessment/) read releases from the store; the importer, the surfaces and the entry points are above them',
      severity: 'error',
      from: { path: '^src/(nlp|assessment)/' },
      to: { path: '^src/(importer|services|graphql|rest|fhir|http|cli)/|^src/(compose|server)\\.ts$' },
    },
    {
      name: 'importer-below-surfaces',
      comment: 'the importer writes releases through the domain; it knows nothing of the use cases, the surfaces or the entry points',
      severity: 'error',
      from: { path: '^src/importer/' },
      to: { path: '^src/(services|graphql|rest|fhir|http|cli)/|^src/(compose|server)\\.ts$' },
    },
    {
      name: 'web-through-the-api',
      comment: 'the explorer (web/) is browser code: it reaches the service through its API, never through its modules or the development folders',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^(src|tools|bench|scripts|test)/' },
    },
    {
      name: 'dev-tools-layers',
      comment: 'development code layers: src ← tools ← scripts, bench ← test; tools import neither scripts, bench nor test; scripts and bench not each other nor test',
      severity: 'error',
      from: { path: '^(tools|scripts|bench)/' },
      to: { path: '^test/' },
    },
    {
      name: 'tools-below-scripts-and-bench',
      severity: 'error',
      from: { path: '^tools/' },
      to: { path: '^(scripts|bench)/' },
    },
    {
      name: 'scripts-and-bench-apart',
      severity: 'error',
      from: { path: '^(scripts|bench)/' },
      to: { path: '^(scripts|bench)/', pathNot: '^$1/' },
    },
    ...layerRules,
    {
      name: 'core-not-transport',
      comment: 'configuration, domain, coding engine, assessment, importer and services know nothing of HTTP, REST, GraphQL or FHIR',
      severity: 'error',
      from: { path: '^src/(config\\.ts$|domain/|nlp/|assessment/|importer/|services/)' },
      to: { path: '^src/(http|rest|graphql|fhir|transport)/' },
    },
    {
      name: 'nlp-no-database',
      comment: 'the coding engine (src/nlp/) never touches a database: no src/db, src/domain, src/generated (Prisma), src/services, no Prisma or driver package',
      severity: 'error',
      from: { path: '^src/nlp/' },
      to: { path: ['^src/(db|domain|generated|services)/', '(^|/)node_modules/(@prisma/|prisma/|pg/|@electric-sql/|pglite-prisma-adapter/)'] },
    },
    {
      name: 'src-not-dev-tools',
      comment: 'the service never imports development code (tools/, scripts/, bench/, test/)',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(tools|scripts|bench|test)/' },
    },
    {
      name: 'no-orphans',
      comment:
        'every file of src/ is reached from an entry point (the CLI, the engine worker and its tsx loader); a file nothing imports is dead code or a development tool (tools/)',
      severity: 'error',
      from: {
        orphan: true,
        path: '^src/',
        pathNot: ['^src/cli/index\\.ts$', '^src/assessment/nlpWorker\\.ts$', '^src/assessment/nlpWorkerTsx\\.mjs$', '\\.d\\.ts$', '^src/generated/'],
      },
      to: {},
    },
    {
      // Stronger than no-orphans (dependency-cruiser's orphans import nothing either): a file that
      // imports others but that no entry point reaches, directly or not, is dead code too.
      name: 'reachable-from-entry',
      comment: 'every file of src/ is reached (type-only imports included) from src/cli/index.ts or a worker entry (the engine, the OTLP export, the changes worker); dead code or a development tool (tools/) otherwise',
      severity: 'error',
      from: { path: ['^src/cli/index\\.ts$', '^src/assessment/nlpWorkerTsx\\.mjs$', '^src/observability/exportWorkerTsx\\.mjs$', '^src/domain/changes/offThreadWorkerTsx\\.mjs$'] },
      to: {
        path: '^src/',
        pathNot: ['^src/cli/index\\.ts$', '^src/assessment/nlpWorkerTsx\\.mjs$', '^src/observability/exportWorkerTsx\\.mjs$', '^src/domain/changes/offThreadWorkerTsx\\.mjs$', '\\.d\\.ts$', '^src/generated/'],
        reachable: false,
      },
    },
  ],
  options: {
    // Prisma's generated client is checked as a dependency target only, not cruised itself.
    doNotFollow: { path: ['node_modules', '^src/generated/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
