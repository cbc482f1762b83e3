// A DataLoader cache map that counts its hits and misses (signals.ts): DataLoader asks its
// cache once per load(), so these are the per-request loaders' hit ratio.
import { counts } from './signals.ts';

export class CountingMap<K, V> extends Map<K, V> {
  override get(key: K): V | undefined {
    const v = super.get(key);
    if (v === undefined) counts.loaderMisses++;
    else counts.loaderHits++;
    return v;
  }
}
