// What the rig reads from an agent is measured before it is parsed (depth and estimated heap
// weight, in one pass that never recurses), and what it keeps of an agent's events is bounded by
// estimated heap bytes per connection, per task and per run — not only by count.
import { describe, expect, it } from 'vitest';
import { EventHistory, RetentionBoundError, type NewEntry } from '../rig/client/eventHistory.ts';
import { readRpcResponse } from '../rig/client/rpcReply.ts';
import { TransportError } from '../rig/client/transportError.ts';
import type { StreamResponse } from '../rig/protocol/a2aTypes.ts';
import { jsonWeight } from '../rig/protocol/jsonNesting.ts';
import { JsonRefusedError, MAX_AGENT_JSON_DEPTH, jsonTextShape, parseAgentJson } from '../rig/protocol/safeJson.ts';

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('parseAgentJson', () => {
  it('refuses a 100,000-deep document before parsing it, saying how deep it is and what the rig reads', () => {
    expect(() => parseAgentJson(deep(100_000), "the agent's reply")).toThrow(
      new JsonRefusedError(`the agent's reply nests 100000 levels deep; the rig reads at most ${MAX_AGENT_JSON_DEPTH}`),
    );
    expect(parseAgentJson(deep(MAX_AGENT_JSON_DEPTH), 'x')).toBeInstanceOf(Array);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(jsonTextShape(JSON.stringify({ s: '[[[[{{"\\"[[' }))).toEqual({
      depth: 1,
      containers: 1,
      weight: expect.any(Number),
    });
    expect(parseAgentJson(JSON.stringify({ s: '['.repeat(10_000) }), 'x')).toEqual({ s: '['.repeat(10_000) });
  });

  it('refuses a document of empty objects whose parse would outweigh the bound, though its bytes are few', () => {
    const text = `[${Array(200_000).fill('{}').join(',')}]`;
    expect(() => parseAgentJson(text, "the agent's event", { maxWeight: 4 * 1024 * 1024 })).toThrow(
      // eslint-disable-next-line max-len -- the refusal as worded, as one pattern
      /the agent's event holds 200001 objects and arrays in 600001 characters \(about 13 MiB once parsed\); the rig reads at most 4 MiB/,
    );
  });

  it('a JSON-RPC reply with a deeply nested id is a one-line too-large TransportError, not a stack overflow', () => {
    const text = `{"jsonrpc":"2.0","id":${deep(100_000)},"result":{}}`;
    let caught: unknown;
    try {
      readRpcResponse(text, 1, 'POST http://127.0.0.1:1/ (SendMessage)', 200);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(TransportError);
    expect((caught as TransportError).failure).toBe('too-large');
    expect((caught as TransportError).message).toBe(
      "POST http://127.0.0.1:1/ (SendMessage): the agent's reply nests 100001 levels deep; the rig reads at most 512",
    );
  });
});

function update(taskId: string, padObjects: number): StreamResponse {
  return {
    statusUpdate: {
      taskId,
      contextId: 'c',
      status: { state: 'TASK_STATE_WORKING', timestamp: '' },
      metadata: { pad: Array.from({ length: padObjects }, () => ({})) },
    },
  };
}

function entry(connectionId: string, kind: NewEntry['kind'], event: StreamResponse): NewEntry {
  return {
    connectionId,
    kind,
    taskId: 'statusUpdate' in event ? event.statusUpdate.taskId : undefined,
    seq: undefined,
    eventId: undefined,
    receivedAt: 0,
    event,
  };
}

describe('EventHistory retention by estimated heap bytes', () => {
  it('weighs parsed objects, not their bytes: 10,000 empty objects weigh far more than their 30 KB of text', () => {
    expect(jsonWeight(update('t', 10_000))).toBeGreaterThan(10_000 * 64);
  });

  it('weighs own members only, by the documented rule', () => {
    // {a,b,c,f}: 64 + 4 × (32 + 2) for the object and its keys, then each member by its kind.
    expect(jsonWeight({ a: 1, b: 'xy', c: [1, 2, { d: null, e: true }], f: { g: { h: 'é' } } })).toBe(742);
    expect([jsonWeight([]), jsonWeight('str'), jsonWeight(5), jsonWeight(null), jsonWeight([[[]]])]).toEqual([
      64, 22, 16, 8, 224,
    ]);
    expect(jsonWeight(Object.create({ inherited: 'x'.repeat(100) }) as object)).toBe(64);
    expect(jsonWeight(Object.assign(Object.create(null) as object, { x: 1 }))).toBe(114);
  });

  it('a stream past its per-connection bound fails with RetentionBoundError naming the bound', () => {
    const history = new EventHistory({ maxConnectionBytes: 1024 * 1024 });
    const sse = history.openConnection('sse', 't');
    history.record(entry(sse, 'sse', update('t', 5_000)));
    expect(() => {
      for (let i = 0; i < 10; i++) history.record(entry(sse, 'sse', update('t', 5_000)));
    }).toThrow(RetentionBoundError);
    expect(() => history.record(entry(sse, 'sse', update('t', 1)))).toThrow(
      /its events weigh more than 1 MiB once parsed \(the rig keeps at most 1 MiB per connection\)/,
    );
  });

  it("a task's streams together are bounded, one connection each under its own bound", () => {
    const history = new EventHistory({ maxConnectionBytes: 1024 * 1024, maxTaskBytes: 2 * 1024 * 1024 });
    const thrown: string[] = [];
    for (let c = 0; c < 6; c++) {
      const id = history.openConnection('replay', 't');
      try {
        for (let i = 0; i < 2; i++) history.record(entry(id, 'replay', update('t', 3_000)));
      } catch (err) {
        thrown.push((err as Error).message);
      }
    }
    expect(thrown[0]).toMatch(
      /the events of task t weigh more than 2 MiB once parsed \(the rig keeps at most 2 MiB per task\)/,
    );
  });

  it('past the run bound, unary responses are counted as dropped, not kept, and never throw', () => {
    const history = new EventHistory({ maxRunBytes: 1024 * 1024 });
    for (let i = 0; i < 20; i++) {
      const id = history.openConnection('response', `t${i}`);
      history.record(entry(id, 'response', update(`t${i}`, 3_000)));
    }
    expect(history.dropped).toBeGreaterThan(0);
    expect(history.keptWeight).toBeLessThanOrEqual(1024 * 1024);
  });
});
