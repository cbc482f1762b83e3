// README.md's fenced blocks, for the tests that run the README as written (test/shipped/).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { projectRoot } from '../../src/paths.ts';

/** Fenced ```sh blocks of README.md, in order. */
export function readmeShellBlocks(): string[] {
  const text = readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** Fenced blocks of one `## title` section of README.md, in order: the info string (`sh`, `ts file=client.ts`) and the text. */
export function readmeSectionBlocks(title: string): { info: string; body: string }[] {
  const text = readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
  const start = text.indexOf(`\n## ${title}\n`);
  expect(start, `README section ${title}`).toBeGreaterThan(0);
  const end = text.indexOf('\n## ', start + 1);
  return [...text.slice(start, end).matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => ({ info: m[1]!, body: m[2]! }));
}
