// What a worker of a distributed run (`run --shard i/N`) records about itself in results.json, and
// what `merge` records about the set it added up.
export interface ShardStart {
  /** How the workers met: a shared directory, or an agreed wall-clock time. */
  barrier: 'directory' | 'start-at';
  /** When this worker meant to start, epoch ms on its own clock. */
  plannedStartEpochMs: number;
  /** When it did (after the wait), epoch ms on its own clock. */
  startedEpochMs: number;
  /** The shared directory's clock minus this worker's (ms); absent with --start-at. */
  clockOffsetMs?: number;
  /** How far that offset can be off: half the probe write's duration plus the mtime's resolution (ms). */
  clockOffsetUncertaintyMs?: number;
  /** Time spent waiting for the others and the common start (ms). */
  waitedMs: number;
}

export interface ShardRecord extends ShardStart {
  index: number;
  count: number;
  /** The run id every worker of the set was given (`--run-id`); the worker's own runId adds `-shard<i>`. */
  setRunId: string;
  /** Every scenario the run selected, before the split: the set's workers must agree on it. */
  plan: string[];
  /** The ones this worker ran: open-model scenarios on every worker, the others on worker 0 only. */
  ran: string[];
  host: string;
}

/** One worker's row in a merged set's report. */
export interface WorkerRow {
  index: number;
  host: string;
  /** The worker's results directory, as merge read it. */
  path: string;
  verdict: string;
  scenarios: number;
  requests: number;
  /** Requests that got no usable reply. */
  failedRequests: number;
  startedAt: string;
  /** Its actual start minus the planned common start (ms, its own clock). */
  startLagMs: number;
  clockOffsetMs?: number;
}

export interface ShardSetRecord {
  setRunId: string;
  count: number;
  /** Workers whose results were merged. */
  merged: number[];
  /** Workers without results (killed, never finished) or interrupted: set only with `merge --partial`. */
  missing: { index: number; why: string }[];
  partial: boolean;
  workers: WorkerRow[];
  /** How the workers met (directory barrier or --start-at). */
  barrier: ShardStart['barrier'];
  /** Largest minus smallest clock offset to the shared directory (ms); absent with --start-at. */
  clockSkewMs?: number;
  /** Latest minus earliest actual start, each corrected by its worker's offset where measured (ms). */
  startSpreadMs: number;
}
