// Where the coding engine runs: a worker pool in the server (enginePool.ts), or inline on
// the calling thread (in-process test apps, NLP_WORKERS=0).
import type { VocabularyCache } from './vocabularyCache.ts';
import { runTask, type EngineResult, type EngineTask } from './engineTasks.ts';

export interface CodingEngine {
  run<T extends EngineTask>(releaseId: number, task: T): Promise<EngineResult<T>>;
  close(): Promise<void>;
}

export class InlineEngine implements CodingEngine {
  constructor(private readonly vocabularies: VocabularyCache) {}

  async run<T extends EngineTask>(releaseId: number, task: T): Promise<EngineResult<T>> {
    return runTask(await this.vocabularies.get(releaseId), task) as EngineResult<T>;
  }

  async close(): Promise<void> {}
}
