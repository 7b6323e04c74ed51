// duplicate-flood: "MUST NOT subsequently accept a second response for the same prompt_id", under
// contention. K valid answers to one open prompt are fired at once over many connections (several
// clients, each with its own keep-alive pool, all through the fault proxy):
//  1. exactly one is accepted, the other K−1 are 409 / -32010, and nothing else comes back;
//  2. the task's history shows exactly one transition out of INPUT_REQUIRED: moves into WORKING
//     (status updates, or Task snapshots that change the state) after the prompt's INPUT_REQUIRED
//     event, read from the agent's full replay (seq 1 on) once the flood is over; for agents without
//     a replay plane, from a subscription opened before the flood (its snapshot holds the prompt;
//     every later event is live; without a snapshot, every event is), which the log says; when the
//     agent refuses the subscription (a2a-sdk 0.3.x does for a parked task, with the error framed as
//     the first event of a stream) or the stream ends early, from GetTask snapshots polled through
//     the flood, a weaker view the check's name admits (a transition between two polls goes unseen);
//  3. the latency of every 409 is recorded in `conflict_latency`, the accepted one in
//     `accepted_latency` (from handing the answer to the client's pool to the whole reply, so time
//     queued behind the pool's connections counts: that is what a flooding orchestrator sees).
// Works against any agent that declares hitl-prompt/v1: with ours the prompt is the default
// "Approve?" one; with another agent, whatever a plain message makes it ask.
import { defineScenario, describeOutcome, type ScenarioContext, wire } from 'a2a-rig';

/** After the flood, how long the observer may take to deliver the task's end (it ends at a terminal state). */
const SETTLE_MS = 3_000;
/**
 * How long the subscription's headers are awaited before the flood. An agent that sends them only
 * with its first event sends none while the task is parked and nothing is replayed; its stream is
 * handed over silent and shows the transitions when they come.
 */
const SUBSCRIBE_WAIT_MS = 2_000;
/** Each answer's own bound; the flood as a whole is bounded by the scenario budget. */
const ANSWER_TIMEOUT_MS = 60_000;

/** What both a replay socket and a subscription offer: the events so far, and their end. */
interface Observer {
  readonly events: readonly { event: wire.StreamResponse }[];
  readonly ended: Promise<unknown>;
  close(): Promise<unknown>;
}

const POLL_INTERVAL_MS = 10;

/** Without a stream: the task's states as GetTask snapshots show them, in order, repeats collapsed. */
class StatePoller {
  readonly states: wire.TaskState[] = [];
  promptSeen = false;
  private stopped = false;
  private readonly done: Promise<void>;

  /** Polls straight to the agent (ctx.direct). */
  constructor(ctx: ScenarioContext, taskId: string, promptId: string) {
    this.done = (async () => {
      while (!this.stopped && !ctx.signal.aborted) {
        const got = await ctx.direct.getTask(taskId).catch(() => undefined);
        if (got?.ok) {
          const state = got.value.status.state;
          if (state === 'TASK_STATE_INPUT_REQUIRED' && wire.envelopeIn({ task: got.value })?.prompt_id === promptId)
            this.promptSeen = true;
          if (this.states.at(-1) !== state) this.states.push(state);
        }
        await ctx.sleep(POLL_INTERVAL_MS);
      }
    })();
  }

  get transitions(): number {
    return this.states.filter(
      (s, i) => i > 0 && this.states[i - 1] === 'TASK_STATE_INPUT_REQUIRED' && s !== 'TASK_STATE_INPUT_REQUIRED',
    ).length;
  }

  get terminal(): boolean {
    const last = this.states.at(-1);
    return (
      last === 'TASK_STATE_COMPLETED' ||
      last === 'TASK_STATE_FAILED' ||
      last === 'TASK_STATE_CANCELED' ||
      last === 'TASK_STATE_REJECTED'
    );
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.done;
  }
}

type Subscription = Observer & { readonly end: { reason: string } | undefined };
type Outcomes = Awaited<ReturnType<ScenarioContext['answerFlood']>>;

/**
 * Agents with a replay plane are read after the flood, from seq 1: it holds every stored event,
 * also any a broken agent stores after the task went terminal. Without one, a subscription must be
 * up before the first answer, straight to the agent (no proxy in the way), and GetTask is polled
 * as well, in case the stream the agent grants ends before it shows anything.
 */
