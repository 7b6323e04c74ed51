// How an HTTP+JSON call finds its route and its reply reads back as the error the checks know
// (restRoutes.ts, restErrors.ts, restTransport.ts); which binding is chosen: client.cardAndHistory.
import { describe, expect, it } from 'vitest';
import { restErrorOf } from '../rig/client/restErrors.ts';
import { restReply } from '../rig/client/restTransport.ts';
import { restRoute } from '../rig/client/restRoutes.ts';

const BASE = 'http://127.0.0.1:9';

describe('HTTP+JSON routes and replies', () => {
  it('puts each call on its route below the interface URL (a prefixed agent keeps its prefix)', () => {
    const base = `${BASE}/agents/a1/`;
    expect(restRoute(base, 'SendMessage', '{"message":{}}')).toEqual({
      verb: 'POST',
      url: `${BASE}/agents/a1/message:send`,
      body: '{"message":{}}',
    });
    expect(restRoute(base, 'GetTask', '{"id":"t/1","historyLength":2}').url).toBe(
      `${BASE}/agents/a1/tasks/t%2F1?historyLength=2`,
    );
    expect(restRoute(base, 'SubscribeToTask', '{"id":"t"}')).toEqual({
      verb: 'GET',
      url: `${BASE}/agents/a1/tasks/t:subscribe`,
    });
  });

  it('reads the code from an ErrorInfo reason, a 0.3 body, or the status the hitl spec gives', () => {
    const aip = { error: { code: 404, message: 'nope', details: [{ reason: 'TASK_NOT_FOUND' }] } };
    expect(restErrorOf(404, aip)).toMatchObject({ code: -32001, message: 'nope' });
    const data = { extension: 'x', validation_errors: [] };
    expect(restErrorOf(422, { error: { code: 422, message: 'bad', data } })).toEqual({
      code: -32011,
      message: 'bad',
      data,
    });
    expect(restErrorOf(409, { error: 'HitlAlreadyAnsweredOrUnknownError', message: 'm' })).toMatchObject({
      code: -32010,
    });
    // A 422 with only `detail` is an invalid-answer refusal without validation_errors: the check fails it.
    expect(restErrorOf(422, { detail: 'schema mismatch' })).toEqual({
      code: -32011,
      message: 'schema mismatch',
      data: { detail: 'schema mismatch' },
    });
  });

  it('a bare 409 to a cancel is TaskNotCancelable; to an answer, already answered or unknown', () => {
    // a2a-sdk 0.3.26 answers a second cancel with 409 and only {"message"}.
    expect(restErrorOf(409, { message: 'not cancelable' }, 'CancelTask')).toMatchObject({ code: -32002 });
    expect(restErrorOf(409, { message: 'not cancelable' }, 'tasks/cancel')).toMatchObject({ code: -32002 });
    expect(restErrorOf(409, { message: 'answered' }, 'SendMessage')).toMatchObject({ code: -32010 });
  });

  it('a status that names no A2A outcome (401) is the transport failing, with the status', () => {
    expect(restErrorOf(401, { error: 'unauthorized' })).toBeUndefined();
    expect(() => restReply('{"error":"unauthorized"}', 'POST x', 401)).toThrow(
      expect.objectContaining({ name: 'TransportError', httpStatus: 401 }),
    );
    expect(restReply('{"task":{"id":"t"}}', 'POST x', 200)).toEqual({ ok: true, result: { task: { id: 't' } } });
  });
});
