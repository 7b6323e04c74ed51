// Resume latency as a client sees it: answer sent → the task's leaving INPUT_REQUIRED observed on
// its stream, first with no toxic, then with a latency toxic on the agent-to-rig direction. The
// stream carries the resume event, so the toxic must shift the distribution by the injected
// latency: the reported shift has to match it (within a tolerance), or the measurement is lying.
// `toxicTrials` sizes the toxic half apart: each of its trials waits out the toxic several times
// (about 0.5 s at 100 ms), the plain ones take milliseconds, so `ab` asks for many plain trials and
// no toxic half (toxicTrials=0) to pool thousands of resumes a side within its budget.
import { defineScenario, recordResume, type ScenarioContext } from 'a2a-rig';

const RESUME_BOUND_MS = 1000;

async function measure(ctx: ScenarioContext, trials: number, metric: string): Promise<boolean> {
  const histogram = ctx.latency(metric);
  let over = 0;
  for (let i = 0; i < trials; i++) {
    const prompt = await ctx.openUsablePrompt(undefined, { recordPasses: false });
    if (!prompt) return false;
    const observed = await ctx.answerObserved(
      prompt.taskId,
      prompt.promptId,
      prompt.answers.valid,
      RESUME_BOUND_MS * 3,
    );
    if (observed.outcome.kind !== 'accepted' || observed.resumedAfterMs === undefined) {
      ctx.check(
        `${metric}: every valid answer is accepted and observed resuming`,
        false,
        `trial ${i + 1}: ${observed.outcome.kind}, state after ${observed.stateAfter}` +
          (observed.fallback ? ` (${observed.fallback})` : ''),
      );
      return false;
    }
    recordResume(histogram, observed);
    // Past the bound on more than 5 % of the planned trials the p95 cannot pass: stop early.
    if (observed.resumedAfterMs > RESUME_BOUND_MS && ++over > Math.floor(trials * 0.05)) break;
  }
  return true;
}

export default defineScenario({
  name: 'resume-latency',
  description:
    'answer → leaving INPUT_REQUIRED on the stream, with no toxic and with a latency toxic; the shift must ' +
    'match the toxic',
  tags: ['latency', 'chaos', 'hitl'],
  needs: { hitlPrompt: true, faults: true },
  params: {
    smoke: { trials: 20, toxicTrials: 20, toxicLatencyMs: 100 },
    ci: { trials: 100, toxicTrials: 100, toxicLatencyMs: 100 },
    full: { trials: 500, toxicTrials: 500, toxicLatencyMs: 100 },
  },
  budgetMs: { smoke: 60_000, ci: 180_000, full: 600_000 },
  records: { latencies: ['resume_latency', 'resume_latency_with_latency_toxic'], counters: {} },
  catches: ['slow-resume'],
  async run(ctx, { trials, toxicTrials, toxicLatencyMs }) {
    if (!(await measure(ctx, trials, 'resume_latency'))) return;
    const base = ctx.latency('resume_latency');
    const fast = ctx.check(
      `p95 resume latency without toxics ≤ ${RESUME_BOUND_MS} ms`,
      base.percentileMs(95) <= RESUME_BOUND_MS,
      `p50 ${base.percentileMs(50).toFixed(2)} ms, p95 ${base.percentileMs(95).toFixed(2)} ms, ` +
        `p99 ${base.percentileMs(99).toFixed(2)} ms (n=${base.count})`,
    );
    if (!fast || toxicTrials === 0) return;

    await ctx.faults.add({ type: 'latency', stream: 'downstream', attributes: { latency: toxicLatencyMs, jitter: 0 } });
    if (!(await measure(ctx, toxicTrials, 'resume_latency_with_latency_toxic'))) return;
    const toxic = ctx.latency('resume_latency_with_latency_toxic');
    const shiftMs = toxic.percentileMs(50) - base.percentileMs(50);
    // Generous, since both medians carry scheduling noise on a shared machine.
    const tolerance = Math.max(20, toxicLatencyMs * 0.25);
    ctx.check(
      `the median shifts by the injected ${toxicLatencyMs} ms (±${tolerance} ms)`,
      Math.abs(shiftMs - toxicLatencyMs) <= tolerance,
      `median ${base.percentileMs(50).toFixed(2)} → ${toxic.percentileMs(50).toFixed(2)} ms: ` +
        `shift ${shiftMs.toFixed(2)} ms`,
    );
  },
});
