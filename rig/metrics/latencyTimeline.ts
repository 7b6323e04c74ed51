// Latency over time, bounded: values fall into fixed-width time buckets per metric (count, mean,
// min, max in µs). When a scenario outlives `maxBuckets` buckets, the width doubles and neighbours
// merge, so a run of any length keeps at most `maxBuckets` points per metric. Count, min, max and
// mean merge exactly; percentiles would not, which is why a bucket has none (the whole run's
// percentiles live in the HDR histogram beside it).

export interface TimelinePoint {
  /** Start of the bucket, in ms since the scenario started. */
  t: number;
  metric: string;
  count: number;
  /** Microseconds. */
  mean: number;
  min: number;
  max: number;
}

/** What results.json carries per scenario (see runResult.ts). */
export interface TimelineRecord {
  /** Width of every bucket, in ms. */
  bucketMs: number;
  points: TimelinePoint[];
}

interface Bucket {
  count: number;
  sum: number;
  min: number;
  max: number;
}

export const DEFAULT_TIMELINE_BUCKETS = 120;
const FIRST_BUCKET_MS = 100;

export class LatencyTimeline {
  private bucketMs = FIRST_BUCKET_MS;
  private readonly series = new Map<string, Map<number, Bucket>>();

  /** `origin`: the performance.now() time that is t = 0. */
  constructor(
    private readonly origin: number,
    private readonly maxBuckets = DEFAULT_TIMELINE_BUCKETS,
  ) {}

  /** `at`: performance.now() time the value belongs to; values before the origin count as t = 0. */
  record(metric: string, us: number, at: number): void {
    let index = Math.floor(Math.max(0, at - this.origin) / this.bucketMs);
    while (index >= this.maxBuckets) {
      this.widen();
      index = Math.floor(index / 2);
    }
    let buckets = this.series.get(metric);
    if (!buckets) this.series.set(metric, (buckets = new Map()));
    const bucket = buckets.get(index);
    if (!bucket) buckets.set(index, { count: 1, sum: us, min: us, max: us });
    else {
      bucket.count++;
      bucket.sum += us;
      if (us < bucket.min) bucket.min = us;
      if (us > bucket.max) bucket.max = us;
    }
  }

  private widen(): void {
    this.bucketMs *= 2;
    for (const [metric, buckets] of this.series) {
      const merged = new Map<number, Bucket>();
      for (const [index, b] of buckets) {
        const into = merged.get(index >> 1);
        if (!into) merged.set(index >> 1, { ...b });
        else {
          into.count += b.count;
          into.sum += b.sum;
          into.min = Math.min(into.min, b.min);
          into.max = Math.max(into.max, b.max);
        }
      }
      this.series.set(metric, merged);
    }
  }

  /** The points in time order per metric; undefined when nothing was recorded. */
  toRecord(): TimelineRecord | undefined {
    if (this.series.size === 0) return undefined;
    const points: TimelinePoint[] = [];
    for (const [metric, buckets] of this.series) {
      for (const index of [...buckets.keys()].sort((a, b) => a - b)) {
        const b = buckets.get(index)!;
        points.push({
          t: index * this.bucketMs,
          metric,
          count: b.count,
          mean: Math.round(b.sum / b.count),
          min: b.min,
          max: b.max,
        });
      }
    }
    return { bucketMs: this.bucketMs, points };
  }
}
