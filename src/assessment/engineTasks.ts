// The coding engine's CPU-heavy calls as plain-data tasks, so the same function runs them
// on a worker thread (src/assessment/nlpWorker.ts) or inline: inputs and results are
// structured-clone data, never the vocabulary itself.
import {
  assessSeriousness,
  assessSeverity,
  classifyLabelDetailed,
  classifyText,
  identifyEvents,
  type CodePrediction,
  type IdentifiedEvent,
  type LabelClassification,
  type LabelContext,
  type SectionType,
  type SeverityAssessment,
  type SeriousnessAssessment,
  type SeveritySystem,
  type Vocabulary,
} from '../nlp/index.ts';

export type EngineTask =
  | { op: 'identify'; text: string }
  | { op: 'classify'; text: string; limit: number; seriousness: boolean; severity: SeveritySystem[] | null }
  | { op: 'severity'; text: string; systems: SeveritySystem[]; ptCode: number | undefined }
  | { op: 'label'; text: string; maxResults: number; minConfidence: number; sectionType?: SectionType | undefined; contexts?: LabelContext[] | undefined; includeExcluded?: boolean | undefined }
  /** Only builds the release's vocabulary on the worker that runs it. */
  | { op: 'warm' };

export interface ClassifyResult {
  codes: CodePrediction[];
  /** PT names of `codes`, in order (the LLM provider offers them as candidates). */
  ptNames: string[];
  seriousness: SeriousnessAssessment | null;
  /** For the lexical top code; recomputed when a model re-ranks. */
  severity: SeverityAssessment | null;
}

export interface EngineResults {
  identify: IdentifiedEvent[];
  classify: ClassifyResult;
  severity: SeverityAssessment;
  label: LabelClassification;
  warm: null;
}

export type EngineResult<T extends EngineTask> = EngineResults[T['op']];

export function runTask(vocab: Vocabulary, task: EngineTask): EngineResults[EngineTask['op']] {
  switch (task.op) {
    case 'identify':
      return identifyEvents(task.text, vocab);
    case 'classify': {
      const codes = task.limit > 0 ? classifyText(task.text, vocab, { limit: task.limit }) : [];
      return {
        codes,
        ptNames: codes.map((p) => vocab.ptName(p.ptCode) ?? ''),
        seriousness: task.seriousness ? assessSeriousness(task.text) : null,
        severity: task.severity ? assessSeverity(task.text, { systems: task.severity, ptCode: codes[0]?.ptCode, vocab }) : null,
      };
    }
    case 'severity':
      return assessSeverity(task.text, { systems: task.systems, ptCode: task.ptCode, vocab });
    case 'label':
      return classifyLabelDetailed(task.text, vocab, {
        maxResults: task.maxResults,
        minConfidence: task.minConfidence,
        sectionType: task.sectionType,
        contexts: task.contexts,
        includeExcluded: task.includeExcluded,
      });
    case 'warm':
      return null;
  }
}
