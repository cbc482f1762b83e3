// A coding-engine worker thread (Piscina). Keeps the vocabularies of the releases it coded for,
// built from the shared source the task carries, within the byte budget the task names (its
// share of MEMORY_BUDGET_MB: src/config.ts), and tells the pool on `ready` once the vocabulary
// is there — with the bytes it now keeps, for the memory_cache_bytes gauge — so that a one-time
// build does not count against the request's time budget.
import { threadId, type MessagePort } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import { buildVocabulary, type Vocabulary } from '../nlp/index.ts';
import { runTask, type EngineTask } from './engineTasks.ts';
import { decodeSource, vocabularyBytes } from './vocabularySource.ts';

export interface WorkerRequest {
  releaseId: number;
  source: SharedArrayBuffer;
  task: EngineTask;
  ready: MessagePort;
  /** Bytes (estimated) of built vocabularies this worker may keep. */
  vocabularyBytes: number;
}

/** What a worker says on `ready`. */
export interface WorkerReady {
  threadId: number;
  /** Estimated bytes of the vocabularies it keeps now. */
  bytes: number;
}

export const workerVocabularies = vocabularyKeeper();

/**
 * Built vocabularies, least recently used dropped first once their estimated bytes pass the
 * budget; the newest is kept whatever its size (a worker that dropped the one it codes with would
 * rebuild it for every task). A changed budget starts an empty keeper (budgets change only in tests).
 */
export function vocabularyKeeper() {
  let maxBytes = 0;
  let cache: LRUCache<number, { vocab: Vocabulary; bytes: number }> | undefined;
  let held = 0;
  return {
    get(releaseId: number, source: SharedArrayBuffer, budget: number): Vocabulary {
      if (!cache || budget !== maxBytes) {
        maxBytes = Math.max(1, budget);
        held = 0;
        // size: clamped to the budget, so one over it still goes in (and pushes every other out).
        cache = new LRUCache({ maxSize: maxBytes, dispose: (e) => (held -= e.bytes) });
      }
      const hit = cache.get(releaseId);
      if (hit) return hit.vocab;
      const src = decodeSource(source);
      const vocab = buildVocabulary(src.terms, { grades: src.grades });
      vocab.warm();
      const bytes = vocabularyBytes(source.byteLength);
      cache.set(releaseId, { vocab, bytes }, { size: Math.min(bytes, maxBytes) });
      held += bytes;
      return vocab;
    },
    /** Estimated bytes kept now. */
    bytes: () => held,
    /** Releases kept, least recently used last. */
    releases: () => (cache ? [...cache.keys()] : []),
  };
}

export default function codeTask(req: WorkerRequest) {
  const vocab = workerVocabularies.get(req.releaseId, req.source, req.vocabularyBytes);
  req.ready.postMessage({ threadId, bytes: workerVocabularies.bytes() } satisfies WorkerReady);
  req.ready.close();
  return runTask(vocab, req.task);
}
