// §Activation: an agent that has not had hitl-prompt/v1 activated MUST NOT emit the envelope (it may
// still use INPUT_REQUIRED with plain content); once activated it emits the envelope and echoes the
// URI in its response A2A-Extensions header.
import { defineScenario, everyProfile, wire } from 'a2a-rig';

export default defineScenario({
  name: 'activation',
  description: 'no envelope without activation; with activation the envelope is there and the URI is echoed',
  tags: ['conformance', 'hitl'],
  needs: { hitlPrompt: true },
  params: everyProfile({}),
  budgetMs: everyProfile(20_000),
  records: { latencies: [], counters: {} },
  catches: ['envelope-without-activation'],
  async run(ctx) {
    const plain = await ctx.attemptPrompt(undefined, { extensions: [] });
    if (plain.kind === 'refused' || plain.kind === 'message') {
      return ctx.skip(
        'without activation the agent did not start a task that waits ' +
          `(${plain.kind === 'refused' ? plain.reason : 'it answered with a Message'})`,
      );
    }
    if (plain.kind === 'not-parked') {
      // An agent may refuse to ask without the extension; what matters is that it emits no envelope.
      ctx.log(`without activation the task went to ${plain.task.status.state}`);
    }
    ctx.check(
      'without activation no hitl-prompt/v1 envelope is emitted',
      plain.kind !== 'open',
      plain.kind === 'open'
        ? `prompt ${plain.open.prompt.ok ? plain.open.prompt.envelope.prompt_id : '(malformed)'} was emitted`
        : plain.kind,
    );

    const activated = await ctx.openPrompt();
    ctx.check(
      'with activation the envelope is emitted and passes the S-2 checks',
      activated.prompt.ok,
      activated.prompt.ok ? undefined : activated.prompt.reason,
    );
    ctx.check(
      'with activation the URI is echoed in A2A-Extensions',
      activated.echoed.includes(wire.HITL_PROMPT_URI),
      JSON.stringify(activated.echoed),
    );
  },
});
