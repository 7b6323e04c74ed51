// CF-3: schema-invalid response → 422 (AC-3). Payloads that break the response_schema in each way
// the schema allows (wrong type, missing required, unknown property) are rejected with 422 and
// validation_errors; the task stays in INPUT_REQUIRED; a valid answer to the same prompt_id after
// them is still accepted. Each rejection is held against the contract's
// examples/invalid-response-422.json: error.data = {extension, prompt_id, validation_errors[]}, with
// validation_errors right there (not inside google.rpc ErrorInfo details, as some SDKs render it);
// only the validation_errors array is a MUST, the rest of that shape a warning.
import { defineScenario, describeOutcome, everyProfile } from 'a2a-rig';

export default defineScenario({
  name: 'cf3',
  description: 'CF-3 schema-invalid responses are 422 with validation_errors; the prompt stays answerable',
  tags: ['conformance', 'hitl'],
  needs: { hitlPrompt: true },
  params: everyProfile({}),
  budgetMs: everyProfile(20_000),
  records: { latencies: [], counters: {} },
  catches: ['skip-validation', 'validation-errors-elsewhere', 'rejection-detail-only'],
  async run(ctx) {
    const prompt = await ctx.openUsablePrompt();
    if (!prompt) return;
    const { taskId, promptId, answers } = prompt;
    if (answers.invalid.length === 0)
      ctx.skip(`response_schema admits no invalid payload the rig can build (${answers.notApplicable.join('; ')})`);
    for (const invalid of answers.invalid) {
      const outcome = await ctx.client.answer(taskId, promptId, invalid.payload);
      ctx.check(
        `${invalid.kind} payload is rejected with 422 / -32011 and validation_errors`,
        outcome.kind === 'invalid' && outcome.validationErrorCount > 0,
        describeOutcome(outcome, `${outcome.validationErrorCount} validation_errors`) +
          (outcome.problems.length ? `; ${outcome.problems.join('; ')}` : ''),
      );
      if (outcome.kind === 'invalid') {
        // The spec's MUST is the validation_errors array (held above); extension, prompt_id and
        // the entries' {path, keyword, message} are the example's shape: missing them is a warning.
        ctx.check(
          `the ${invalid.kind} rejection's error.data is {extension, prompt_id, validation_errors} ` +
            'as in examples/invalid-response-422.json',
          outcome.contract.length === 0,
          outcome.contract.join('; ') || undefined,
          { level: 'example' },
        );
      }
      const task = await ctx.client.getTask(taskId);
      ctx.check(
        `after the ${invalid.kind} payload the task remains in INPUT_REQUIRED`,
        task.ok && task.value.status.state === 'TASK_STATE_INPUT_REQUIRED',
        task.ok ? task.value.status.state : task.error.message,
      );
    }
    const valid = await ctx.client.answer(taskId, promptId, answers.valid);
    ctx.check(
      'a valid answer with the same prompt_id is then accepted',
      valid.kind === 'accepted',
      describeOutcome(valid),
    );
  },
});
