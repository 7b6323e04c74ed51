// Issue 9 item 11, replay plane: a replay socket whose reader does not read is terminated once its
// unread output (ws.bufferedAmount) passes limits.maxStreamBufferBytes, and the stored events after
// that point are never read or queued. Driven with a socket whose buffer never drains, so the
// bound is exercised exactly; the WebSocket handshake itself is not what is under test here.
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_LIMITS } from '../rig/agent/agentLimits.ts';
import { Outbox } from '../rig/agent/outbox.ts';
import { continueTask } from '../rig/agent/hitlAnswers.ts';
import { ReplayPlane } from '../rig/agent/replayPlane.ts';
import { HITL_RESPONSE_KEY } from '../rig/protocol/hitlPrompt.ts';
import { scriptFor } from '../rig/agent/script.ts';
import { TaskEngine } from '../rig/agent/taskEngine.ts';
import type { Message } from '../rig/protocol/a2aTypes.ts';
import { GuardedValidator } from '../rig/protocol/guardedValidator.ts';
import { tempDbPath } from './support/inProcessAgent.ts';

class StuckSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  frames = 0;
  terminated = false;
  closeCode: number | undefined;
  send(text: string) {
    this.frames += 1;
    this.bufferedAmount += Buffer.byteLength(text);
  }
  close(code: number) {
    this.closeCode = code;
  }
  terminate() {
    this.terminated = true;
    this.readyState = 3;
  }
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('replay socket output bound', () => {
  it('terminates a non-reading replay reader past the bound without queueing the rest', async () => {
    const db = tempDbPath();
    const outbox = new Outbox(db.path);
    const engine = new TaskEngine(outbox, new GuardedValidator({ maxDepth: 32 }), new Set(), undefined, {
      ...DEFAULT_AGENT_LIMITS,
      maxStreamBufferBytes: 100_000,
    });
    const plane = new ReplayPlane(engine, () => []);
    cleanups.push(() => {
      plane.close();
      engine.close();
      outbox.close();
      db.cleanup();
    });
    // A small script whose events are big: each artifact repeats the ~50 KB answer.
    const steps = [
      { prompt: { text: 'Q?', response_schema: { type: 'object' } } },
      ...Array.from({ length: 12 }, () => ({ artifact: { text: '{{answer}}' } })),
      { complete: {} },
    ];
    const message: Message = { messageId: 'm1', role: 'ROLE_USER', parts: [{ data: { 'a2a-rig/script': { steps } } }] };
    const row = engine.createTask(message, scriptFor(message), true);
    await engine.settled(row.task.id);
    const promptId = outbox.prompts.openOf(row.task.id)!.promptId;
    const reply: Message = {
      messageId: 'm2',
      role: 'ROLE_USER',
      taskId: row.task.id,
      parts: [{ text: 'a' }],
      metadata: { [HITL_RESPONSE_KEY]: { prompt_id: promptId, payload: { s: 'b'.repeat(50_000) } } },
    };
    continueTask(engine, reply, true);
    expect((await engine.settled(row.task.id)).status.state).toBe('TASK_STATE_COMPLETED');
    const events = outbox.eventsSince(row.task.id, 0).length;
    expect(events).toBeGreaterThan(12);

    const ws = new StuckSocket();
    const serve = (plane as unknown as { serve: (ws: unknown, url: URL, generation: string) => void }).serve.bind(
      plane,
    );
    serve(ws, new URL(`http://x/events?task=${row.task.id}&since=0`), '1.0');
    expect(ws.terminated).toBe(true);
    expect(ws.frames).toBeLessThan(events);
    expect(ws.bufferedAmount).toBeLessThan(100_000 + 60_000);
    expect(ws.closeCode).toBeUndefined();
  });
});
