/**
 * Small, fast, deterministic PRNG (sfc32 seeded through splitmix32).
 * Never uses Math.random or the clock: the same seed always yields the same stream.
 */

/** 32-bit FNV-1a hash of a string. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Mix several numbers / strings into one 32-bit seed. */
export function mixSeed(...parts: (number | string)[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    const v = typeof p === 'number' ? (p | 0) ^ Math.floor(p / 0x100000000) : hashString(p);
    h = Math.imul(h ^ (v >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spare: number | undefined;

  constructor(seed: number) {
    let s = seed >>> 0;
    const sm = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = sm();
    this.b = sm();
    this.c = sm();
    this.d = sm();
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** Derive an independent stream (same parent state + label → same child). */
  fork(label: string): Rng {
    return new Rng(mixSeed(this.u32(), label));
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(arr: readonly T[]): T {
    if (arr.length === 0) throw new Error('Rng.pick on empty array');
    return arr[Math.floor(this.float() * arr.length)] as T;
  }

  /** Index chosen proportionally to weights. */
  weightedIndex(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i] as number;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /** Pick from [value, weight] pairs. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const i = this.weightedIndex(items.map((x) => x[1]));
    return (items[i] as readonly [T, number])[0];
  }

  /** Standard normal (Box–Muller). */
  gauss(): number {
    if (this.spare !== undefined) {
      const s = this.spare;
      this.spare = undefined;
      return s;
    }
    let u = 0;
    while (u === 0) u = this.float();
    const v = this.float();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** In-place Fisher–Yates shuffle; returns the array. */
  shuffle<T>(arr: T[]): T[] {
    for (let i = arr.length - 1; i > 0; i--) {
      const j = Math.floor(this.float() * (i + 1));
      const t = arr[i] as T;
      arr[i] = arr[j] as T;
      arr[j] = t;
    }
    return arr;
  }

  /** k distinct elements (order random). */
  sample<T>(arr: readonly T[], k: number): T[] {
    const copy = arr.slice();
    const n = Math.min(k, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.float() * (copy.length - i));
      const t = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = t;
    }
    return copy.slice(0, n);
  }
}

/**
 * Split `total` into `weights.length` integer parts, each ≥ `min`, proportional to weights
 * (largest-remainder rounding, ties by index → deterministic).
 */
export function distribute(total: number, weights: readonly number[], min: number): number[] {
  const n = weights.length;
  if (n === 0) return [];
  const out = new Array<number>(n).fill(min);
  let rest = total - n * min;
  if (rest <= 0) return out;
  let W = 0;
  for (const w of weights) W += w;
  const fracs: { i: number; f: number }[] = [];
  let used = 0;
  for (let i = 0; i < n; i++) {
    const exact = (rest * (weights[i] as number)) / W;
    const fl = Math.floor(exact);
    out[i] = (out[i] as number) + fl;
    used += fl;
    fracs.push({ i, f: exact - fl });
  }
  rest -= used;
  fracs.sort((x, y) => y.f - x.f || x.i - y.i);
  for (let k = 0; k < rest; k++) {
    const e = fracs[k % n] as { i: number; f: number };
    out[e.i] = (out[e.i] as number) + 1;
  }
  return out;
}
