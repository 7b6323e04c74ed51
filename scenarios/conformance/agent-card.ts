// The ground every other scenario stands on, and the part of the spec that holds for any A2A agent:
// the card is served and readable, names an endpoint of the binding and wire generation the rig
// speaks, the endpoint answers an A2A call (GetTask of an unknown task is TaskNotFound), and when
// hitl-prompt/v1 is declared, it is declared as §Activation says (required: false, params: {}).
import { defineScenario, everyProfile, wire } from 'a2a-rig';

export default defineScenario({
  name: 'agent-card',
  description:
    'the agent card is served, names an endpoint that answers, and declares hitl-prompt/v1 (if at ' +
    'all) with required: false, params: {}',
  tags: ['conformance', 'a2a'],
  needs: {},
  params: everyProfile({}),
  budgetMs: everyProfile(15_000),
  records: { latencies: [], counters: {} },
  catches: ['declare-required-extension'],
  async run(ctx) {
    const card = ctx.card;
    const missing = card.problems.filter((p) => p.startsWith('the card lacks'));
    ctx.check(
      'the card has the required fields',
      missing.length === 0,
      missing.join('; ') || `A2A ${card.generation} (${card.generationSource})`,
    );
    const endpointKind = `${card.binding} endpoint for A2A ${card.generation}`;
    ctx.check(
      `the card names a ${endpointKind}`,
      card.interfaces.some((i) => i.binding === card.binding && i.generation === card.generation),
      card.interfaces.length
        ? `it offers ${card.interfaces.map((i) => `${i.binding} ${i.generation}`).join(', ')}`
        : 'none',
    );
    // The run got here, so each one the rig does not understand was given with --activate.
    const required = wire.requiredExtensions(card.card);
    if (required.length > 0) ctx.log(`the card declares required: ${required.join(', ')} (each activated)`);
    const unknown = await ctx.client.getTask('a2a-rig-no-such-task-00000000');
    ctx.check(
      'the endpoint answers A2A: GetTask of an unknown task is TaskNotFound (-32001)',
      !unknown.ok && unknown.error.code === wire.A2A_TASK_NOT_FOUND,
      unknown.ok ? 'it returned a task' : `${unknown.error.code} ${unknown.error.message}`,
    );
    if (!card.hitl.declared) {
      ctx.log('hitl-prompt/v1 is not declared: the extension scenarios are skipped');
      return;
    }
    ctx.check(
      'hitl-prompt/v1 is declared with required: false',
      card.hitl.required === false,
      card.hitl.requiredAbsent
        ? 'required left out (false is its default; ProtoJSON omits it)'
        : `required: ${JSON.stringify(card.hitl.required)}`,
    );
    const params = card.hitl.params;
    ctx.check(
      'hitl-prompt/v1 is declared with empty params',
      params === undefined || (typeof params === 'object' && params !== null && Object.keys(params).length === 0),
      JSON.stringify(params),
    );
  },
});
