// CF-4: resume latency ≤ 1 second (AC-4). Over at least 20 trials: t0 just before a valid answer is
// sent, t1 when the task's leaving INPUT_REQUIRED is observed on its stream; the 95th percentile of
// t1 - t0 must be ≤ 1000 ms. Once more than 5 % of the planned trials are over the bound, the p95
// cannot pass any more and the scenario stops early.
import { defineScenario, describeOutcome, recordResume } from 'a2a-rig';

const BOUND_MS = 1000;

export default defineScenario({
  name: 'cf4',
  description: 'CF-4 resume latency: answer sent → INPUT_REQUIRED left, p95 ≤ 1000 ms over ≥ 20 trials',
  tags: ['conformance', 'hitl', 'latency'],
  needs: { hitlPrompt: true },
  params: { smoke: { trials: 20 }, ci: { trials: 50 }, full: { trials: 200 } },
  budgetMs: { smoke: 60_000, ci: 120_000, full: 300_000 },
  records: { latencies: ['resume_latency'], counters: { trials: 'tally' } },
  catches: ['slow-resume'],
  async run(ctx, { trials }) {
    const latency = ctx.latency('resume_latency');
    let over = 0;
    let missing = 0;
    let fallback: string | undefined;
    const allowedOver = Math.floor(trials * 0.05);
    for (let i = 0; i < trials && over + missing <= allowedOver; i++) {
      const prompt = await ctx.openUsablePrompt(undefined, { recordPasses: false });
      if (!prompt) return;
      const observed = await ctx.answerObserved(prompt.taskId, prompt.promptId, prompt.answers.valid, BOUND_MS * 3);
      if (observed.outcome.kind !== 'accepted') {
        ctx.check(
          "each trial's valid answer is accepted",
          false,
          `trial ${i + 1}: ${describeOutcome(observed.outcome)}`,
        );
        return;
      }
      fallback ??= observed.fallback;
      if (observed.resumedAfterMs === undefined) missing++;
      else {
        recordResume(latency, observed);
        if (observed.resumedAfterMs > BOUND_MS) over++;
      }
    }
    const measured = latency.count;
    const p95 = latency.percentileMs(95);
    const ran = measured + missing;
    const stoppedEarly = ran < trials && over + missing > allowedOver;
    ctx.count('trials', ran);
    // Stopping early is the rule, not a gap: its detail says so, or "2 measured" reads as a pass on 2.
    ctx.check(
      `${trials} trials observed, or stopped once the p95 could not pass`,
      ran >= trials || stoppedEarly,
      stoppedEarly
        ? `stopped after ${ran} of ${trials} trials: ${over} over ${BOUND_MS} ms and ${missing} never resumed, ` +
            `more than the ${allowedOver} a p95 over ${trials} allows`
        : `${measured} measured, ${missing} never left INPUT_REQUIRED within ${BOUND_MS * 3} ms`,
    );
    ctx.check(
      'every accepted answer resumed the task',
      missing === 0,
      `${missing} of ${measured + missing} trials never left INPUT_REQUIRED within ${BOUND_MS * 3} ms` +
        (fallback ? ` (polled: ${fallback})` : ''),
    );
    ctx.check(
      `p95 resume latency ≤ ${BOUND_MS} ms`,
      missing <= allowedOver && over <= allowedOver && p95 <= BOUND_MS,
      `p50 ${latency.percentileMs(50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, ` +
        `p99 ${latency.percentileMs(99).toFixed(1)} ms over ${measured} trials` +
        (fallback ? `; observed by polling GetTask: ${fallback}` : ''),
    );
  },
});
