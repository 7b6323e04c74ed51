// A hostile artifactSchema is refused on the activating request, quickly: deeper than the nesting
// limit, larger than the size limit, a remote $ref (never fetched), a pattern that needs a
// backtracking engine and goes exponential on one, an unbounded $ref cycle. Each refusal is
// AcceptanceCriteriaInvalid (-32040) within the per-request budget, and the agent still opens gated
// tasks afterwards.
import { defineScenario, everyProfile, wire } from 'a2a-rig';

/** Each hostile request must be answered within this (the guards compile within ~1 s; a loaded box gets margin). */
const REFUSAL_BUDGET_MS = 3_000;

function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < depth; i++) schema = { type: 'object', properties: { x: schema } };
  return schema;
}

function oversized(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 2_000; i++)
    properties[`field_${i.toString().padStart(5, '0')}`] = { type: 'string', description: 'x'.repeat(24) };
  return { type: 'object', properties };
}

export default defineScenario({
  name: 'acc-hostile-schema',
  description:
    'hostile artifactSchemas (too deep, too large, remote $ref, backtracking pattern, $ref cycle) are ' +
    'refused with -32040 within the budget; the agent keeps working',
  tags: ['acceptance', 'hostile'],
  needs: { acceptance: true },
  params: everyProfile({}),
  budgetMs: everyProfile(40_000),
  records: { latencies: ['refusal_latency'], counters: { refused: 'tally' } },
  catches: ['acceptance-skips-criteria-validation'],
  async run(ctx) {
    ctx.acceptance.requireGate({ artifactSchema: true });
    const cases: Array<[string, unknown]> = [
      ['nested 40 subschemas deep', nested(40)],
      ['larger than 64 KiB', oversized()],
      ['a remote $ref', { type: 'object', properties: { x: { $ref: 'https://attacker.invalid/schema.json' } } }],
      // Nested quantifiers AND a backreference: a linear (RE2) engine cannot compile it, a backtracking one
      // goes exponential on it. (A plain `(a+)+$` is no threat to a linear engine, so it is not a case.)
      [
        'a pattern only a backtracking engine runs, exponentially',
        { type: 'object', properties: { x: { type: 'string', pattern: '^(a+)+\\1$' } } },
      ],
      ['an unbounded $ref cycle', { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' }],
    ];
    const taken: string[] = [];
    const wrong: string[] = [];
    const slow: string[] = [];
    for (const [what, artifactSchema] of cases) {
      const opened = await ctx.acceptance.openGate({ criteria: { artifactSchema }, timeoutMs: REFUSAL_BUDGET_MS * 3 });
      if (opened.latencyMs > REFUSAL_BUDGET_MS) slow.push(`${what}: ${Math.round(opened.latencyMs)} ms`);
      if (opened.kind !== 'refused') {
        taken.push(`${what}: ${ctx.acceptance.describeOpening(opened)}`);
        if (opened.kind !== 'message') await ctx.client.cancelTask(opened.task.id).catch(() => undefined);
        continue;
      }
      ctx.latency('refusal_latency').recordMs(opened.latencyMs);
      ctx.count('refused');
      if (opened.code !== wire.ACCEPTANCE_CRITERIA_INVALID)
        wrong.push(`${what}: JSON-RPC ${opened.code} ${opened.message}`);
    }
    ctx.expectNone('every hostile artifactSchema is refused', taken, cases.length, { wrong: 'taken' });
    ctx.expectNone(
      `the refusal is AcceptanceCriteriaInvalid (${wire.ACCEPTANCE_CRITERIA_INVALID})`,
      wrong,
      cases.length - taken.length,
    );
    ctx.expectNone(`every hostile request is answered within ${REFUSAL_BUDGET_MS} ms`, slow, cases.length);
    const after = await ctx.acceptance.openGate({ criteria: { artifactSchema: { type: 'object' } } });
    ctx.check(
      'afterwards the agent still parks a gated task with a plain artifactSchema',
      after.kind === 'pending',
      ctx.acceptance.describeOpening(after),
    );
    if (after.kind === 'pending')
      await ctx.client.acceptance.decide(after.task.id, after.task.contextId, { action: 'accept' });
  },
});
