// The narrative capabilities behind /identify, /classify and /labels/classify (and their
// GraphQL fields): one interface, two providers. `lexical` (default) is the offline
// engine in src/nlp; `openai` (when configured) asks an OpenAI-compatible model to choose
// among the lexical engine's candidates, and falls back to the lexical answer on failure.
import {
  assessSeriousness,
  assessSeverity,
  classifyLabel,
  classifyText,
  identifyEvents,
  type CodePrediction,
  type IdentifiedEvent,
  type LabelPrediction,
  type Vocabulary,
} from '../nlp/index.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import type { VocabularyCache } from './vocabularyCache.ts';
import { OpenAIProvider, ProviderFallback } from './openai.ts';
import type { AuditLog } from './audit.ts';

export type SeveritySystem = '5-level' | '3-level';

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
  seriousness: ReturnType<typeof assessSeriousness> | null;
  severity: ReturnType<typeof assessSeverity> | null;
}

export interface RequestInfo {
  requestId: string;
  endpoint: string;
  apiKeyId: string | null;
  release: ReleaseInfo;
  text: string;
}

export class AssessmentService {
  constructor(
    private readonly vocabularies: VocabularyCache,
    private readonly audit: AuditLog,
    private readonly llm: OpenAIProvider | null,
  ) {}

  /** Waits for queued audit records (shutdown, tests). */
  flush(): Promise<void> {
    return this.audit.flush();
  }

  get providerName(): 'lexical' | 'openai' {
    return this.llm ? 'openai' : 'lexical';
  }

  private async run<T>(info: RequestInfo, fn: (vocab: Vocabulary) => Promise<Outcome<T>>): Promise<Outcome<T>> {
    const started = performance.now();
    let status = 200;
    let outcome: Outcome<T> | undefined;
    try {
      outcome = await fn(await this.vocabularies.get(info.release.id));
      return outcome;
    } catch (e) {
      status = 500;
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
    return this.run(info, async (vocab) => {
      const lexical = identifyEvents(info.text, vocab);
      if (!this.llm) return { value: lexical, provider: 'lexical', fallbackReason: null };
      try {
        const events = await this.llm.identify(info.text, lexical.map((e) => e.description));
        return {
          value: events.map((e) => {
            const first = e.reasons[0]!;
            const start = info.text.indexOf(first);
            return { ...e, start, end: start + first.length };
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
    return this.run(info, async (vocab) => {
      let codes: CodePrediction[] = [];
      let provider: Outcome<Classification>['provider'] = 'lexical';
      let fallbackReason: string | null = null;
      if (opts.terminology) {
        // More candidates than asked for: the model may re-rank beyond the lexical top few.
        const lexical = classifyText(info.text, vocab, { limit: Math.max(opts.limit, 15) });
        codes = lexical.slice(0, opts.limit);
        if (this.llm && lexical.length > 0) {
          try {
            const chosen = await this.llm.classify(
              info.text,
              lexical.map((p) => ({ code: String(p.ptCode), term: vocab.ptName(p.ptCode) ?? '', ...(p.matchedLlt ? { matched: p.matchedLlt.name } : {}) })),
            );
            const byCode = new Map(lexical.map((p) => [String(p.ptCode), p]));
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
      }
      const top = codes[0]?.ptCode;
      return {
        value: {
          terminologyCodes: codes,
          seriousness: opts.seriousness ? assessSeriousness(info.text) : null,
          severity: opts.severity ? assessSeverity(info.text, { systems: opts.severity, ptCode: top, vocab }) : null,
        },
        provider,
        fallbackReason,
      };
    });
  }

  classifyLabel(info: RequestInfo, opts: { maxResults: number; minConfidence: number }): Promise<Outcome<LabelPrediction[]>> {
    // Labels are long: the lexical engine codes them (an LLM pass over 100 KB would be slow and costly).
    return this.run(info, async (vocab) => ({ value: classifyLabel(info.text, vocab, opts), provider: 'lexical', fallbackReason: null }));
  }
}
