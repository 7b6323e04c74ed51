// oversized-schema: S-2 "Denial-of-service via large response_schema", at both ends.
//  1. The agent is told (by script) to ask with a response_schema of exactly 65,536 bytes
//     serialized: it must emit it, the envelope must pass the rig's S-2 guard, and a valid answer
//     to it must be accepted (so the bound below is about the one byte over, not about size).
//  2. Schemas of 65,537 bytes and 1 MiB must never be emitted: any outcome in which no envelope
//     carrying them reaches the rig passes (the task fails with a reason, or the request itself is
//     refused, e.g. 413 for a body over the agent's limit). The outcome is in each check's detail.
//  3. The rig refuses an oversized envelope itself: its guard classes a 65,537-byte response_schema
//     a malformed prompt (checked on a built envelope every run, and on the agent's own envelope
//     when a broken agent emits one — then the "never emitted" check fails, as it must).
// Only our reference agent can be told to emit a given schema, so this needs a2a-rig scripts.
import {
  freshId,
  defineScenario,
  describeAttempt,
  describeOutcome,
  type ScenarioContext,
  type types,
  wire,
} from 'a2a-rig';

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** An object schema that serializes to exactly `bytes` bytes (the padding is a description). */
function schemaOfBytes(bytes: number): Record<string, unknown> {
  const pad = bytes - bytesOf({ type: 'object', description: '' });
  const schema = { type: 'object', description: 'x'.repeat(pad) };
  if (bytesOf(schema) !== bytes) throw new Error(`built a ${bytesOf(schema)}-byte schema, wanted ${bytes}`);
  return schema;
}

const askWith = (schema: Record<string, unknown>) => [
  { prompt: { text: 'How big a form is too big?', response_schema: schema } },
  { complete: {} },
];

/** Serialized sizes of every response_schema the rig received for a task, on any connection. */
function schemaSizesReceived(ctx: ScenarioContext, taskId: string): number[] {
  return ctx.history.entries({ taskId }).flatMap((entry) => {
    const envelope = wire.statusOfEvent(entry.event)?.message?.metadata?.[wire.HITL_PROMPT_URI];
    if (typeof envelope !== 'object' || envelope === null || !('response_schema' in envelope)) return [];
    return [bytesOf((envelope as { response_schema: unknown }).response_schema)];
  });
}

type Attempt = types.PromptAttempt;

/** 3a. The rig's own guard, on envelopes built here: exactly 64 KiB is allowed, one byte more is not. */
function guardBound(ctx: ScenarioContext): void {
  const guard = (bytes: number) =>
    ctx.client.guard.check({ prompt_id: freshId(), prompt: 'Big?', response_schema: schemaOfBytes(bytes) });
  const atBound = guard(wire.MAX_RESPONSE_SCHEMA_BYTES);
  ctx.check(
    `the rig's S-2 guard accepts a ${wire.MAX_RESPONSE_SCHEMA_BYTES}-byte response_schema`,
    atBound.ok,
    atBound.ok ? undefined : atBound.reason,
  );
  const overBound = guard(wire.MAX_RESPONSE_SCHEMA_BYTES + 1);
  ctx.check(
    `the rig's S-2 guard classes a ${wire.MAX_RESPONSE_SCHEMA_BYTES + 1}-byte response_schema a malformed prompt`,
    !overBound.ok && overBound.reason.includes(String(wire.MAX_RESPONSE_SCHEMA_BYTES)),
    overBound.ok ? 'accepted' : overBound.reason,
  );
}

