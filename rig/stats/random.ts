// A seeded pseudo-random source for the bootstrap: the same inputs give the same interval, so a
// comparison is reproducible and a test of it is deterministic. mulberry32: 32 bits of state, fast,
// and plenty for resampling (this is no cryptographic use).

export type Random = () => number;

export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
