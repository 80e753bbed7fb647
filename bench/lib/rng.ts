// Deterministic pseudo-random numbers: the same seed always yields the same data set.

/** Hashes a string to 32 bits (FNV-1a), to derive independent streams from one seed. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * sfc32: small, fast and good enough for synthetic data. Each generation stage gets its own
 * stream (`Rng.stream(seed, 'posts')`), so changing the post count leaves users and follows as
 * they were.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  static stream(seed: number, name: string): Rng {
    return new Rng(hash32(`${seed}:${name}`));
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Integer in [min, max], log-uniformly distributed (many small values, a few large). */
  logUniformInt(min: number, max: number): number {
    return Math.floor(Math.exp(Math.log(min) + this.next() * (Math.log(max + 1) - Math.log(min))));
  }

  /** Exponential with the given mean. */
  exp(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  logNormal(sigma: number): number {
    return Math.exp(sigma * this.normal());
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
}

/** Walker's alias method: O(1) weighted sampling of an index, after O(n) set-up. */
export class AliasTable {
  private readonly prob: Float64Array;
  private readonly alias: Int32Array;

  constructor(weights: ArrayLike<number>) {
    const n = weights.length;
    this.prob = new Float64Array(n);
    this.alias = new Int32Array(n);
    let sum = 0;
    for (let i = 0; i < n; i++) sum += weights[i] as number;
    const scaled = new Float64Array(n);
    const small = new Int32Array(n);
    const large = new Int32Array(n);
    let ns = 0;
    let nl = 0;
    for (let i = 0; i < n; i++) {
      scaled[i] = ((weights[i] as number) * n) / sum;
      if ((scaled[i] as number) < 1) small[ns++] = i;
      else large[nl++] = i;
    }
    while (ns > 0 && nl > 0) {
      const s = small[--ns] as number;
      const l = large[--nl] as number;
      this.prob[s] = scaled[s] as number;
      this.alias[s] = l;
      scaled[l] = (scaled[l] as number) + (scaled[s] as number) - 1;
      if ((scaled[l] as number) < 1) small[ns++] = l;
      else large[nl++] = l;
    }
    while (nl > 0) this.prob[large[--nl] as number] = 1;
    while (ns > 0) this.prob[small[--ns] as number] = 1;
  }

  sample(rng: Rng): number {
    const i = rng.int(this.prob.length);
    return rng.next() < (this.prob[i] as number) ? i : (this.alias[i] as number);
  }
}