async function watchBeforeFlood(
  ctx: ScenarioContext,
  taskId: string,
  promptId: string,
): Promise<{ subscription?: Subscription; poller?: StatePoller }> {
  if (ctx.agent.replayPlane) return {};
  const noReplay = 'the agent does not offer /events (probed when the run began)';
  const poller = new StatePoller(ctx, taskId, promptId);
  const sub = await ctx.direct.subscribe(taskId, { headerWaitMs: SUBSCRIBE_WAIT_MS });
  if (sub.ok) {
    ctx.log(
      `no replay plane (${noReplay}): counting transitions on a subscription opened before the flood, ` +
        'which ends at the first terminal state',
    );
    return { subscription: sub.stream, poller };
  }
  ctx.log(
    `no replay plane (${noReplay}) and the subscription was refused (${sub.error.code} ${sub.error.message}` +
      (sub.inStream ? ', framed as the first event of its stream' : '') +
      '): polling GetTask through the flood',
  );
  return { poller };
}

/** The flood's replies: one accepted, the rest 409, nothing else; each one's latency recorded. */
function judgeReplies(
  ctx: ScenarioContext,
  outcomes: Outcomes,
  flood: { answers: number; clients: number; connectionsPerClient: number; floodMs: number },
): void {
  const { answers, clients, connectionsPerClient, floodMs } = flood;
  const byKind = { accepted: 0, conflict: 0, invalid: 0, error: 0 };
  const conflictLatency = ctx.latency('conflict_latency');
  const acceptedLatency = ctx.latency('accepted_latency');
  let problems = 0;
  for (const outcome of outcomes) {
    byKind[outcome.kind]++;
    // Timed when each reply arrived, not when the tally runs, so the timeline shows the flood as it was.
    if (outcome.kind === 'conflict') conflictLatency.recordMs(outcome.latencyMs, outcome.startedAt + outcome.latencyMs);
    if (outcome.kind === 'accepted') acceptedLatency.recordMs(outcome.latencyMs, outcome.startedAt + outcome.latencyMs);
    if (outcome.problems.length > 0) problems++;
  }
  for (const [kind, n] of Object.entries(byKind)) ctx.count(`answers_${kind}`, n);
  const tally =
    `${byKind.accepted} accepted, ${byKind.conflict} conflict, ${byKind.invalid} invalid, ${byKind.error} error, ` +
    `in ${floodMs.toFixed(0)} ms over ${clients} × ${connectionsPerClient} connections`;
  ctx.check(`exactly one of ${answers} concurrent valid answers is accepted`, byKind.accepted === 1, tally);
  const ms = (p: number) => (conflictLatency.count ? conflictLatency.percentileMs(p).toFixed(1) : '–');
  const firstProblem = outcomes.find((o) => o.kind === 'conflict' && o.problems.length > 0)?.problems[0];
  ctx.check(
    `the other ${answers - 1} are rejected as 409 / -32010`,
    byKind.conflict === answers - 1,
    `${byKind.conflict} conflicts; 409 latency p50 ${ms(50)} ms, p99 ${ms(99)} ms, max ${ms(100)} ms` +
      (problems ? `; ${problems} with deviations, e.g. ${firstProblem}` : ''),
  );
  const stray = outcomes.find((o) => o.kind === 'invalid' || o.kind === 'error');
  ctx.check(
    'no answer comes back as anything but accepted or 409',
    byKind.invalid + byKind.error === 0,
    stray
      ? `${byKind.invalid} invalid, ${byKind.error} error; e.g. ${describeOutcome(stray)}` +
          (stray.reason ? `: ${stray.reason}` : '')
      : undefined,
  );
}

/** The task's end could not be watched on a stream: judged from the polled snapshots (weaker). */
async function judgeByPolling(ctx: ScenarioContext, poller: StatePoller, subscription: Subscription | undefined) {
  const settleBy = performance.now() + Math.min(SETTLE_MS, ctx.remainingMs());
  while (!poller.terminal && performance.now() < settleBy && !ctx.signal.aborted) await ctx.sleep(POLL_INTERVAL_MS);
  await poller.stop();
  await subscription?.close();
  const why = subscription ? 'the subscription ended before its first event' : 'the subscription was refused';
  ctx.check(
    "exactly one transition out of INPUT_REQUIRED in the task's states as GetTask polling saw them " +
      '(weaker: no stream to count events on)',
    poller.promptSeen && poller.transitions === 1,
    poller.promptSeen
      ? `${poller.transitions} transitions in the polled states ${poller.states.join(' → ')} (${why})`
      : `the prompt's INPUT_REQUIRED never showed in GetTask (${why})`,
  );
}

