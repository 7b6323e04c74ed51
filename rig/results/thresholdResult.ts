// One threshold's result as results.json keeps it (`thresholds`), read by every report.
/** One threshold (`--threshold`) evaluated at the end of a run or a merge. */
export interface ThresholdResult {
  /** The expression as given, e.g. `resume_latency.p95<1000`. */
  expression: string;
  /** Held. False when broken, and when not judged (`notJudged`): never green without a decision. */
  ok: boolean;
  /** What was measured, in the expression's unit (ms for latency stats); null when nothing was. */
  actual: number | null;
  /** One line: the measured value against the bound, or why it could not be measured. */
  detail: string;
  /**
   * Neither held nor broken (`ok` false, so no reader counts it as held): the sample could not decide
   * (a percentile whose 95 % interval lies on both sides of the bound: p99 < 1000 from 20 samples),
   * the latency was observed by polling, or its scenario said the measure is not the agent's
   * (scenario `notJudged`: capacity when the rig was the limit). The run exits 3 unless
   * --allow-inconclusive. Absent on a threshold that was judged.
   */
  notJudged?: true;
}
