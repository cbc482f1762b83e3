// A coding-engine worker thread (Piscina). Keeps the vocabularies of the last few releases
// it coded for, built from the shared source the task carries, and tells the pool on
// `ready` once the vocabulary is there, so that a one-time build does not count against
// the request's time budget.
import type { MessagePort } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import { buildVocabulary, type Vocabulary } from '../nlp/index.ts';
import { runTask, type EngineTask } from './engineTasks.ts';
import { decodeSource } from './vocabularySource.ts';

export interface WorkerRequest {
  releaseId: number;
  source: SharedArrayBuffer;
  task: EngineTask;
  ready: MessagePort;
}

const vocabularies = new LRUCache<number, Vocabulary>({ max: 3 });

function vocabularyFor(releaseId: number, source: SharedArrayBuffer): Vocabulary {
  let v = vocabularies.get(releaseId);
  if (!v) {
    const src = decodeSource(source);
    v = buildVocabulary(src.terms, { grades: src.grades });
    v.warm();
    vocabularies.set(releaseId, v);
  }
  return v;
}

export default function codeTask(req: WorkerRequest) {
  const vocab = vocabularyFor(req.releaseId, req.source);
  req.ready.postMessage('ready');
  req.ready.close();
  return runTask(vocab, req.task);
}
