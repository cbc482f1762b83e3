// Installed packages allowed to want more Node than the project declares (package.json
// `engines.node`), each with why it cannot be satisfied: npm warns EBADENGINE for these alone.
// test/shipped/engines.test.ts keeps the list honest (an entry no longer needed fails).
export const ENGINE_EXCEPTIONS: Record<string, string> = {
  // Every version wants Node 22. It is imported only by `prisma dev` (Prisma's local Postgres
  // server, with durable streams), which this project never runs; prisma itself (and every
  // command we use: generate, the client) declares ^20.19 || ^22.12 || >=24. @prisma/dev pins it.
  '@prisma/streams-local': 'prisma dev only',
};

/** Package names of npm's EBADENGINE warnings in its output. */
export function ebadengineWarnings(npmOutput: string): string[] {
  return [...npmOutput.matchAll(/EBADENGINE\s+package: '((?:@[^/'\s]+\/)?[^@'\s]+)@[^']*'/g)].map((m) => m[1]!);
}
