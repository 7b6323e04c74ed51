// Prompt steps of a script (hitl-prompt/v1): the envelope built and checked, the task parked in
// INPUT_REQUIRED with it (the envelope only when the request activated the extension), and the
// deadline signalled once it passes while the prompt is still open. Driven by the task engine
// (taskEngine.ts), which creates its PromptSteps with itself.
import { timeOrderedId } from './timeOrderedId.ts';
import { randomUUID } from 'node:crypto';
import type { GuardedValidator } from '../protocol/guardedValidator.ts';
import { HITL_PROMPT_URI } from '../protocol/hitlPrompt.ts';
import { DEADLINE_ELAPSED_KEY } from '../protocol/rigScript.ts';
import type { FaultSet } from './faults.ts';
import type { TaskRow } from './outbox.ts';
import type { TaskWriter } from './taskWriter.ts';
import type { PromptRow } from './promptStore.ts';
import { buildPromptEnvelope } from './promptEnvelopeBuilder.ts';
import type { PromptStep } from './script.ts';

/** What prompt steps drive of the task engine. */
export interface PromptingEngine extends TaskWriter {
  readonly validator: GuardedValidator;
  readonly faults: FaultSet;
  later(ms: number, fn: () => void): void;
  getRow(taskId: string): TaskRow;
}

export class PromptSteps {
  /** The reuse-prompt-id fault's one prompt_id. */
  private reusedPromptId: string | undefined;

  constructor(private readonly engine: PromptingEngine) {}

  private freshPromptId(): string {
    if (this.engine.faults.has('reuse-prompt-id')) return (this.reusedPromptId ??= randomUUID());
    const mint = this.engine.faults.has('prompt-id-v7') ? timeOrderedId : randomUUID;
    // S-5: unique for the agent's lifetime, which the outbox outlives; a v4 collision is
    // astronomically unlikely, but the check is one indexed lookup.
    for (;;) {
      const id = mint();
      if (!this.engine.outbox.prompts.idExists(id)) return id;
    }
  }

  /** Emits a prompt step: the task waits in INPUT_REQUIRED (failed instead if the envelope cannot be built). */
  emit(row: TaskRow, step: PromptStep['prompt']): void {
    const outcome = buildPromptEnvelope(step, {
      promptId: this.freshPromptId(),
      now: new Date(),
      validator: this.engine.validator,
      allowOversizedSchema: this.engine.faults.has('emit-oversized-schema'),
      allowNewerUuid: this.engine.faults.has('prompt-id-v7'),
    });
    if (!outcome.ok) {
      this.engine.setStatus(row, 'TASK_STATE_FAILED', `prompt step ${row.step} cannot be emitted: ${outcome.reason}`);
      return;
    }
    const { envelope } = outcome;
    // The envelope MUST NOT carry other fields, and none that presumes a UI (CF-5).
    if (this.engine.faults.has('envelope-extra-field')) Object.assign(envelope, { render_hint: 'modal' });
    const emitEnvelope = row.activated || this.engine.faults.has('envelope-without-activation');
    const metadata = emitEnvelope ? { [HITL_PROMPT_URI]: envelope } : undefined;
    const prompt = {
      taskId: row.task.id,
      step: row.step,
      promptId: envelope.prompt_id,
      envelope: { ...envelope },
      schema: envelope.response_schema,
      deadline: envelope.deadline ?? null,
    };
    this.engine.setStatus(row, 'TASK_STATE_INPUT_REQUIRED', envelope.prompt, metadata, () =>
      this.engine.outbox.prompts.insert(prompt),
    );
    if (envelope.deadline) this.scheduleDeadline({ ...prompt, state: 'open', deadlineSignalled: false });
  }

  /** Signals the prompt's deadline once it passes, unless the prompt is answered or closed by then. */
  scheduleDeadline(prompt: PromptRow): void {
    const wait = Math.max(0, Date.parse(prompt.deadline!) - Date.now());
    this.engine.later(wait, () => {
      const current = this.engine.outbox.prompts.find(prompt.taskId, prompt.promptId);
      if (!current || current.state !== 'open' || current.deadlineSignalled) return;
      const row = this.engine.getRow(prompt.taskId);
      this.engine.commit(
        row,
        () => {},
        (task) => ({
          statusUpdate: {
            taskId: task.id,
            contextId: task.contextId,
            status: task.status,
            metadata: { [DEADLINE_ELAPSED_KEY]: { prompt_id: prompt.promptId, deadline: prompt.deadline } },
          },
        }),
        () => this.engine.outbox.prompts.markDeadlineSignalled(prompt.taskId, prompt.step),
      );
    });
  }
}
