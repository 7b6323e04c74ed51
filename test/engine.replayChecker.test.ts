// The replay checker on hand-made histories: each finding appears exactly when its defect is there.
import { describe, expect, it } from 'vitest';
import { checkReplay, type ReplayedEvent, type SeenEvent } from '../rig/engine/kit/replayChecker.ts';
import type { StreamResponse } from '../rig/protocol/a2aTypes.ts';

const HITL = 'https://agentic-sandbox.aiwg.io/extensions/hitl-prompt/v1';

function status(state: string, envelope?: object): StreamResponse {
  return {
    statusUpdate: {
      taskId: 't',
      contextId: 'c',
      status: {
        state: state as never,
        timestamp: '2026-11-30T00:00:00Z',
        ...(envelope
          ? { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'Q?' }], metadata: { [HITL]: envelope } } }
          : {}),
      },
    },
  };
}

const schema = { type: 'object', required: ['ok'] };
const full: ReplayedEvent[] = [
  { seq: 1, eventId: 'e1', event: status('TASK_STATE_SUBMITTED') },
  { seq: 2, eventId: 'e2', event: status('TASK_STATE_WORKING') },
  {
    seq: 3,
    eventId: 'e3',
    event: status('TASK_STATE_INPUT_REQUIRED', { prompt_id: 'p1', prompt: 'Q?', response_schema: schema }),
  },
  { seq: 4, eventId: 'e4', event: status('TASK_STATE_WORKING') },
];

function seenFrom(connectionId: string, events: ReplayedEvent[], kind: SeenEvent['kind'] = 'replay'): SeenEvent[] {
  return events.map((e) => ({ connectionId, kind, seq: e.seq, eventId: e.eventId, event: e.event }));
}

describe('checkReplay', () => {
  it('finds nothing when a client saw 1..2 on one socket and resumed from 2 on another', () => {
    const seen = [...seenFrom('replay-1', full.slice(0, 2)), ...seenFrom('replay-2', full.slice(2))];
    const cursors = new Map([
      ['replay-1', 0],
      ['replay-2', 2],
    ]);
    expect(checkReplay({ taskId: 't', fullReplay: full, seen, replayCursors: cursors })).toEqual([]);
  });

  it('reports a dropped event in a resumed replay as a gap and as missing coverage', () => {
    const seen = [...seenFrom('replay-1', full.slice(0, 2)), ...seenFrom('replay-2', [full[3]])];
    const findings = checkReplay({
      taskId: 't',
      fullReplay: full,
      seen,
      replayCursors: new Map([
        ['replay-1', 0],
        ['replay-2', 2],
      ]),
    });
    expect(findings.map((f) => f.check)).toEqual(['connection-contiguous', 'coverage']);
    expect(findings[0].detail).toContain('expected seq 3, got 4');
  });

  it('reports reordering on a connection and in the full replay', () => {
    const reordered = [full[1], full[0], full[2], full[3]];
    const findings = checkReplay({
      taskId: 't',
      fullReplay: reordered,
      seen: seenFrom('replay-1', reordered),
      replayCursors: new Map([['replay-1', 0]]),
    });
    expect(findings.filter((f) => f.check === 'full-replay-contiguous')).toHaveLength(2);
    expect(findings.some((f) => f.check === 'connection-contiguous')).toBe(true);
  });

  it('reports a full replay that starts past seq 1 (events lost by the outbox)', () => {
    const lost = full.slice(2);
    const findings = checkReplay({
      taskId: 't',
      fullReplay: lost,
      seen: seenFrom('sse-1', full, 'sse'),
      replayCursors: new Map(),
    });
    expect(findings.some((f) => f.check === 'full-replay-contiguous')).toBe(true);
    expect(findings.some((f) => f.check === 'seen-matches-replay' && f.detail.includes('seq 1'))).toBe(true);
  });

  it('reports an event whose content differs from the replayed one, and a changed response_schema', () => {
    const altered = full.map((e) =>
      e.seq === 3
        ? {
            ...e,
            event: status('TASK_STATE_INPUT_REQUIRED', {
              prompt_id: 'p1',
              prompt: 'Q?',
              response_schema: { type: 'object' },
            }),
          }
        : e,
    );
    const findings = checkReplay({
      taskId: 't',
      fullReplay: altered,
      seen: seenFrom('sse-1', full, 'sse'),
      replayCursors: new Map(),
    });
    expect(findings.map((f) => f.check).sort()).toEqual(['envelope-identical', 'seen-matches-replay']);
  });

  it('reports a repeated event on one connection', () => {
    const seen = seenFrom('replay-1', [full[0], full[1], full[1], full[2], full[3]]);
    const findings = checkReplay({ taskId: 't', fullReplay: full, seen, replayCursors: new Map([['replay-1', 0]]) });
    expect(findings).toEqual([
      {
        check: 'connection-contiguous',
        detail: 'task t, replay-1: expected seq 3, got 2: a repeat or out-of-order event',
      },
    ]);
  });
});
