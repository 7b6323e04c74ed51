// Errors name the agent the user gave, not the fault proxy's port: a target on :A reached through a
// proxy on :P that answers HTTP 501 reads "POST http://127.0.0.1:A/ via fault proxy 127.0.0.1:P
// (SendMessage): HTTP 501 ...", so the user can tell which agent failed and that a proxy was in between.
import { afterEach, describe, expect, it } from 'vitest';
import { TransportError, userMessage } from '../rig/client/index.ts';
import { Environment } from '../rig/engine/environment/environment.ts';
import { notImplementedAgent, type NotImplementedAgent } from './support/notImplementedAgent.ts';

let server: NotImplementedAgent | undefined;
let env: Environment | undefined;
afterEach(async () => {
  await env?.close();
  await server?.close();
  env = server = undefined;
});

async function brokenAgent(): Promise<string> {
  server = await notImplementedAgent();
  return server.url;
}

async function sendError(clientOf: (env: Environment) => ReturnType<Environment['client']>): Promise<TransportError> {
  const client = clientOf(env!);
  try {
    await client.send(userMessage({ text: 'hi' }));
  } catch (err) {
    return err as TransportError;
  } finally {
    await client.close();
  }
  throw new Error('the send did not fail');
}

describe('client errors name the target', () => {
  it('through the fault proxy: the target, then the proxy hop', async () => {
    const target = await brokenAgent();
    env = await Environment.open({ target, toxiproxy: { kind: 'embedded' }, agentFault: [], a2aVersion: 'auto' });
    const proxyHost = new URL(env.url).host;
    expect(proxyHost).not.toBe(new URL(target).host);
    const err = await sendError((e) => e.client());
    expect(err).toBeInstanceOf(TransportError);
    expect(err.message).toContain(`POST ${target}/ via fault proxy ${proxyHost} (message/send): HTTP 501`);
  });

  it('the replay socket, through the proxy, names the target and the hop too', async () => {
    const target = await brokenAgent();
    env = await Environment.open({ target, toxiproxy: { kind: 'embedded' }, agentFault: [], a2aVersion: 'auto' });
    const client = env.client();
    try {
      const err = await client.replay('t1').then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.message).toContain(
        `replay socket ws://${new URL(target).host}/events?task=t1&since=0 via fault proxy ${new URL(env.url).host}: `,
      );
    } finally {
      await client.close();
    }
  });

  it('without a proxy: just the target', async () => {
    const target = await brokenAgent();
    env = await Environment.open({ target, toxiproxy: 'none', agentFault: [], a2aVersion: 'auto' });
    const err = await sendError((e) => e.client());
    expect(err.message).toContain(`POST ${target}/ (message/send): HTTP 501`);
    expect(err.message).not.toContain('via');
  });
});
