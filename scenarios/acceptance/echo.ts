// No echo, no gate. A client may wait for a decision point only when the agent echoed the extension
// in the creating response (A2A-Extensions); without the echo it MUST assume plain WORKING →
// COMPLETED and not wait. So an agent must never park a task pending acceptance for a client it did
// not confirm activation to, and a client that did not activate the extension (criteria in the
// metadata or not) gets a plain task, never a pending acceptance (one that follows the rig's
// script completes on its own).
import { defineScenario, everyProfile, wire } from 'a2a-rig';

export default defineScenario({
  name: 'acc-echo',
  description:
    'a task parked pending acceptance comes with the echo; without the echo the task ends on its own; a ' +
    'non-activating client gets plain WORKING → COMPLETED',
  tags: ['acceptance'],
  needs: { acceptance: true },
  params: everyProfile({}),
  budgetMs: everyProfile(30_000),
  records: { latencies: [], counters: {} },
  catches: ['no-extension-echo'],
  async run(ctx) {
    ctx.acceptance.requireGate();
    const activated = await ctx.acceptance.openGate();
    if (activated.kind === 'refused' || activated.kind === 'message') {
      ctx.check('the agent starts a task for an activating client', false, ctx.acceptance.describeOpening(activated));
      return;
    }
    ctx.check(
      'a task parked pending acceptance comes with the echo of the extension',
      activated.kind !== 'pending' || activated.echoed,
      activated.echoed
        ? 'echoed'
        : `parked pending without ${wire.ACCEPTANCE_URI} in the response's A2A-Extensions: ` +
            'a client that sees no echo must not wait, so nothing would ever decide it',
    );
    if (!activated.echoed && activated.kind === 'not-pending' && ctx.agent.scripts) {
      // The client must not wait for a gate: a scripted task has to end on its own.
      const ended = ctx.acceptance.isTerminal(activated.task)
        ? activated.task
        : await ctx.acceptance.settle(activated.task.id, ctx.acceptance.isTerminal);
      ctx.check(
        'without the echo the task ends without a decision',
        ctx.acceptance.isTerminal(ended),
        ctx.acceptance.stateOf(ctx.client, ended),
      );
    } else if (activated.kind === 'pending') {
      await ctx.client.acceptance.decide(activated.task.id, activated.task.contextId, { action: 'accept' });
    }

    const plain = await ctx.acceptance.openGate({ criteria: { maxRejections: 1 }, extensions: [] });
    if (plain.kind === 'refused' || plain.kind === 'message') {
      ctx.check(
        'a client that does not activate the extension gets a task',
        false,
        ctx.acceptance.describeOpening(plain),
      );
      return;
    }
    ctx.check('without activation the extension is not echoed', !plain.echoed);
    ctx.check(
      'without activation the task is never parked pending acceptance',
      plain.kind === 'not-pending',
      ctx.acceptance.stateOf(ctx.client, plain.task),
    );
    // What a plain task does is the agent's business; one that follows the rig's script has no reason to stop.
    if (ctx.agent.scripts) {
      const done = ctx.acceptance.isTerminal(plain.task)
        ? plain.task
        : await ctx.acceptance.settle(plain.task.id, ctx.acceptance.isTerminal);
      ctx.check(
        'without activation the scripted task completes on its own',
        done?.status.state === 'TASK_STATE_COMPLETED',
        ctx.acceptance.stateOf(ctx.client, done),
      );
    }
  },
});
