// The `openai` provider: any OpenAI-compatible chat-completions server (OpenAI, vLLM,
// Ollama…) with structured outputs. Grounded in the release: the lexical engine proposes
// candidate PTs and the JSON schema only admits those codes; every answer is checked
// again before use. A timeout, rate-limit refusal, server error or malformed output
// falls back to the lexical result, and the response says why.
import type OpenAI from 'openai';
import { traceHooks } from '../observability/traceHooks.ts';

export interface OpenAIConfig {
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  model: string;
  timeoutMs: number;
}

export class ProviderFallback extends Error {}

export interface CandidateForModel {
  code: string;
  term: string;
  matched?: string;
}

export interface ModelCode {
  code: string;
  confidence: number;
  reasons: string[];
}

export interface ModelEvent {
  description: string;
  reasons: string[];
  confidence: number;
}

const SYSTEM_CLASSIFY =
  'You are a pharmacovigilance coding assistant. Code the adverse event description to Preferred Terms (PTs) of the ' +
  'terminology release. Choose ONLY among the candidate codes given; never invent codes. Rank the best first, drop ' +
  'candidates the text does not support (negated, historical or speculative findings are not events). ' +
  'confidence is your probability (0-1) that the code is right; reasons quote the text.';

const SYSTEM_IDENTIFY =
  'You are a pharmacovigilance assistant. Split the narrative into discrete adverse event statements, each ' +
  'self-contained (who/what/when as stated). Exclude negated findings ("no rash"), medical history and speculation. ' +
  'Do not output any terminology codes. reasons must be verbatim quotes from the narrative. confidence is 0-1.';

function describe(err: unknown, OpenAI: typeof import('openai').default): string {
  // We abort only on our own timeout, so an abort is a timeout.
  if (err instanceof OpenAI.APIConnectionTimeoutError || err instanceof OpenAI.APIUserAbortError) return 'the LLM provider timed out';
  if (err instanceof OpenAI.RateLimitError) return 'the LLM provider refused the request (rate limited)';
  if (err instanceof OpenAI.APIConnectionError) return 'the LLM provider could not be reached';
  if (err instanceof OpenAI.APIError) return `the LLM provider answered with an error (HTTP ${err.status ?? '?'})`;
  if (err instanceof ProviderFallback) return err.message;
  return 'the LLM provider failed';
}

export class OpenAIProvider {
  readonly name = 'openai';
  private client: Promise<{ client: OpenAI; OpenAI: typeof import('openai').default }> | undefined;

  constructor(private readonly config: OpenAIConfig) {}

  /** The SDK is loaded on the first call (~150 modules): a server with the provider configured but unused starts without them. */
  private sdk() {
    this.client ??= import('openai').then(({ default: OpenAI }) => ({
      OpenAI,
      client: new OpenAI({
        apiKey: this.config.apiKey ?? 'not-needed',
        baseURL: this.config.baseURL,
        timeout: this.config.timeoutMs,
        // No retries: a failed call falls back to the lexical result at once.
        maxRetries: 0,
      }),
    }));
    return this.client;
  }

