// deep-nesting: S-2 "bound recursion depth (e.g. 32 levels)" and "schema-validation timeouts",
// held by the agent under hostile input, with the agent staying responsive and its memory bounded.
//  1. Payloads nested 31 and 32 levels (containers; the payload object is level 1) against an open
//     schema ({"tree": anything}) are accepted.
//  2. Payloads nested 33, 1,000 and 100,000 levels are refused with 422 / -32011 and
//     validation_errors, each within REFUSAL_BOUND_MS (sent as JSON text: JSON.stringify itself
//     overflows the stack at 100,000). Each refusal's latency goes to `deep_payload_refusal`.
//  3. A catastrophic-backtracking pattern (^(a+)+$ against "aaa…a!") is refused with a 422 within
//     the same bound (`pattern_refusal`): a backtracking engine would never finish.
//  4. A schema nested 32 subschemas deep is emitted; 33 and 1,000 are never emitted.
//  5. After every hostile request a probe (GetTask, straight to the agent) answers within
//     PROBE_BOUND_MS (`probe_latency`), the task still waiting for its answer.
//  6. The embedded agent's resident memory grows by less than MEMORY_GROWTH_BOUND over the run.
// Rounds repeat 2-5 (ci and full) to show the bounds hold under repetition; each check is recorded
// once, failing if any round broke it. Needs our reference agent: only it can be told which schema
// to ask with.
import { defineScenario, describeAttempt, describeOutcome, type ScenarioContext } from 'a2a-rig';

const REFUSAL_BOUND_MS = 2_000;
const PROBE_BOUND_MS = 1_000;
const MEMORY_GROWTH_BOUND = 256 * 1024 * 1024;
/** Bound on each hostile exchange, so a broken agent costs seconds, not the budget. */
const EXCHANGE_TIMEOUT_MS = 10_000;

const OPEN_TREE = { type: 'object', properties: { tree: {} } };
const BACKTRACKING = { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } };

