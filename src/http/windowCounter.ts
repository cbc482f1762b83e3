// The in-memory request count per client: a fixed window per key that starts at the key's
// first request (the semantics of rate-limiter-flexible's memory store, which this
// replaces). It answers synchronously and keeps no timer per key: the store took a map
// entry and a timer for every new client, which under many client addresses cost more
// than the cached answer itself (issue 18).
//
// Bounded by the window: every window has the same length, and a key whose window ended
// is deleted and inserted again, so the Map's insertion order is the order in which
// windows end. Expired keys are dropped from the front, O(1) amortised; the front's end is
// remembered, so a call with nothing to drop does not walk the Map (an iterator and an entry
// per request).
// `maxKeys` is a memory backstop: past it the oldest key, the nearest to its reset anyway,
// is dropped.
import type { RateLimitDecision } from '../transport/appEnv.ts';

export type { RateLimitDecision };

interface Window {
  count: number;
  endsAt: number;
}

export class WindowCounter {
  private readonly windows = new Map<string, Window>();
  /** No window ends before this (the front window's end, or earlier when the front was evicted). */
  private frontEndsAt = Infinity;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 1_000_000,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.windows.size;
  }

  consume(key: string): RateLimitDecision {
    const now = this.now();
    this.dropExpired(now);
    let w = this.windows.get(key);
    if (w === undefined || w.endsAt <= now) {
      if (w !== undefined) this.windows.delete(key); // re-inserted at the back: order stays by end time
      else if (this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value!);
      w = { count: 0, endsAt: now + this.windowMs };
      this.windows.set(key, w);
      if (w.endsAt < this.frontEndsAt) this.frontEndsAt = w.endsAt;
    }
    w.count++;
    return { allowed: w.count <= this.limit, limit: this.limit, remaining: Math.max(0, this.limit - w.count), resetMs: w.endsAt - now };
  }

  private dropExpired(now: number): void {
    if (now < this.frontEndsAt) return;
    for (const [key, w] of this.windows) {
      if (w.endsAt > now) {
        this.frontEndsAt = w.endsAt;
        return;
      }
      this.windows.delete(key);
    }
    this.frontEndsAt = Infinity;
  }
}
