// A live-event listener serves one connection; its throw must not skip the other listeners of the
// task or escape into the engine (issue 9 item 8: no single connection may take the agent down).
import { describe, expect, it, vi } from 'vitest';
import { TaskEvents } from '../rig/agent/taskEvents.ts';
import type { StoredEvent } from '../rig/agent/outbox.ts';
import type { Task } from '../rig/protocol/a2aTypes.ts';

describe('TaskEvents.publish isolates listeners', () => {
  it('a throwing listener neither stops the others nor throws out of publish', () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const events = new TaskEvents();
      const seen: number[] = [];
      events.subscribe('t', () => {
        throw new TypeError('boom');
      });
      events.subscribe('t', (e) => seen.push(e.seq));
      const event = { seq: 1, eventId: 'e', taskId: 't', event: {} } as unknown as StoredEvent;
      expect(() => events.publish(event, {} as Task)).not.toThrow();
      expect(seen).toEqual([1]);
      expect(stderr.mock.calls.map((c) => String(c[0])).join('')).toContain('TypeError: boom');
    } finally {
      stderr.mockRestore();
    }
  });
});
