// The acceptance gate over the HTTP bindings: HTTP+JSON 1.0 (AIP-193 error bodies whose HTTP status
// is the extension error's: 400 invalid, 403 unauthorized, 409 conflict, with `data: {extension,
// reason}`) and the 0.3 REST binding under /v1/ (`{error: <type>, code, message, data}`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRITERIA_KEY, DECISION_KEY } from '../rig/protocol/acceptance.ts';
import { inProcessAgent } from './support/inProcessAgent.ts';
import { ACCEPTANCE_URI, ONE_ARTIFACT, PENDING_KEY } from './support/acceptanceClient.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent?.cleanup());

let n = 0;
async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${agent.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Extensions': ACCEPTANCE_URI, ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: res.status, body: await res.json() };
}

describe('HTTP+JSON 1.0', () => {
  const message = (extra: Record<string, unknown>) => ({
    messageId: `rest-acc-${n++}`,
    role: 'ROLE_USER',
    parts: [{ text: 'go' }],
    ...extra,
  });
  const create = (metadata: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    post(
      '/message:send',
      { message: message({ parts: [{ data: { 'a2a-rig/script': { steps: ONE_ARTIFACT } } }], metadata }) },
      headers,
    );
  const decideRest = (taskId: string, decision: unknown, headers: Record<string, string> = {}) =>
    post(
      '/message:send',
      { message: message({ taskId, metadata: { [DECISION_KEY]: decision }, extensions: [ACCEPTANCE_URI] }) },
      headers,
    );

  it('parks pending; refuses with 400, 403 and 409 in AIP-193 bodies; accepts once', async () => {
    const created = await create({}, { authorization: 'Bearer owner' });
    expect(created.status).toBe(200);
    const task = created.body.task;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(task.status.message.metadata[PENDING_KEY]).toBe(true);

    const malformed = await decideRest(task.id, { action: 'maybe' }, { authorization: 'Bearer owner' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({
      code: 400,
      status: 'INVALID_ARGUMENT',
      data: { extension: ACCEPTANCE_URI, reason: expect.any(String) },
    });

    const stranger = await decideRest(task.id, { action: 'accept' }, { authorization: 'Bearer stranger' });
    expect(stranger.status).toBe(403);
    expect(stranger.body.error).toMatchObject({ code: 403, data: { extension: ACCEPTANCE_URI } });

    const accepted = await decideRest(task.id, { action: 'accept' }, { authorization: 'Bearer owner' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.task.status.state).toBe('TASK_STATE_COMPLETED');

    const again = await decideRest(task.id, { action: 'accept' }, { authorization: 'Bearer owner' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 409, data: { extension: ACCEPTANCE_URI } });
  });

  it('refuses invalid criteria with 400 (-32040)', async () => {
    const refused = await create({ [CRITERIA_KEY]: { maxRejections: -1 } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.data.extension).toBe(ACCEPTANCE_URI);
  });
});

describe('0.3 REST under /v1/', () => {
  const message = (extra: Record<string, unknown>) => ({
    message_id: `rest03-acc-${n++}`,
    role: 'ROLE_USER',
    content: [{ text: 'go' }],
    ...extra,
  });

  it(
    'parks pending; 403 and 400 for a stranger and a malformed decision; ' +
      'accepts once, then 409 AcceptanceDecisionConflictError',
    async () => {
      const created = await post('/v1/message:send', {
        message: message({ content: [{ data: { data: { 'a2a-rig/script': { steps: ONE_ARTIFACT } } } }] }),
      });
      expect(created.status).toBe(200);
      const task = created.body.task;
      expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(task.status.message.metadata[PENDING_KEY]).toBe(true);
      const decision = (headers: Record<string, string> = {}) =>
        post(
          '/v1/message:send',
          { message: message({ task_id: task.id, metadata: { [DECISION_KEY]: { action: 'accept' } } }) },
          headers,
        );
      const stranger = await decision({ authorization: 'Bearer stranger' });
      expect(stranger.status).toBe(403);
      expect(stranger.body).toMatchObject({
        error: 'AcceptanceDecisionUnauthorizedError',
        code: -32043,
        data: { extension: ACCEPTANCE_URI },
      });
      const malformed = await post('/v1/message:send', {
        message: message({ task_id: task.id, metadata: { [DECISION_KEY]: { action: 'reject' } } }),
      });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({ error: 'AcceptanceDecisionInvalidError', code: -32044 });
      const accepted = await decision();
      expect(accepted.status).toBe(200);
      expect(accepted.body.task.status.state).toBe('TASK_STATE_COMPLETED');
      const again = await decision();
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({
        error: 'AcceptanceDecisionConflictError',
        code: -32042,
        data: { extension: ACCEPTANCE_URI },
      });
    },
  );
});
