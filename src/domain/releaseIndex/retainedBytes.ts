// Bytes typed arrays keep alive: each distinct ArrayBuffer once, whole. Arrays read from a snapshot
// are views over the snapshot's one buffer (snapshot.ts SectionReader), so while any of them is kept
// the whole read is, sections decoded into strings or not kept included: summing the views' own
// byteLength under-counted an overlay view's real memory ~1.45× (bench/indexRealBytes.ts, issue 32).
export function retainedBytes(arrays: Iterable<ArrayBufferView>, seen = new Set<ArrayBufferLike>()): number {
  let bytes = 0;
  for (const a of arrays) {
    if (seen.has(a.buffer)) continue;
    seen.add(a.buffer);
    bytes += a.buffer.byteLength;
  }
  return bytes;
}
