// The narrative capabilities behind /identify, /classify and /labels/classify (and their
// GraphQL fields): one interface, two providers. `lexical` (default) is the offline
// engine in src/nlp; `openai` (when configured) asks an OpenAI-compatible model to choose
// among the lexical engine's candidates, and falls back to the lexical answer on failure.
import type { CodePrediction, IdentifiedEvent, LabelClassification, LabelContext, SectionType, SeriousnessAssessment, SeverityAssessment } from '../nlp/index.ts';

/** Options of a label classification (defaults applied by the service layer). */
export interface LabelTaskOptions {
  maxResults: number;
  minConfidence: number;
  sectionType?: SectionType | undefined;
  contexts?: LabelContext[] | undefined;
  includeExcluded?: boolean | undefined;
}
import type { ReleaseInfo } from '../domain/releases.ts';
import { DomainError, ERROR_STATUS } from '../domain/errors.ts';
import type { VocabularyCache } from './vocabularyCache.ts';
import { OpenAIProvider, ProviderFallback } from './openai.ts';
import type { AuditLog } from './audit.ts';
import { InlineEngine, type CodingEngine } from './engine.ts';

export type SeveritySystem = '5-level' | '3-level';

/** Lexical candidates offered to the model to choose among. */
const LLM_CANDIDATES = 15;

export interface Outcome<T> {
  value: T;
  provider: 'lexical' | 'openai';
  /** Why the LLM's answer was not used (timeout, rate limit, malformed or ungrounded output). */
  fallbackReason: string | null;
}

export interface ClassifyOptions {
  terminology: boolean;
  seriousness: boolean;
  severity: SeveritySystem[] | null;
  limit: number;
}

export interface Classification {
  terminologyCodes: CodePrediction[];
  seriousness: SeriousnessAssessment | null;
  severity: SeverityAssessment | null;
}

export interface RequestInfo {
  requestId: string;
  endpoint: string;
  apiKeyId: string | null;
  release: ReleaseInfo;
  text: string;
}

export class AssessmentService {
  private readonly engine: CodingEngine;

  constructor(
    vocabularies: VocabularyCache,
    private readonly audit: AuditLog,
    private readonly llm: OpenAIProvider | null,
    /** Where the engine runs; the server passes its worker pool, in-process apps default to inline. */
    engine?: CodingEngine,
  ) {
    this.engine = engine ?? new InlineEngine(vocabularies);
  }

  /** Waits for queued audit records (shutdown, tests). */
  flush(): Promise<void> {
    return this.audit.flush();
  }

  /** Stops the engine's workers (server shutdown, after in-flight requests). */
  close(): Promise<void> {
    return this.engine.close();
  }

  get providerName(): 'lexical' | 'openai' {
    return this.llm ? 'openai' : 'lexical';
  }

  private async run<T>(info: RequestInfo, fn: (releaseId: number) => Promise<Outcome<T>>): Promise<Outcome<T>> {
    const started = performance.now();
    let status = 200;
    let outcome: Outcome<T> | undefined;
    try {
      outcome = await fn(info.release.id);
      return outcome;
    } catch (e) {
      status = e instanceof DomainError ? ERROR_STATUS[e.code] : 500;
      throw e;
    } finally {
      this.audit.record({
        requestId: info.requestId,
        endpoint: info.endpoint,
        release: info.release.version,
        provider: outcome?.provider ?? this.providerName,
        fallback: outcome?.fallbackReason ?? null,
        latencyMs: Math.round(performance.now() - started),
        status,
        apiKeyId: info.apiKeyId,
        text: info.text,
      });
    }
  }

  identify(info: RequestInfo): Promise<Outcome<IdentifiedEvent[]>> {
    return this.run(info, async (releaseId) => {
      const lexical = await this.engine.run(releaseId, { op: 'identify', text: info.text });
      if (!this.llm) return { value: lexical, provider: 'lexical', fallbackReason: null };
      try {
        const events = await this.llm.identify(info.text, lexical.map((e) => e.description));
        return {
          value: events.map((e) => {
            const first = e.reasons[0]!;
            const start = info.text.indexOf(first);
            return { ...e, start, end: start + first.length, mentions: start < 0 ? [] : [{ start, end: start + first.length }] };
          }),
          provider: 'openai',
          fallbackReason: null,
        };
      } catch (e) {
        if (!(e instanceof ProviderFallback)) throw e;
        return { value: lexical, provider: 'lexical', fallbackReason: e.message };
      }
    });
  }

  classify(info: RequestInfo, opts: ClassifyOptions): Promise<Outcome<Classification>> {
    return this.run(info, async (releaseId) => {
      // More candidates than asked for only for a model, which may re-rank beyond the lexical
      // top few; alone, the engine's top `limit` are the answer (the same codes: its ranking
      // does not depend on the limit), and fewer cost less to score and copy back.
      const lexical = await this.engine.run(releaseId, {
        op: 'classify',
        text: info.text,
        limit: opts.terminology ? (this.llm ? Math.max(opts.limit, LLM_CANDIDATES) : opts.limit) : 0,
        seriousness: opts.seriousness,
        severity: opts.severity,
      });
      let codes: CodePrediction[] = lexical.codes.slice(0, opts.limit);
      let severity = lexical.severity;
      let provider: Outcome<Classification>['provider'] = 'lexical';
      let fallbackReason: string | null = null;
      if (this.llm && lexical.codes.length > 0) {
        try {
          const chosen = await this.llm.classify(
            info.text,
            lexical.codes.map((p, i) => ({ code: String(p.ptCode), term: lexical.ptNames[i] ?? '', ...(p.matchedLlt ? { matched: p.matchedLlt.name } : {}) })),
          );
          const byCode = new Map(lexical.codes.map((p) => [String(p.ptCode), p]));
          // The model's choice and order; confidence blends the model's and the calibrated lexical one.
          codes = chosen.slice(0, opts.limit).map((c) => {
            const p = byCode.get(c.code)!;
            return { ...p, confidence: Math.round(((p.confidence + c.confidence) / 2) * 1e4) / 1e4, reasons: [...c.reasons, ...p.reasons].slice(0, 6) };
          });
          provider = 'openai';
        } catch (e) {
          if (!(e instanceof ProviderFallback)) throw e;
          fallbackReason = e.message;
        }
      }
      // Severity reads the top code's grade definitions: again when the model chose another.
      const top = codes[0]?.ptCode;
      if (opts.severity && top !== lexical.codes[0]?.ptCode) {
        severity = await this.engine.run(releaseId, { op: 'severity', text: info.text, systems: opts.severity, ptCode: top });
      }
      return {
        value: { terminologyCodes: codes, seriousness: lexical.seriousness, severity },
        provider,
        fallbackReason,
      };
    });
  }

  classifyLabel(info: RequestInfo, opts: LabelTaskOptions): Promise<Outcome<LabelClassification>> {
    // Labels are long: the lexical engine codes them (an LLM pass over 100 KB would be slow and costly).
    return this.run(info, async (releaseId) => ({
      value: await this.engine.run(releaseId, { op: 'label', text: info.text, ...opts }),
      provider: 'lexical',
      fallbackReason: null,
    }));
  }
}
