// The reference agent's gRPC binding (rig/agent/grpcBinding.ts), driven by a grpc-js client built
// from the rig's a2a.proto: the card names it, a send parks with the prompt envelope, a resubscribe
// replays the open prompt, errors carry the mapped status and ErrorInfo (and the hitl contract
// object), and activation by `a2a-extensions` metadata is echoed in the response's metadata.
import { status as GrpcCode } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HITL, inProcessAgent } from './support/inProcessAgent.ts';
import { answerMessage, envelopeOf, userMessage } from './support/rpcClient.ts';
import { grpcTestClient, type GrpcTestClient } from './support/grpcTestClient.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
let client: GrpcTestClient;
beforeAll(async () => {
  agent = await inProcessAgent([], undefined, { grpcPort: 0 });
  client = grpcTestClient(agent.grpcUrl!);
});
afterAll(async () => {
  client.close();
  await agent.cleanup();
});

const activated = { 'a2a-extensions': HITL };

async function parkedTask(): Promise<any> {
  const sent = await client.call('SendMessage', { message: userMessage('1.0') }, activated);
  expect(sent.error).toBeUndefined();
  return sent.reply.task;
}

describe('the gRPC binding of the reference agent', () => {
  it('is in the card as GRPC host:port, only when it is served', async () => {
    const card = await (await fetch(`${agent.url}/.well-known/agent-card.json`)).json();
    const grpc = card.supportedInterfaces.filter((i: any) => i.protocolBinding === 'GRPC');
    expect(grpc).toEqual([{ url: agent.grpcUrl, protocolBinding: 'GRPC', protocolVersion: '1.0' }]);
    expect(agent.grpcUrl).toMatch(/^127\.0\.0\.1:\d+$/);
    const plain = await inProcessAgent();
    try {
      const plainCard = await (await fetch(`${plain.url}/.well-known/agent-card.json`)).json();
      expect(plainCard.supportedInterfaces.map((i: any) => i.protocolBinding)).not.toContain('GRPC');
    } finally {
      await plain.cleanup();
    }
  });

  it('parks a send in INPUT_REQUIRED with the prompt envelope, and echoes the activation', async () => {
    const sent = await client.call('SendMessage', { message: userMessage('1.0') }, activated);
    expect(sent.headers.get('a2a-extensions')).toEqual([HITL]);
    expect(sent.reply.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const envelope = envelopeOf(sent.reply.task);
    expect(envelope.prompt).toBe('Approve?');
    expect(envelope.response_schema.required).toEqual(['approved']);
  });

  it('echoes nothing when nothing was activated', async () => {
    const sent = await client.call('SendMessage', { message: userMessage('1.0') });
    expect(sent.headers.get('a2a-extensions')).toEqual([]);
  });

  it('replays the open prompt on SubscribeToTask, then a valid answer completes the task', async () => {
    const task = await parkedTask();
    const { prompt_id: promptId } = envelopeOf(task);
    const sub = await client.stream('SubscribeToTask', { id: task.id }, activated, () => true);
    expect(sub.events).toHaveLength(1);
    expect(sub.events[0].task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(envelopeOf(sub.events[0].task).prompt_id).toBe(promptId);
    const answer = { message: answerMessage('1.0', task.id, promptId, { approved: true }) };
    const answered = await client.stream('SendStreamingMessage', answer, activated);
    expect(answered.error).toBeUndefined();
    const states = answered.events.map((e) => (e.task ?? e.statusUpdate)?.status?.state).filter(Boolean);
    expect(states.at(-1)).toBe('TASK_STATE_COMPLETED');
  });

  it('refuses an invalid answer INVALID_ARGUMENT with the hitl ErrorInfo and contract object', async () => {
    const task = await parkedTask();
    const answer = { message: answerMessage('1.0', task.id, envelopeOf(task).prompt_id, { approved: 'yes' }) };
    const refused = await client.call('SendMessage', answer, activated);
    expect(refused.error!.status).toBe(GrpcCode.INVALID_ARGUMENT);
    expect(refused.error!.info).toMatchObject({ reason: 'HITL_RESPONSE_INVALID', metadata: { extension: HITL } });
    expect(refused.error!.error.code).toBe(-32011);
    expect(refused.error!.error.data).toMatchObject({
      validation_errors: [{ path: '/approved', keyword: 'type', message: 'must be boolean' }],
    });
    const still = await client.call('GetTask', { id: task.id });
    expect(still.reply.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it('maps A2A errors: TaskNotFound NOT_FOUND, push config UNIMPLEMENTED, a 0.3 version refused', async () => {
    const missing = await client.call('GetTask', { id: 'no-such-task' });
    expect(missing.error!.status).toBe(GrpcCode.NOT_FOUND);
    expect(missing.error!.info).toMatchObject({ reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' });
    const sub = await client.stream('SubscribeToTask', { id: 'no-such-task' });
    expect(sub.error!.info?.reason).toBe('TASK_NOT_FOUND');
    const push = await client.call('GetTaskPushNotificationConfig', { taskId: 't', id: 'c' });
    expect(push.error!.status).toBe(GrpcCode.UNIMPLEMENTED);
    expect(push.error!.info?.reason).toBe('PUSH_NOTIFICATION_NOT_SUPPORTED');
    const old = await client.call('SendMessage', { message: userMessage('1.0') }, { 'a2a-version': '0.3' });
    expect(old.error!.info?.reason).toBe('VERSION_NOT_SUPPORTED');
  });
});
