// Issue 9 item 11: a stream reader that does not read is cut once its unread output passes
// limits.maxStreamBufferBytes, instead of the agent buffering everything the task emits. Driven
// against the engine with a response whose buffer never drains (what a non-reading socket looks
// like once the kernel buffers are full), so the bound is exercised exactly, without timing.
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_LIMITS } from '../rig/agent/agentLimits.ts';
import { Outbox } from '../rig/agent/outbox.ts';
import { scriptFor } from '../rig/agent/script.ts';
import { TaskEngine } from '../rig/agent/taskEngine.ts';
import { openTaskStream, sseSink } from '../rig/agent/taskStream.ts';
import { grpcSink } from '../rig/agent/grpcBinding.ts';
import { GuardedValidator } from '../rig/protocol/guardedValidator.ts';
import type { Message } from '../rig/protocol/a2aTypes.ts';
import { tempDbPath } from './support/inProcessAgent.ts';

/** A response whose written bytes all stay queued, as with a reader that never reads (or, with
 * `drains`, one whose reader keeps up: nothing stays queued). */
class StuckResponse extends EventEmitter {
  writableLength = 0;
  written = 0;
  destroyed = false;
  ended = false;
  constructor(private readonly drains = false) {
    super();
  }
  writeHead() {
    return this;
  }
  write(chunk: string) {
    this.written += Buffer.byteLength(chunk);
    if (!this.drains) this.writableLength = this.written;
    return this.drains;
  }
  end() {
    this.ended = true;
  }
  destroy() {
    this.destroyed = true;
    this.emit('close');
  }
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function engineWith(maxStreamBufferBytes: number): TaskEngine {
  const db = tempDbPath();
  const outbox = new Outbox(db.path);
  const engine = new TaskEngine(outbox, new GuardedValidator({ maxDepth: 32 }), new Set(), undefined, {
    ...DEFAULT_AGENT_LIMITS,
    maxStreamBufferBytes,
  });
  cleanups.push(() => {
    engine.close();
    outbox.close();
    db.cleanup();
  });
  return engine;
}

describe('per-stream output bound', () => {
  it('cuts a reader whose unread output passes the bound, and releases its stream slot', async () => {
    const engine = engineWith(100_000);
    const steps = [...Array.from({ length: 12 }, () => ({ artifact: { text: 'a'.repeat(50_000) } })), { complete: {} }];
    const message: Message = { messageId: 'm1', role: 'ROLE_USER', parts: [{ data: { 'a2a-rig/script': { steps } } }] };
    const row = engine.createTask(message, scriptFor(message), false);
    const res = new StuckResponse();
    openTaskStream({
      engine,
      taskId: row.task.id,
      sink: sseSink(res as unknown as ServerResponse, (e) => e as never),
      closeWhen: () => false,
    });
    // The script runs on the next turns; wait (bounded) until the task is done.
    const done = await engine.settled(row.task.id);
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    // 12 artifacts of 50 KB were emitted; the reader was cut after at most the bound plus one event.
    expect(res.destroyed).toBe(true);
    expect(res.ended).toBe(false);
    expect(res.writableLength).toBeLessThan(100_000 + 60_000);
    // Its slot is free again: 32 more streams fit on the task.
    const releases = Array.from({ length: DEFAULT_AGENT_LIMITS.maxStreamsPerTask }, () =>
      engine.streams.acquire(row.task.id),
    );
    for (const release of releases) release();
  });

  it('leaves a reader that keeps up alone', async () => {
    const engine = engineWith(100_000);
    const steps = [...Array.from({ length: 12 }, () => ({ artifact: { text: 'a'.repeat(50_000) } })), { complete: {} }];
    const message: Message = { messageId: 'm2', role: 'ROLE_USER', parts: [{ data: { 'a2a-rig/script': { steps } } }] };
    const row = engine.createTask(message, scriptFor(message), false);
    const res = new StuckResponse(true);
    openTaskStream({
      engine,
      taskId: row.task.id,
      sink: sseSink(res as unknown as ServerResponse, (e) => e as never),
      closeWhen: (s) => s === 'TASK_STATE_COMPLETED',
    });
    await engine.settled(row.task.id);
    expect(res.destroyed).toBe(false);
    expect(res.ended).toBe(true);
    expect(res.written).toBeGreaterThan(12 * 50_000);
  });
});

/** A gRPC server stream whose reader never reads: grpc-js never calls back a write. */
class StuckGrpcCall extends EventEmitter {
  writes = 0;
  ended = false;
  failed: unknown;
  constructor() {
    super();
    this.on('error', (status) => {
      this.failed = status;
      this.ended = true;
      this.emit('close');
    });
  }
  write() {
    this.writes += 1;
    return false;
  }
  end() {
    this.ended = true;
  }
}

describe('per-stream output bound on the gRPC binding', () => {
  it('ends a gRPC reader that does not read RESOURCE_EXHAUSTED once past the bound', async () => {
    const engine = engineWith(100_000);
    const steps = [...Array.from({ length: 12 }, () => ({ artifact: { text: 'a'.repeat(50_000) } })), { complete: {} }];
    const message: Message = { messageId: 'm3', role: 'ROLE_USER', parts: [{ data: { 'a2a-rig/script': { steps } } }] };
    const row = engine.createTask(message, scriptFor(message), false);
    const call = new StuckGrpcCall();
    openTaskStream({ engine, taskId: row.task.id, sink: grpcSink(call as never), closeWhen: () => false });
    await engine.settled(row.task.id);
    expect(call.failed).toMatchObject({ code: 8 });
    // The snapshot and at most a few 50 KB artifacts were written before the cut, not all 12.
    expect(call.writes).toBeLessThan(5);
  });
});
