// Preloaded into a bench server (`node --import ./bench/lib/heapSampling.mjs`): each SIGUSR2 toggles
// V8's sampling heap profiler, counting the objects scavenges and mark-compacts collected too
// (includeObjectsCollectedBy*), so a window's profile is what it allocated, not what survived; the
// profile, with the window's GCs by kind, is written to `${HEAP_SAMPLING_OUT}.N.json`
// (bench/metricsAllocations.ts reads it). Not part of the service.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';

/** The young generation's size now (V8 grows and shrinks it; a smaller one scavenges more often). */
const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size;

const out = process.env.HEAP_SAMPLING_OUT;
if (out) {
  const session = new Session();
  session.connect();
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));
  const kinds = { [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge', [constants.NODE_PERFORMANCE_GC_MAJOR]: 'markCompact', [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental', [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak' };
  let gcs;
  const observer = new PerformanceObserver((list) => {
    if (!gcs) return;
    for (const e of list.getEntries()) {
      const k = kinds[e.detail?.kind ?? e.kind] ?? 'other';
      gcs[k] = (gcs[k] ?? 0) + 1;
      gcs.ms = (gcs.ms ?? 0) + e.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  let n = 0;
  let on = false;
  process.on('SIGUSR2', () => {
    if (!on) {
      on = true;
      gcs = { newSpaceBefore: newSpace() };
      void post('HeapProfiler.startSampling', { samplingInterval: Number(process.env.HEAP_SAMPLING_INTERVAL ?? 512), includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
      return;
    }
    on = false;
    const windowGcs = { ...gcs, newSpaceAfter: newSpace() };
    gcs = undefined;
    void post('HeapProfiler.stopSampling').then(({ profile }) => {
      writeFileSync(`${out}.${++n}.json`, JSON.stringify({ gcs: windowGcs, profile }));
    });
  });
}