/** A payload nested `levels` containers deep, as JSON text: {"tree":[[…]]}. */
function nestedPayloadJson(levels: number): string {
  return levels <= 1 ? '{}' : `{"tree":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
}

/** An object schema nested `levels` subschemas deep ({"type":"object"} is 1). */
function nestedSchema(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'object' };
  for (let i = 1; i < levels; i++) schema = { type: 'object', properties: { n: schema } };
  return schema;
}

const askWith = (schema: unknown) => [{ prompt: { text: 'Deep enough?', response_schema: schema } }, { complete: {} }];
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** One check per name however many rounds ran: it fails if any round failed it. */
class RoundChecks {
  private readonly results = new Map<string, { ok: boolean; detail: string; rounds: number }>();
  record(name: string, ok: boolean, detail: string): boolean {
    const seen = this.results.get(name);
    if (!seen) this.results.set(name, { ok, detail, rounds: 1 });
    else {
      seen.rounds++;
      if (seen.ok && !ok) Object.assign(seen, { ok, detail: `round ${seen.rounds}: ${detail}` });
      else if (seen.ok) seen.detail = detail;
    }
    return ok;
  }
  flush(ctx: ScenarioContext): void {
    for (const [name, { ok, detail, rounds }] of this.results)
      ctx.check(name, ok, rounds > 1 && ok ? `${detail} (last of ${rounds} rounds)` : detail);
  }
}

/** Bound on each hostile exchange, as the client's call option. */
const EXCHANGE = { timeoutMs: EXCHANGE_TIMEOUT_MS };

/** GetTask straight to the agent: it must answer promptly, the task still waiting for input. */
async function probe(ctx: ScenarioContext, checks: RoundChecks, taskId: string, after: string): Promise<void> {
  const started = performance.now();
  const got = await ctx.direct.getTask(taskId, EXCHANGE).catch((err: Error) => err);
  const ms = performance.now() - started;
  if (!(got instanceof Error)) ctx.latency('probe_latency').recordMs(ms);
  const state = got instanceof Error ? got.message : got.ok ? got.value.status.state : got.error.message;
  checks.record(
    `after ${after} a probe answers within ${PROBE_BOUND_MS} ms`,
    !(got instanceof Error) && got.ok && ms < PROBE_BOUND_MS,
    `${ms.toFixed(1)} ms`,
  );
  checks.record(`after ${after} the task still waits for input`, state === 'TASK_STATE_INPUT_REQUIRED', state);
}

type Answer = ReturnType<ScenarioContext['client']['answer']>;

/** A hostile answer must get a clear 422, within the bound, and leave the agent responsive. */
async function expectRefusal(
  ctx: ScenarioContext,
  checks: RoundChecks,
  hostile: { what: string; histogram: string; schema: unknown; send: (taskId: string, promptId: string) => Answer },
): Promise<void> {
  const { what, histogram, schema, send } = hostile;
  const prompt = await ctx.openUsablePrompt(askWith(schema), { recordPasses: false });
  if (!prompt) return;
  const outcome = await send(prompt.taskId, prompt.promptId);
  if (outcome.kind === 'invalid') ctx.latency(histogram).recordMs(outcome.latencyMs);
  checks.record(
    `${what} is refused with 422 / -32011 and validation_errors`,
    outcome.kind === 'invalid' && outcome.validationErrors.length > 0,
    describeOutcome(outcome) +
      (outcome.validationErrors.length
        ? `: ${outcome.validationErrors.map((e) => `${e.path || '/'} ${e.keyword}`).join(', ')}`
        : '') +
      (outcome.reason ? `; ${outcome.reason}` : ''),
  );
  checks.record(
    `${what} is answered within ${REFUSAL_BOUND_MS} ms`,
    outcome.kind !== 'error' && outcome.latencyMs < REFUSAL_BOUND_MS,
    `${outcome.latencyMs.toFixed(1)} ms`,
  );
  await probe(ctx, checks, prompt.taskId, what);
}

/** 1. Payloads within the bound are accepted; false when no prompt opened (the check recorded). */
async function acceptDepths(ctx: ScenarioContext, depths: number[]): Promise<boolean> {
  for (const levels of depths) {
    const prompt = await ctx.openUsablePrompt(askWith(OPEN_TREE), { recordPasses: false });
    if (!prompt) return false;
    const outcome = await ctx.client.answerRaw(prompt.taskId, prompt.promptId, nestedPayloadJson(levels), EXCHANGE);
    ctx.check(
      `a payload nested ${levels} levels is accepted`,
      outcome.kind === 'accepted',
      `${describeOutcome(outcome)}${outcome.reason ? `; ${outcome.reason}` : ''}`,
    );
  }
  return true;
}

/** 4. Schemas: 32 subschemas deep is emitted, past it never. */
async function schemaDepths(ctx: ScenarioContext, checks: RoundChecks): Promise<void> {
  const atBound = await ctx.attemptPrompt(askWith(nestedSchema(32)));
  checks.record(
    'a schema nested 32 subschemas deep is emitted and passes the S-2 guard',
    atBound.kind === 'open' && atBound.open.prompt.ok,
    atBound.kind === 'open'
      ? atBound.open.prompt.ok
        ? 'emitted'
        : atBound.open.prompt.reason
      : atBound.kind === 'not-parked'
        ? `${atBound.task.status.state}: ${atBound.statusText}`
        : atBound.kind,
  );
  for (const levels of [33, 1_000]) {
    const attempt = await ctx.attemptPrompt(askWith(nestedSchema(levels)));
    checks.record(
      `a schema nested ${levels} subschemas deep is never emitted`,
      attempt.kind !== 'open',
      describeAttempt(attempt),
    );
    if (attempt.kind === 'open') {
      checks.record(
        `the rig's S-2 guard refuses the agent's ${levels}-deep schema`,
        !attempt.open.prompt.ok,
        attempt.open.prompt.ok ? 'passes' : attempt.open.prompt.reason,
      );
      await ctx.direct.cancelTask(attempt.open.taskId).catch(() => undefined);
    }
  }
}

/** 6. Memory stays bounded (the embedded agent only: the rig cannot see another agent's). */
function checkMemory(ctx: ScenarioContext, memoryBefore: number | undefined): void {
  const memoryAfter = ctx.agentMemoryBytes();
  if (memoryBefore === undefined || memoryAfter === undefined) {
    ctx.log("agent memory not checked: only the embedded agent's resident memory is visible to the rig");
    return;
  }
  ctx.count('agent_rss_before_kib', Math.round(memoryBefore / 1024));
  ctx.count('agent_rss_after_kib', Math.round(memoryAfter / 1024));
  ctx.check(
    `the agent's resident memory grows by less than ${mib(MEMORY_GROWTH_BOUND)}`,
    memoryAfter - memoryBefore < MEMORY_GROWTH_BOUND,
    `${mib(memoryBefore)} → ${mib(memoryAfter)} ` +
      `(${memoryAfter >= memoryBefore ? '+' : ''}${mib(memoryAfter - memoryBefore)})`,
  );
}

