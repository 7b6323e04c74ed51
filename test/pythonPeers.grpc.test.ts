// The gRPC-only variant of the a2a-sdk 1.3.0 peer (test/peers/python/sdk_v1_grpc.py), checked on
// the wire with a grpc-js client built from the rig's own a2a.proto (the rig's gRPC client is not
// there yet): its card names only a GRPC interface, a send parks with the prompt envelope and the
// activation echo, a resubscribe replays the open prompt, the contract's errors arrive as statuses
// with their ErrorInfo and object, a valid answer completes the task, and a kill -9 and restart
// (same ports, same database) loses no open prompt.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { status as GrpcCode } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HITL } from './support/inProcessAgent.ts';
import { processAlive } from './support/localHost.ts';
import { grpcTestClient, type GrpcTestClient } from './support/grpcTestClient.ts';
import { pythonPeerMissing, startPythonPeer, type PythonPeer } from './support/pythonPeers.ts';
import { answerMessage, envelopeOf, userMessage } from './support/rpcClient.ts';

const missing = pythonPeerMissing('1.3.0');
const activated = { 'a2a-extensions': HITL };

describe.skipIf(missing !== undefined)('the gRPC-only a2a-sdk 1.3.0 peer', () => {
  let peer: PythonPeer;
  let client: GrpcTestClient;
  beforeAll(async () => {
    peer = await startPythonPeer({ sdk: '1.3.0', binding: 'grpc' });
    client = grpcTestClient(peer.grpc!);
  }, 60_000);
  afterAll(async () => {
    client?.close();
    await peer?.close();
  });

  it('serves a card whose one interface is GRPC at its host:port', async () => {
    const card = await (await fetch(new URL('.well-known/agent-card.json', peer.url))).json();
    expect(card.supportedInterfaces).toEqual([{ url: peer.grpc, protocolBinding: 'GRPC', protocolVersion: '1.0' }]);
  });

  it('parks, replays the open prompt on resubscribe, refuses a bad answer, completes on a good one', async () => {
    const sent = await client.call('SendMessage', { message: userMessage('1.0') }, activated);
    expect(sent.error).toBeUndefined();
    expect(sent.headers.get('a2a-extensions')).toEqual([HITL]);
    const task = sent.reply.task;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const promptId = envelopeOf(task).prompt_id;
    expect(promptId).toEqual(expect.any(String));

    const sub = await client.stream('SubscribeToTask', { id: task.id }, activated, () => true);
    expect(sub.error).toBeUndefined();
    expect(envelopeOf(sub.events[0].task).prompt_id).toBe(promptId);

    const bad = await client.call('SendMessage', { message: answerMessage('1.0', task.id, promptId, { approved: 1 }) });
    expect(bad.error!.status).toBe(GrpcCode.INVALID_ARGUMENT);
    expect(bad.error!.info?.reason).toBe('HITL_RESPONSE_INVALID');
    expect(bad.error!.error.code).toBe(-32011);
    expect((bad.error!.error.data as any).validation_errors[0]).toMatchObject({ path: '/approved', keyword: 'type' });

    const good = { message: answerMessage('1.0', task.id, promptId, { approved: true }) };
    const resumed = await client.stream('SendStreamingMessage', good, activated);
    expect(resumed.error).toBeUndefined();
    const states = resumed.events.map((e) => (e.task ?? e.statusUpdate)?.status?.state);
    expect(states.at(-1)).toBe('TASK_STATE_COMPLETED');

    const again = await client.call('SendMessage', good, activated);
    expect(again.error!.status).toBe(GrpcCode.ABORTED);
    expect(again.error!.error.code).toBe(-32010);
  });

  it('after kill -9 and restart, on the same gRPC port, replays the open prompt', async () => {
    const task = (await client.call('SendMessage', { message: userMessage('1.0') }, activated)).reply.task;
    const before = peer.pid();
    await promisify(execFile)('sh', ['-c', peer.restartCmd], { timeout: 10_000 });
    expect(processAlive(before)).toBe(false);
    // The card is served once the gRPC server is up (sdk_v1_grpc.build starts it first).
    for (let i = 0; i < 300; i++) {
      const up = await fetch(new URL('.well-known/agent-card.json', peer.url)).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const sub = await client.stream('SubscribeToTask', { id: task.id }, activated, () => true);
    expect(sub.error).toBeUndefined();
    expect(envelopeOf(sub.events[0].task)).toEqual(envelopeOf(task));
  }, 30_000);
});
