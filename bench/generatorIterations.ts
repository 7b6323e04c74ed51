// The open-model iterations of bench/generator.ts: the rig's A2AClient as scenarios use it, and the
// client's JsonRpcTransport alone with the same request bodies (the HTTP layer without the A2A one).
import type { A2AClient } from '../rig/client/a2aClient.ts';
import type { ClosedModelRequest } from '../rig/load/closedModel.ts';
import type { Iteration } from '../rig/load/openModelExecutor.ts';

/** A JSON-RPC call of the mix: its method and params as JSON text. */
export interface BenchCall {
  method: string;
  paramsJson: string;
}

/** The mix's request bodies (SendMessage, answer, GetTask) as calls the transport and undici send. */
export function callsOf(requests: readonly ClosedModelRequest[]): BenchCall[] {
  return requests.map((r, i) => ({
    method: i === 2 ? 'GetTask' : 'SendMessage',
    paramsJson: JSON.stringify((JSON.parse(String(r.body)) as { params: unknown }).params),
  }));
}

/**
 * The HTTP layer alone: the same request bodies through the client's JsonRpcTransport (bounds,
 * JSON-RPC reply check), without the A2A layer's wire conversion, S-2 guard and event history.
 * Informational: it says how much of the gap is the HTTP client and how much the A2A layer.
 */
export function transportIteration(client: A2AClient, rpcUrl: string, calls: readonly BenchCall[]): Iteration {
  const a2a = { generation: '1.0' as const, extensions: client.activatedExtensions };
  return async ({ index, signal }) => {
    const call = calls[index % calls.length];
    const reply = await client.transport.callRaw(rpcUrl, call.method, call.paramsJson, a2a, { signal });
    if (!reply.ok) throw new Error(`JSON-RPC error ${reply.error.code}`);
  };
}

/** Iteration i sends, answers or gets (i mod 3), passing the iteration's signal as scenarios do. */
export function a2aIteration(
  client: A2AClient,
  prompt: { taskId: string; promptId: string; payload: unknown },
): Iteration {
  return async ({ index, signal }) => {
    const op = index % 3;
    if (op === 0) {
      const sent = await client.send({ parts: [{ text: 'a2a-rig: open-model send' }] }, { signal });
      if (!sent.ok || !('task' in sent.value)) throw new Error('SendMessage did not return a task');
    } else if (op === 1) {
      const answered = await client.answer(prompt.taskId, prompt.promptId, prompt.payload, { signal });
      if (answered.kind !== 'accepted')
        throw new Error(`answer ${answered.kind}: ${answered.reason ?? answered.rpcMessage ?? ''}`);
    } else {
      const got = await client.getTask(prompt.taskId, { signal });
      if (!got.ok) throw new Error('GetTask failed');
    }
  };
}