/** 1. Exactly at the bound: emitted, intact, usable. */
async function atTheBound(ctx: ScenarioContext, emitted: number): Promise<Attempt> {
  const atLimit = await ctx.attemptPrompt(askWith(schemaOfBytes(emitted)));
  const sizes = atLimit.kind === 'open' ? schemaSizesReceived(ctx, atLimit.open.taskId) : [];
  ctx.check(
    `a ${emitted}-byte response_schema is emitted (INPUT_REQUIRED, the schema intact)`,
    atLimit.kind === 'open' && sizes.length > 0 && sizes.every((b) => b === emitted),
    `${describeAttempt(atLimit)}${sizes.length ? `; schema bytes received: ${sizes.join(', ')}` : ''}`,
  );
  const prompt = atLimit.kind === 'open' ? ctx.usable(atLimit.open) : undefined;
  if (atLimit.kind === 'open' && prompt) {
    const answered = await ctx.client.answer(atLimit.open.taskId, prompt.promptId, prompt.answers.valid);
    ctx.check(
      `a valid answer to the ${emitted}-byte prompt is accepted`,
      answered.kind === 'accepted',
      describeOutcome(answered),
    );
  }
  return atLimit;
}

/** 2. Over the bound: never emitted. 3b. If a broken agent emits one anyway, the rig refuses it. */
async function overTheBound(ctx: ScenarioContext, bytes: number, atLimit: Attempt): Promise<void> {
  const attempt = await ctx.attemptPrompt(askWith(schemaOfBytes(bytes)));
  const taskId =
    attempt.kind === 'open'
      ? attempt.open.taskId
      : attempt.kind === 'not-parked' || attempt.kind === 'no-envelope'
        ? attempt.task.id
        : undefined;
  const received = taskId ? schemaSizesReceived(ctx, taskId) : [];
  ctx.check(
    `a ${bytes}-byte response_schema is never emitted`,
    attempt.kind !== 'open' && received.length === 0,
    describeAttempt(attempt),
  );
  if (attempt.kind === 'refused' && atLimit.kind === 'open') {
    const alive = await ctx.direct.getTask(atLimit.open.taskId, { timeoutMs: 5_000 }).catch((err: Error) => err);
    ctx.check(
      `the agent still answers after refusing the ${bytes}-byte request`,
      !(alive instanceof Error) && alive.ok,
      alive instanceof Error ? alive.message : alive.ok ? alive.value.status.state : alive.error.message,
    );
  }
  if (attempt.kind === 'not-parked') {
    const why = attempt.statusText ?? '';
    ctx.check(
      `the task refused for the ${bytes}-byte schema says why`,
      why.includes(String(wire.MAX_RESPONSE_SCHEMA_BYTES)),
      why || '(no status message)',
    );
  }
  if (attempt.kind === 'open') {
    const { prompt } = attempt.open;
    ctx.check(
      `the rig's S-2 guard classes the agent's ${bytes}-byte envelope a malformed prompt`,
      !prompt.ok && prompt.reason.includes(String(wire.MAX_RESPONSE_SCHEMA_BYTES)),
      prompt.ok ? 'the guard accepted it' : prompt.reason,
    );
    await ctx.direct.cancelTask(attempt.open.taskId).catch(() => undefined);
  }
}

export default defineScenario({
  name: 'oversized-schema',
  description:
    'S-2 schema size: 65,536 bytes emitted and answerable, 65,537 bytes and 1 MiB never emitted, and the ' +
    'rig refuses an oversized envelope itself (needs our reference agent: only it can be told which schema ' +
    'to emit)',
  tags: ['hostile', 'hitl', 's-2'],
  needs: { hitlPrompt: true, scripts: true },
  params: {
    smoke: { emitted: 65_536, neverEmitted: [65_537, 1_048_576] },
    ci: { emitted: 65_536, neverEmitted: [65_537, 1_048_576] },
    full: { emitted: 65_536, neverEmitted: [65_537, 1_048_576] },
  },
  budgetMs: { smoke: 20_000, ci: 30_000, full: 30_000 },
  records: { latencies: [], counters: {} },
  catches: ['emit-oversized-schema'],
  async run(ctx, { emitted, neverEmitted }) {
    guardBound(ctx);
    const atLimit = await atTheBound(ctx, emitted);
    for (const bytes of neverEmitted) await overTheBound(ctx, bytes, atLimit);
  },
});
