// During an import: the change sets between the new release and its neighbours in
// publication order, so the common questions ("what changed in 27.1?") are instant.
// They are written in the import's own transaction: a release is never visible without them.
import type { Prisma } from '../../generated/prisma/client.ts';
import { listReleases } from '../releases.ts';
import { computeChangeSetIn, type ChangeCounts } from './store.ts';

export async function precomputeNeighbours(tx: Prisma.TransactionClient, releaseId: number): Promise<{ from: string; to: string; counts: ChangeCounts }[]> {
  const list = (await listReleases(tx)).reverse(); // oldest first
  const i = list.findIndex((r) => r.id === releaseId);
  if (i < 0) return [];
  const pairs = [
    ...(i > 0 ? [[list[i - 1]!, list[i]!] as const] : []),
    ...(i < list.length - 1 ? [[list[i]!, list[i + 1]!] as const] : []),
  ];
  const out = [];
  for (const [from, to] of pairs) out.push({ from: from.version, to: to.version, counts: await computeChangeSetIn(tx, from, to) });
  return out;
}
