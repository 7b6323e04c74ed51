// acceptance-latency: the acceptance-criteria gate under a constant offered rate (the open model).
// Every arrival is a whole round trip: a task that activates the extension is sent, its artifact
// and the pending gate are observed, it is accepted, and COMPLETED is observed (rig/load/
// acceptanceRoundTrip.ts). Recorded:
//   - acceptance_latency: the accept decision about to be sent → the terminal state observed on a
//     subscription opened before the decision (the resume-latency method, not the reply's arrival);
//   - acceptance_round_trip: the round trip's intended start → terminal state observed (counted
//     from the intended start, so an agent that stalls cannot hide behind fewer round trips);
//   - acceptance_pending: intended start → the pending gate observed.
// It fails when more than `maxErrorPct` % of the arrivals fail, are unfinished or dropped (an agent
// that completes without waiting fails every one: "not pending"), or when the p95 acceptance
// latency is over `sloP95Ms`. CI gates it with `--threshold acceptance_latency.p95<250`. The
// capacity scenario searches the highest sustainable rate of the same round trip
// (`--param capacity.roundTrip=acceptance`). Skipped against an agent that does not declare the
// extension with the client evaluator.
import { defineScenario, capacity } from 'a2a-rig';

interface Params {
  /** Round trips offered per second. */
  rate: number;
  durationMs: number;
  /** Bound on the wait for the gate, and on the wait for the terminal state; past it the round trip fails. */
  timeoutMs: number;
  maxInFlight: number;
  maxBacklog: number;
  /** Keep-alive connections of the load's own client. */
  connections: number;
  sloP95Ms: number;
  maxErrorPct: number;
}

const f = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(0));
const bounds = {
  timeoutMs: 5_000,
  maxInFlight: 256,
  maxBacklog: 2_000,
  connections: 32,
  sloP95Ms: 1_000,
  maxErrorPct: 1,
};

export default defineScenario<Params>({
  name: 'acceptance-latency',
  description:
    'acceptance-criteria round trips (send → artifacts → pending → accept → COMPLETED) at a constant rate; ' +
    'acceptance latency = decision sent → terminal state observed',
  tags: ['acceptance', 'load', 'latency'],
  needs: { acceptance: true },
  params: {
    smoke: { rate: 10, durationMs: 3_000, ...bounds },
    ci: { rate: 20, durationMs: 20_000, ...bounds },
    full: { rate: 50, durationMs: 60_000, ...bounds },
  },
  budgetMs: { smoke: 30_000, ci: 90_000, full: 240_000 },
  records: {
    latencies: ['acceptance_latency', 'acceptance_round_trip', 'acceptance_pending'],
    counters: {
      acceptance_round_trips_completed: 'tally',
      acceptance_round_trips_failed: 'tally',
      acceptance_round_trips_dropped: 'tally',
      acceptance_round_trips_late: 'tally',
      acceptance_round_trips_per_s: 'throughput',
    },
  },
  catches: ['acceptance-completes-without-waiting'],
  async run(ctx, p) {
    const unsupported = ctx.client.acceptance.skipReason({ evaluator: 'client' });
    if (unsupported) ctx.skip(unsupported);
    const client = ctx.newClient(p.connections);
    // Warm-up, not recorded: connections, JIT and the agent's caches, so the run measures the
    // agent rather than a cold start. Its failures are not judged (the run's own will be).
    await ctx.runOpenModel({
      arrivals: capacity.constantArrivals(5, 400),
      iteration: ctx.acceptanceRoundTrip({ client, timeoutMs: p.timeoutMs }),
      maxInFlight: p.maxInFlight,
      iterationTimeoutMs: p.timeoutMs * 2,
      drainTimeoutMs: p.timeoutMs * 2,
    });

    const acceptance = ctx.latency('acceptance_latency');
    const roundTrip = ctx.latency('acceptance_round_trip');
    const run = await ctx.runOpenModel({
      arrivals: capacity.constantArrivals(p.rate, p.durationMs),
      iteration: ctx.acceptanceRoundTrip({
        client,
        timeoutMs: p.timeoutMs,
        acceptanceLatency: acceptance,
        pendingLatency: ctx.latency('acceptance_pending'),
      }),
      maxInFlight: p.maxInFlight,
      maxBacklog: p.maxBacklog,
      // Two waits (gate, then terminal state) each bounded by timeoutMs.
      iterationTimeoutMs: p.timeoutMs * 2,
      drainTimeoutMs: p.timeoutMs * 2,
      latency: roundTrip,
    });
    const errors = run.failed + run.unfinished;
    ctx.count('acceptance_round_trips_completed', run.succeeded);
    ctx.count('acceptance_round_trips_failed', errors);
    ctx.count('acceptance_round_trips_dropped', run.dropped);
    ctx.count('acceptance_round_trips_late', run.late);
    ctx.count(
      'acceptance_round_trips_per_s',
      run.elapsedMs > 0 ? Math.round((run.succeeded * 10_000) / run.elapsedMs) / 10 : 0,
    );
    if (run.aborted) return;
    capacity.assertReached(run, 'the acceptance round trips'); // never connected: nothing of the agent to judge

    const kinds = Object.entries(run.failures).map(([k, n]) => `${n} ${k}`);
    if (run.unfinished) kinds.push(`${run.unfinished} unfinished`);
    const allowed = (run.scheduled * p.maxErrorPct) / 100;
    const complete = ctx.check(
      'acceptance round trips complete (send → artifacts → pending → accept → COMPLETED; ' +
        `at most ${p.maxErrorPct} % failed or dropped)`,
      run.succeeded > 0 && errors <= allowed && run.dropped <= allowed,
      `${run.succeeded} of ${run.scheduled} at ${p.rate}/s completed, ${errors} failed` +
        (kinds.length ? ` (${kinds.join(', ')})` : '') +
        `, ${run.dropped} dropped, ${run.late} late` +
        (run.firstFailure ? `; first failure: ${run.firstFailure}` : ''),
    );
    if (!complete || acceptance.count === 0) return;
    // The SLO is the user's bound, not a spec rule: MUST (the default level) keeps it failing the run.
    ctx.check(
      `p95 acceptance latency (decision sent → terminal state observed) ≤ ${p.sloP95Ms} ms`,
      acceptance.percentileMs(95) <= p.sloP95Ms,
      `p50 ${f(acceptance.percentileMs(50))} ms, p95 ${f(acceptance.percentileMs(95))} ms, ` +
        `p99 ${f(acceptance.percentileMs(99))} ms (n=${acceptance.count}); ` +
        `round trip p95 ${f(roundTrip.percentileMs(95))} ms`,
    );
  },
});