export default defineScenario({
  name: 'deep-nesting',
  description:
    'S-2 depth and time bounds: payloads nested 33 / 1,000 / 100,000 levels and a backtracking pattern ' +
    'refused with clear 422s in bounded time, schemas past 32 levels never emitted, the agent responsive ' +
    'and its memory bounded (needs our reference agent: only it can be told which schema to emit)',
  tags: ['hostile', 'hitl', 's-2'],
  needs: { hitlPrompt: true, scripts: true },
  params: {
    smoke: { rounds: 1, acceptedDepths: [31, 32], refusedDepths: [33, 1_000, 100_000], patternInputChars: 50_000 },
    ci: { rounds: 3, acceptedDepths: [31, 32], refusedDepths: [33, 1_000, 100_000], patternInputChars: 200_000 },
    full: { rounds: 10, acceptedDepths: [31, 32], refusedDepths: [33, 1_000, 100_000], patternInputChars: 400_000 },
  },
  budgetMs: { smoke: 20_000, ci: 30_000, full: 120_000 },
  records: {
    latencies: ['probe_latency', 'deep_payload_refusal', 'pattern_refusal'],
    counters: { agent_rss_before_kib: 'tally', agent_rss_after_kib: 'tally' },
  },
  catches: ['no-depth-limit'],
  async run(ctx, { rounds, acceptedDepths, refusedDepths, patternInputChars }) {
    const memoryBefore = ctx.agentMemoryBytes();
    const checks = new RoundChecks();
    if (!(await acceptDepths(ctx, acceptedDepths))) return;

    for (let round = 1; round <= rounds && !ctx.signal.aborted; round++) {
      // 2. Past the bound, from one level over to far beyond what a recursive walk survives.
      for (const levels of refusedDepths) {
        const payload = nestedPayloadJson(levels);
        await expectRefusal(ctx, checks, {
          what: `a payload nested ${levels} levels`,
          histogram: 'deep_payload_refusal',
          schema: OPEN_TREE,
          send: (taskId, promptId) => ctx.client.answerRaw(taskId, promptId, payload, EXCHANGE),
        });
      }
      // 3. A pattern a backtracking engine cannot finish.
      const s = `${'a'.repeat(patternInputChars)}!`;
      await expectRefusal(ctx, checks, {
        what: `a ${patternInputChars}-character string against ^(a+)+$`,
        histogram: 'pattern_refusal',
        schema: BACKTRACKING,
        send: (taskId, promptId) => ctx.client.answer(taskId, promptId, { s }, EXCHANGE),
      });
      await schemaDepths(ctx, checks);
    }
    checks.flush(ctx);
    checkMemory(ctx, memoryBefore);
  },
});
