// CF-5: transport-only — no UI assumptions (AC-5). The emitted envelope carries only the fields the
// spec lists (prompt_id, prompt, response_schema, deadline, allowed_responders), matches
// envelope.schema.json, and no field names a UI, a delivery channel or a human identity directory.
// (The spec's own text carrying no "MUST display" obligation is a property of the spec, not of an
// agent, and is not something a run can observe.)
import { defineScenario, everyProfile, wire } from 'a2a-rig';

const SPEC_FIELDS = new Set(['prompt_id', 'prompt', 'response_schema', 'deadline', 'allowed_responders']);
// Words of a property name (between underscores) that speak of a UI, or of a channel or an addressee.
const UI_WORDS = 'ui|display|render|view|widget|html|markdown|modal|form|button';
const CHANNEL_WORDS = 'channel|email|slack|sms|teams|webhook|push|directory|ldap|user_?id|assignee';
const UI_OR_CHANNEL = new RegExp(`(^|_)(${UI_WORDS}|${CHANNEL_WORDS})(_|$)`, 'i');

export default defineScenario({
  name: 'cf5',
  description: "CF-5 transport-only envelope: only the spec's fields, none about a UI, channel or identity directory",
  tags: ['conformance', 'hitl'],
  needs: { hitlPrompt: true },
  params: everyProfile({}),
  budgetMs: everyProfile(20_000),
  records: { latencies: [], counters: {} },
  catches: ['envelope-extra-field'],
  async run(ctx) {
    // With our agent, exercise every optional field too.
    const open = await ctx.openPrompt([
      {
        prompt: {
          text: 'Approve the deployment?',
          response_schema: {
            type: 'object',
            additionalProperties: false,
            required: ['approved'],
            properties: { approved: { type: 'boolean' } },
          },
          deadline_ms: 600_000,
          allowed_responders: ['any'],
        },
      },
      { complete: {} },
    ]);
    const raw = open.task.status.message?.metadata?.[wire.HITL_PROMPT_URI] as Record<string, unknown>;
    const keys = Object.keys(raw ?? {});
    const extra = keys.filter((k) => !SPEC_FIELDS.has(k));
    ctx.check(
      'the envelope carries only the fields the spec lists',
      extra.length === 0,
      extra.length ? `extra: ${extra.join(', ')}` : keys.join(', '),
    );
    const uiish = keys.filter((k) => UI_OR_CHANNEL.test(k));
    ctx.check(
      'no envelope field references a UI, delivery channel or identity directory',
      uiish.length === 0,
      uiish.join(', ') || 'none',
    );
    ctx.check(
      'the envelope matches envelope.schema.json and the S-2 bounds',
      open.prompt.ok,
      open.prompt.ok ? undefined : open.prompt.reason,
    );
    // What the schema pins beyond the spec's rules: a pattern the spec tells an orchestrator to
    // tolerate (allowed_responders), a prompt_id of a UUID version the schema predates.
    const contract = open.prompt.ok ? open.prompt.contract : [];
    ctx.check(
      "the envelope matches envelope.schema.json's patterns to the letter",
      contract.length === 0,
      contract.join('; ') || undefined,
      { level: 'example' },
    );
  },
});
