// `npm install` on a supported Node installs cleanly (issue 26, defect 7): npm prints an
// EBADENGINE warning for every installed package whose `engines.node` does not admit the
// running Node. package-lock.json records each package's `engines`, so checking them against
// every Node the project declares (package.json `engines.node`) catches a dependency bump that
// brings the noise back on any supported Node — without a network and without installing.
// The package.json `overrides` hold the Node 20 compatible versions (see README › Quick start).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { ENGINE_EXCEPTIONS as EXCEPTIONS } from '../helpers/engines.ts';
import { projectRoot } from '../../src/paths.ts';

const pkg = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(path.join(projectRoot, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: unknown }>;
};

const nameOf = (lockPath: string) => lockPath.slice(lockPath.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** Installed packages whose engines.node leaves out some Node the project declares. */
function outsideDeclared(declared: string): { name: string; version: string; wants: string }[] {
  const out = [];
  for (const [at, entry] of Object.entries(lock.packages)) {
    if (at === '') continue;
    const e = entry.engines;
    const wants = e && typeof e === 'object' && !Array.isArray(e) ? (e as { node?: unknown }).node : undefined;
    if (typeof wants !== 'string') continue;
    if (!semver.subset(declared, wants)) out.push({ name: nameOf(at), version: entry.version ?? '?', wants });
  }
  return out;
}

describe('install without engine warnings', () => {
  const declared = pkg.engines.node;

  it('the declared Node range is valid, recorded in the lock, and this Node is in it', () => {
    expect(semver.validRange(declared)).not.toBeNull();
    expect((lock.packages[''] as { engines?: { node?: string } }).engines?.node).toBe(declared);
    expect(semver.satisfies(process.versions.node, declared)).toBe(true);
  });

  it('every installed package admits every declared Node (but the documented exceptions)', () => {
    const bad = outsideDeclared(declared).filter((p) => !(p.name in EXCEPTIONS));
    expect(bad.map((p) => `${p.name}@${p.version} wants node ${p.wants}`)).toEqual([]);
  });

  it('each exception is still needed (remove it from the list when it is not)', () => {
    const still = new Set(outsideDeclared(declared).map((p) => p.name));
    for (const name of Object.keys(EXCEPTIONS)) expect(still.has(name), `${name} no longer needs an exception`).toBe(true);
  });

  it('the check itself fails on a package that wants a newer Node than declared', () => {
    // The shape of the original noise: @whatwg-node/promise-helpers@2 wants >=22.15.0.
    expect(semver.subset(declared, '>=22.15.0')).toBe(false);
    expect(semver.subset(declared, '>=16.0.0')).toBe(true);
  });
});
