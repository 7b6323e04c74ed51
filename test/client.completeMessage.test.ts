// completeMessage (rig/client/outgoingMessage.ts) is on every send and answer a load makes, so it
// copies with Object.assign rather than a spread; the message it makes must be the one the spread
// made: the same keys in the same order, a fresh UUID only when the id is missing, the caller's
// message untouched, and an own `__proto__` key kept as data, never taken for the prototype.
import { expect, it } from 'vitest';
import { completeMessage, type OutgoingMessage } from '../rig/client/outgoingMessage.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** What `{ ...message, messageId, role }` makes, with the id the copy under test drew. */
const spread = (m: OutgoingMessage, id: string) => ({
  ...m,
  messageId: m.messageId ?? id,
  role: m.role ?? 'ROLE_USER',
});

it('makes the same message as the spread: keys, order and values', () => {
  const cases: OutgoingMessage[] = [
    { parts: [{ text: 'hi' }] },
    { taskId: 't1', parts: [{ data: { ok: true } }], metadata: { a: 1 }, extensions: ['x'] },
    { messageId: 'given', parts: [], role: 'ROLE_AGENT' },
    { messageId: undefined, role: undefined, parts: [{ text: 'explicit undefined keeps its place' }] },
  ];
  for (const message of cases) {
    const before = JSON.stringify(message);
    const done = completeMessage(message);
    expect(done.messageId === message.messageId || UUID.test(done.messageId)).toBe(true);
    const expected = spread(message, done.messageId);
    expect(Object.keys(done)).toEqual(Object.keys(expected));
    expect(JSON.stringify(done)).toBe(JSON.stringify(expected));
    expect(Object.getPrototypeOf(done)).toBe(Object.prototype);
    expect(JSON.stringify(message)).toBe(before);
    expect(done).not.toBe(message);
  }
});

it('draws a new id for each message that has none', () => {
  const ids = new Set([0, 1, 2].map(() => completeMessage({ parts: [] }).messageId));
  expect(ids.size).toBe(3);
});

it('keeps an own __proto__ key as data, as the spread does', () => {
  const message = JSON.parse('{"__proto__": {"polluted": true}, "parts": []}') as OutgoingMessage;
  const done = completeMessage(message);
  expect(Object.getPrototypeOf(done)).toBe(Object.prototype);
  expect((done as unknown as { polluted?: boolean }).polluted).toBeUndefined();
  expect(Object.keys(done)).toEqual(['__proto__', 'parts', 'messageId', 'role']);
});
