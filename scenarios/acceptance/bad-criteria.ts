// Invalid criteria are refused on the activating request: AcceptanceCriteriaInvalid (-32040; HTTP
// 400 on HTTP+JSON), data naming the extension, and no task created (the agent must not accept a
// task it cannot gate). Each case is sent in a fresh contextId, and where the agent has ListTasks
// that context is checked to hold no task.
import { defineScenario, everyProfile, wire } from 'a2a-rig';

export default defineScenario({
  name: 'acc-bad-criteria',
  description:
    'malformed criteria (unknown evaluator, negative or fractional numbers, bad requiredArtifacts, a ' +
    'non-schema) are refused with -32040 and no task',
  tags: ['acceptance', 'hostile'],
  needs: { acceptance: true },
  params: everyProfile({}),
  budgetMs: everyProfile(30_000),
  records: { latencies: [], counters: { refused: 'tally' } },
  catches: ['acceptance-skips-criteria-validation'],
  async run(ctx) {
    ctx.acceptance.requireGate();
    const cap = ctx.client.acceptance.declaration.maxRejectionsCap;
    const cases: Array<[string, unknown]> = [
      ['criteria that are not an object', 'accept anything'],
      ['an unknown evaluator', { evaluator: 'robot' }],
      ['a negative maxRejections', { maxRejections: -1 }],
      ['a fractional maxRejections', { maxRejections: 1.5 }],
      ['a zero acceptanceTimeoutSeconds', { acceptanceTimeoutSeconds: 0 }],
      ['a negative acceptanceTimeoutSeconds', { acceptanceTimeoutSeconds: -5 }],
      ['requiredArtifacts that are not names', { requiredArtifacts: [42, ''] }],
      ['an artifactSchema that is not a schema', { artifactSchema: 42 }],
      ['an artifactSchema with an unknown type', { artifactSchema: { type: 'nonsense' } }],
      ...(cap !== undefined
        ? [[`maxRejections above the declared cap ${cap}`, { maxRejections: cap + 1 }] as [string, unknown]]
        : []),
    ];
    const accepted: string[] = [];
    const wrong: string[] = [];
    const created: string[] = [];
    const problems: string[] = [];
    let listing: string | undefined;
    for (const [what, criteria] of cases) {
      const contextId = ctx.acceptance.freshContextId();
      const opened = await ctx.acceptance.openGate({ criteria, contextId });
      if (opened.kind !== 'refused') {
        accepted.push(`${what}: ${ctx.acceptance.describeOpening(opened)}`);
        if (opened.kind !== 'message') await ctx.client.cancelTask(opened.task.id).catch(() => undefined);
        continue;
      }
      ctx.count('refused');
      if (opened.code !== wire.ACCEPTANCE_CRITERIA_INVALID)
        wrong.push(`${what}: JSON-RPC ${opened.code} ${opened.message}`);
      else if (opened.refusal?.extension !== wire.ACCEPTANCE_URI)
        problems.push(`${what}: ${opened.refusal?.problems.join('; ') || 'error.data does not name the extension'}`);
      const listed = await ctx.acceptance.tasksInContext(ctx.direct, contextId);
      if ('unsupported' in listed) listing = listed.unsupported;
      else if (listed.count > 0) created.push(`${what}: ${listed.count} task(s) in its context`);
    }
    ctx.expectNone('invalid criteria are refused on the activating request', accepted, cases.length, {
      wrong: 'taken',
    });
    const refused = cases.length - accepted.length;
    ctx.expectNone(`the refusal is AcceptanceCriteriaInvalid (${wire.ACCEPTANCE_CRITERIA_INVALID})`, wrong, refused);
    ctx.expectNone("the refusal's error data names the extension", problems, refused);
    if (listing && created.length === 0) ctx.log(`no task created: not checked by listing (${listing})`);
    else ctx.expectNone('a refused request creates no task (ListTasks of its context is empty)', created, refused);
  },
});
