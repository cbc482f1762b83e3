// A chain of consecutive synthetic releases (each the generator's next release of the one before)
// written as MedDRA ASCII under `dir` and imported in order, with the snapshot groups at
// `keyframeEvery` releases (the index tests' small groups) for the imports only.
import path from 'node:path';
import type { Database } from '../../src/db/client.ts';
import { chainDefaults } from '../../src/domain/releaseIndex/snapshotChain.ts';
import { importRelease } from '../../src/importer/import.ts';
import { generateRelease, writeMedAscii, type SyntheticRelease } from '../../tools/synthetic/generate.ts';

export async function importSyntheticChain(db: Database, dir: string, versions: string[], opts: { seed: number; scale: number; keyframeEvery: number }): Promise<void> {
  const every = chainDefaults.keyframeEvery;
  chainDefaults.keyframeEvery = opts.keyframeEvery;
  try {
    let prev: SyntheticRelease | undefined;
    for (const version of versions) {
      const r = generateRelease({ seed: opts.seed, version, scale: opts.scale, withSmq: false, changesFrom: prev });
      await writeMedAscii(r, path.join(dir, version));
      await importRelease(db, path.join(dir, version));
      prev = r;
    }
  } finally {
    chainDefaults.keyframeEvery = every;
  }
}