/** The task's history after the flood: exactly one transition out of the prompt's INPUT_REQUIRED. */
async function judgeHistory(
  ctx: ScenarioContext,
  taskId: string,
  promptId: string,
  subscription: Subscription | undefined,
): Promise<void> {
  // Both observers end at a terminal task; one that stays WORKING gets SETTLE_MS.
  const observer: Observer = subscription ?? (await ctx.direct.replay(taskId, { since: 0 }));
  const observedOn = subscription
    ? 'a subscription opened before the flood'
    : 'the full replay from seq 1, read after the flood';
  const settled =
    (await ctx.within(
      observer.ended.then(() => true),
      Math.min(SETTLE_MS, ctx.remainingMs()),
    )) ?? false;
  await observer.close();
  const events = observer.events.map((e) => e.event);
  const promptAt = events.findIndex(
    (e) => wire.stateOfEvent(e) === 'TASK_STATE_INPUT_REQUIRED' && wire.envelopeIn(e)?.prompt_id === promptId,
  );
  // A subscription opened on the parked task before any answer: all it shows is after the prompt,
  // whether or not the agent replayed the prompt first.
  const from = promptAt >= 0 ? promptAt + 1 : subscription ? 0 : -1;
  const after = from < 0 ? [] : events.slice(from);
  // Distinct transitions, whether status updates or Task snapshots carried them.
  const moves = wire.stateTransitions(after, 'TASK_STATE_INPUT_REQUIRED');
  const working = moves.filter((s) => s === 'TASK_STATE_WORKING').length;
  // An agent may leave INPUT_REQUIRED for a terminal state without announcing WORKING: that is one transition too.
  const left = moves.some((s) => s !== 'TASK_STATE_INPUT_REQUIRED');
  const finalState = [...events]
    .reverse()
    .map(wire.stateOfEvent)
    .find((s) => s !== undefined);
  // A subscription ends at the first terminal state; a snapshot tells whether the task moved on after it.
  const snapshot = await ctx.direct.getTask(taskId);
  const movedOn = snapshot.ok && finalState !== undefined && snapshot.value.status.state !== finalState;
  const transitions = (working > 0 ? working : left ? 1 : 0) + (movedOn ? 1 : 0);
  ctx.check(
    "exactly one transition out of INPUT_REQUIRED in the task's history",
    from >= 0 && transitions === 1,
    from < 0
      ? `the prompt's INPUT_REQUIRED event never showed on ${observedOn}`
      : `${transitions} (${working} moves into WORKING after the prompt) on ${observedOn}` +
          (promptAt < 0 ? ' (which did not replay the prompt)' : '') +
          `, ` +
          `${events.length} events, last state ${finalState}` +
          (settled ? '' : `, not terminal ${SETTLE_MS} ms after the flood`) +
          (movedOn && snapshot.ok ? `; yet GetTask says ${snapshot.value.status.state} afterwards` : ''),
  );
}

export default defineScenario({
  name: 'duplicate-flood',
  description:
    'K concurrent valid answers to one prompt over many connections: exactly one accepted, K−1 × 409 / ' +
    '-32010, one transition out of INPUT_REQUIRED; 409 latency recorded',
  tags: ['hostile', 'hitl', 'load'],
  needs: { hitlPrompt: true },
  params: {
    smoke: { answers: 1_000, clients: 4, connectionsPerClient: 64 },
    ci: { answers: 3_000, clients: 4, connectionsPerClient: 64 },
    full: { answers: 10_000, clients: 8, connectionsPerClient: 64 },
  },
  budgetMs: { smoke: 20_000, ci: 30_000, full: 120_000 },
  records: {
    latencies: ['conflict_latency', 'accepted_latency'],
    counters: {
      answers_accepted: 'tally',
      answers_conflict: 'tally',
      answers_invalid: 'tally',
      answers_error: 'tally',
    },
  },
  catches: ['accept-duplicates'],
  async run(ctx, { answers, clients, connectionsPerClient }) {
    const open = await ctx.openUsablePrompt();
    if (!open) return;
    const { promptId } = open;
    const { subscription, poller } = await watchBeforeFlood(ctx, open.taskId, promptId);

    const timeoutMs = Math.max(1_000, Math.min(ANSWER_TIMEOUT_MS, ctx.remainingMs() - SETTLE_MS - 2_000));
    const started = performance.now();
    // On the worker threads with --workers N > 1, each its share of the answers and clients.
    const outcomes = await ctx.answerFlood({
      taskId: open.taskId,
      promptId,
      payload: open.answers.valid,
      answers,
      clients,
      connectionsPerClient,
      timeoutMs,
    });
    const floodMs = performance.now() - started;
    judgeReplies(ctx, outcomes, { answers, clients, connectionsPerClient, floodMs });

    const streamShowedNothing =
      subscription !== undefined &&
      subscription.events.length === 0 &&
      subscription.end !== undefined &&
      subscription.end.reason !== 'ended';
    if (poller && (!subscription || streamShowedNothing)) return judgeByPolling(ctx, poller, subscription);
    await poller?.stop();
    await judgeHistory(ctx, open.taskId, promptId, subscription);
  },
});