  /** The GenAI conventions' attributes of a call: operation, model, the provider's host. */
  private spanAttributes(): Record<string, string | number> {
    const attributes: Record<string, string | number> = { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': this.config.model };
    try {
      const url = new URL(this.config.baseURL ?? 'https://api.openai.com/v1');
      attributes['server.address'] = url.hostname;
      attributes['server.port'] = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    } catch {
      // A base URL the SDK accepted but URL does not: no address.
    }
    return attributes;
  }

  /** Calls the model with a JSON schema; throws ProviderFallback with a reason on any failure. */
  private async complete(system: string, user: unknown, name: string, schema: Record<string, unknown>): Promise<unknown> {
    let content: string | null | undefined;
    const { client, OpenAI } = await this.sdk();
    const call = (headers?: Record<string, string>) =>
      client.chat.completions.create(
        {
          model: this.config.model,
          temperature: 0,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: JSON.stringify(user) },
          ],
          response_format: { type: 'json_schema', json_schema: { name, strict: true, schema } },
        },
        { signal: AbortSignal.timeout(this.config.timeoutMs), headers },
      );
    try {
      // Traces on: a client span, its trace context sent along (never the messages).
      const traced = traceHooks.outgoing;
      const res = traced ? await traced(`chat ${this.config.model}`, this.spanAttributes(), call) : await call();
      content = res.choices?.[0]?.message?.content;
    } catch (err) {
      if ((err as Error).name === 'AbortError' || (err as Error).name === 'TimeoutError') throw new ProviderFallback('the LLM provider timed out');
      throw new ProviderFallback(describe(err, OpenAI));
    }
    if (!content) throw new ProviderFallback('the LLM provider returned no content');
    try {
      return JSON.parse(content) as unknown;
    } catch {
      throw new ProviderFallback('the LLM provider returned malformed JSON');
    }
  }

  /** Ranks candidate PTs; only candidate codes are accepted (grounding). */
  async classify(description: string, candidates: CandidateForModel[]): Promise<ModelCode[]> {
    const codes = candidates.map((c) => c.code);
    const schema = {
      type: 'object',
      additionalProperties: false,
      required: ['codes'],
      properties: {
        codes: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['code', 'confidence', 'reasons'],
            properties: {
              code: { type: 'string', enum: codes },
              confidence: { type: 'number' },
              reasons: { type: 'array', items: { type: 'string' } },
            },
          },
        },
      },
    };
    const out = (await this.complete(SYSTEM_CLASSIFY, { description, candidates }, 'terminology_codes', schema)) as { codes?: unknown };
    if (!out || !Array.isArray(out.codes)) throw new ProviderFallback('the LLM provider returned output that does not match the schema');
    const allowed = new Set(codes);
    const seen = new Set<string>();
    const result: ModelCode[] = [];
    for (const c of out.codes as Record<string, unknown>[]) {
      if (typeof c?.code !== 'string' || typeof c.confidence !== 'number' || !Array.isArray(c.reasons)) {
        throw new ProviderFallback('the LLM provider returned output that does not match the schema');
      }
      if (!allowed.has(c.code)) throw new ProviderFallback(`the LLM provider chose code ${c.code.slice(0, 12)}, which is not among the release's candidates`);
      if (seen.has(c.code)) continue;
      seen.add(c.code);
      result.push({ code: c.code, confidence: Math.min(1, Math.max(0, c.confidence)), reasons: c.reasons.filter((r): r is string => typeof r === 'string').slice(0, 5) });
    }
    return result;
  }

  /** Splits a narrative into events; reasons must quote the narrative verbatim (grounding). */
  async identify(narrative: string, hints: string[]): Promise<ModelEvent[]> {
    const schema = {
      type: 'object',
      additionalProperties: false,
      required: ['events'],
      properties: {
        events: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['description', 'reasons', 'confidence'],
            properties: {
              description: { type: 'string' },
              reasons: { type: 'array', items: { type: 'string' } },
              confidence: { type: 'number' },
            },
          },
        },
      },
    };
    const out = (await this.complete(SYSTEM_IDENTIFY, { narrative, candidateEvents: hints }, 'adverse_events', schema)) as { events?: unknown };
    if (!out || !Array.isArray(out.events)) throw new ProviderFallback('the LLM provider returned output that does not match the schema');
    const events: ModelEvent[] = [];
    for (const e of out.events as Record<string, unknown>[]) {
      if (typeof e?.description !== 'string' || !Array.isArray(e.reasons) || typeof e.confidence !== 'number') {
        throw new ProviderFallback('the LLM provider returned output that does not match the schema');
      }
      const reasons = e.reasons.filter((r): r is string => typeof r === 'string' && r.trim() !== '' && narrative.includes(r));
      // An event whose evidence is not in the narrative is not grounded: drop it.
      if (reasons.length === 0) continue;
      events.push({ description: e.description.trim(), reasons, confidence: Math.min(1, Math.max(0, e.confidence)) });
    }
    return events;
  }
}
