// Latency over time, bounded: values fall into fixed-width time buckets per metric (count, mean,
// min, max, p50 and p99 in µs). When a scenario outlives `maxBuckets` buckets, the width doubles and
// neighbours merge, so a run of any length keeps at most `maxBuckets` points per metric. Count, min,
// max and mean merge exactly; percentiles would not as numbers, so each bucket keeps a small HDR
// histogram (2 significant digits, packed: a few kB) that merges as data, and p50/p99 are read from
// it when the record is made. The whole run's percentiles live in the 3-digit histogram beside it.
// A widening only moves the buckets aside; records then fold them into their wider neighbours one
// at a time, at most one per FOLD_SPACING_MS of the records' clock (a packed histogram's add walks
// its whole counts array), so a widening's merges take a small share of the event loop over the
// seconds that follow instead of all of it at once; toRecord folds what is left.
import * as hdr from 'hdr-histogram-js';

export interface TimelinePoint {
  /** Start of the bucket, in ms since the scenario started. */
  t: number;
  metric: string;
  count: number;
  /** Microseconds. */
  mean: number;
  min: number;
  max: number;
  /** Within 1 % (the bucket's histogram); absent in results written before buckets kept them. */
  p50?: number;
  p99?: number;
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
  histogram: hdr.Histogram;
}

const newHistogram = () =>
  hdr.build({
    bitBucketSize: 'packed',
    lowestDiscernibleValue: 1,
    highestTrackableValue: 3_600_000_000,
    numberOfSignificantValueDigits: 2,
  });

export const DEFAULT_TIMELINE_BUCKETS = 120;
const FIRST_BUCKET_MS = 100;
const FOLD_SPACING_MS = 5;

/** A bucket of a narrower width not folded in yet: its series, and its index at the current width. */
interface Unfolded {
  series: Map<number, Bucket>;
  index: number;
  bucket: Bucket;
}

export class LatencyTimeline {
  private bucketMs = FIRST_BUCKET_MS;
  private readonly series = new Map<string, Map<number, Bucket>>();
  private readonly unfolded: Unfolded[] = [];
  /** The records' clock (`at`) from which the next bucket set aside may be folded in. */
  private nextFoldAt = 0;

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
    let bucket = buckets.get(index);
    if (!bucket) buckets.set(index, (bucket = { count: 0, sum: 0, min: us, max: us, histogram: newHistogram() }));
    bucket.count++;
    bucket.sum += us;
    if (us < bucket.min) bucket.min = us;
    if (us > bucket.max) bucket.max = us;
    bucket.histogram.recordValue(Math.min(3_600_000_000, Math.max(1, Math.round(us))));
    if (this.unfolded.length > 0 && at >= this.nextFoldAt) {
      this.nextFoldAt = at + FOLD_SPACING_MS;
      this.foldOne();
    }
  }

  /** Doubles the width: every bucket is set aside under its index at the new width, folded in later. */
  private widen(): void {
    this.bucketMs *= 2;
    for (const u of this.unfolded) u.index >>= 1;
    for (const buckets of this.series.values()) {
      for (const [index, bucket] of buckets) this.unfolded.push({ series: buckets, index: index >> 1, bucket });
      buckets.clear();
    }
  }

  /** Folds one bucket set aside into its series (count, sum, min and max exactly; the histogram as data). */
  private foldOne(): void {
    const { series, index, bucket: b } = this.unfolded.pop()!;
    const into = series.get(index);
    if (!into) return void series.set(index, b);
    into.count += b.count;
    into.sum += b.sum;
    into.min = Math.min(into.min, b.min);
    into.max = Math.max(into.max, b.max);
    into.histogram.add(b.histogram);
    b.histogram.destroy();
  }

  /** The points in time order per metric; undefined when nothing was recorded. */
  toRecord(): TimelineRecord | undefined {
    while (this.unfolded.length > 0) this.foldOne();
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
          // Clamped to the bucket's exact range: the histogram's 1 % resolution never reads past it.
          p50: clamp(b.histogram.getValueAtPercentile(50), b),
          p99: clamp(b.histogram.getValueAtPercentile(99), b),
        });
      }
    }
    return { bucketMs: this.bucketMs, points };
  }
}

const clamp = (us: number, b: Bucket) => Math.min(b.max, Math.max(b.min, us));
