// Artifact steps of a script: the artifact sized against the task's artifact bound before it is
// built (a step that would pass it fails the task), then added or appended to in one commit with
// its artifactUpdate event. Driven by the task engine (taskEngine.ts) and, for deferred artifacts,
// by the acceptance gate (gateLifecycle.ts).
import { randomUUID } from 'node:crypto';
import type { Artifact } from '../protocol/a2aTypes.ts';
import type { AgentLimits } from './agentLimits.ts';
import type { TaskRow } from './outbox.ts';
import type { TaskWriter } from './taskWriter.ts';
import { artifactPart, type ArtifactStep } from './script.ts';

/** What artifact steps drive of the task engine. */
export interface ArtifactEngine extends TaskWriter {
  readonly limits: AgentLimits;
}

export class ArtifactSteps {
  constructor(private readonly engine: ArtifactEngine) {}

  /** Emits one artifact step (with `alsoWrite` in its transaction); false if it failed the task instead. */
  emit(row: TaskRow, spec: ArtifactStep['artifact'], alsoWrite?: () => void): boolean {
    const answer = row.lastAnswer === undefined ? '' : JSON.stringify(row.lastAnswer);
    // Sized before it is built: "{{answer}}" x 100k over a 1 MB answer would be a 100 GB string.
    const held = Buffer.byteLength(JSON.stringify(row.task.artifacts));
    const uses = spec.text === undefined ? 0 : spec.text.split('{{answer}}').length - 1;
    const adds =
      spec.text !== undefined
        ? spec.text.length + uses * answer.length
        : Buffer.byteLength(JSON.stringify(spec.url ?? spec.raw ?? spec.data ?? null));
    const { maxArtifactBytes } = this.engine.limits;
    if (held + adds > maxArtifactBytes) {
      this.engine.setStatus(
        row,
        'TASK_STATE_FAILED',
        `artifact step ${row.step - 1} would take the task's artifacts past ${maxArtifactBytes} bytes`,
        undefined,
        () => this.engine.outbox.gates.settle(row.task.id, 'not-met'),
      );
      return false;
    }
    const part = artifactPart(spec, answer);
    const artifact: Artifact = {
      artifactId: spec.id ?? randomUUID(),
      ...(spec.name ? { name: spec.name } : {}),
      parts: [part],
    };
    this.engine.commit(
      row,
      (task) => {
        const at = spec.append ? task.artifacts.findIndex((a) => a.artifactId === artifact.artifactId) : -1;
        if (at >= 0) task.artifacts[at].parts.push(part);
        else task.artifacts.push(artifact);
        const pos = at >= 0 ? at : task.artifacts.length - 1;
        this.engine.outbox.putArtifact(task.id, pos, task.artifacts[pos]);
      },
      (task) => ({
        artifactUpdate: {
          taskId: task.id,
          contextId: task.contextId,
          artifact,
          ...(spec.append !== undefined ? { append: spec.append } : {}),
          ...(spec.last_chunk !== undefined ? { lastChunk: spec.last_chunk } : {}),
        },
      }),
      alsoWrite,
    );
    return true;
  }
}
