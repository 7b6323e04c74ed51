// The A2A 0.3 HTTP+JSON binding under /v1/, beside messages and tasks: the card, the push-config
// refusals, and the answers for a path or a method the binding lacks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessAgent } from './support/inProcessAgent.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent.cleanup());

describe('GET /v1/card', () => {
  it('serves the agent card, which offers HTTP+JSON to 0.3 clients', async () => {
    const res = await fetch(`${agent.url}/v1/card`);
    expect(res.status).toBe(200);
    const card = await res.json();
    expect(card.name).toEqual(expect.any(String));
    expect(card.additionalInterfaces).toEqual(expect.arrayContaining([{ url: agent.url, transport: 'HTTP+JSON' }]));
  });
});

describe('push notification configs', () => {
  it.each([
    ['POST', '/v1/tasks/t1/pushNotificationConfigs'],
    ['GET', '/v1/tasks/t1/pushNotificationConfigs'],
    ['GET', '/v1/tasks/t1/pushNotificationConfigs/default'],
    ['DELETE', '/v1/tasks/t1/pushNotificationConfigs/default'],
  ])('%s %s is 400 PushNotificationNotSupportedError', async (method, path) => {
    const body =
      method === 'POST' ? JSON.stringify({ parent: 'tasks/t1', config_id: 'default', config: {} }) : undefined;
    const res = await fetch(`${agent.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'PushNotificationNotSupportedError', code: -32003 });
  });
});

describe('routes', () => {
  it('answers a path outside the binding with 404 and a method the route lacks with 405 and Allow', async () => {
    const list = await fetch(`${agent.url}/v1/tasks`);
    expect(list.status).toBe(404);
    expect(await list.json()).toMatchObject({ error: 'MethodNotFoundError', code: -32601 });
    const wrong = await fetch(`${agent.url}/v1/message:send`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });
});
