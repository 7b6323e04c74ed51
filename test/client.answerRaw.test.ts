// answerRaw: an answer whose payload is JSON text sent verbatim, for payloads JSON.stringify cannot
// build (100,000 levels deep). Against the reference agent, in both wire generations: the text
// arrives as the payload (replacement patterns like `$&` included), and the deepest payload gets
// the agent's 422 without the rig ever serializing it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_KEY } from '../rig/agent/script.ts';
import type { Generation } from '../rig/protocol/a2aTypes.ts';
import { HITL_RESPONSE_KEY } from '../rig/protocol/hitlPrompt.ts';
import { A2AClient } from '../rig/client/a2aClient.ts';
import { userMessage } from '../rig/client/outgoingMessage.ts';
import { inProcessAgent } from './support/inProcessAgent.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent?.cleanup());

const OPEN_TREE = { type: 'object', properties: { tree: {}, s: { type: 'string' } } };

async function parked(client: A2AClient): Promise<{ taskId: string; promptId: string }> {
  const sent = await client.send(
    userMessage({
      data: { [SCRIPT_KEY]: { steps: [{ prompt: { text: 'Tree?', response_schema: OPEN_TREE } }, { complete: {} }] } },
    }),
  );
  if (!sent.ok || !('task' in sent.value)) throw new Error(`send failed: ${JSON.stringify(sent)}`);
  const prompt = client.promptOf(sent.value.task);
  if (!prompt?.ok) throw new Error(`no usable prompt: ${JSON.stringify(prompt)}`);
  return { taskId: sent.value.task.id, promptId: prompt.envelope.prompt_id };
}

describe.each<Generation>(['1.0', '0.3'])('answerRaw over A2A %s', (generation) => {
  let client: A2AClient;
  beforeAll(async () => {
    client = await A2AClient.open(agent.url, { generation });
  });
  afterAll(async () => client?.close());

  it('sends the text verbatim as the payload, replacement patterns included', async () => {
    const { taskId, promptId } = await parked(client);
    const text = '{"s":"$& $\' $` $$","tree":[[{"k":1}]]}';
    const outcome = await client.answerRaw(taskId, promptId, text);
    expect(outcome.kind).toBe('accepted');
    const got = await client.getTask(taskId);
    if (!got.ok) throw new Error(got.error.message);
    const answer = got.value.history.find((m) => m.metadata?.[HITL_RESPONSE_KEY] !== undefined);
    expect((answer?.metadata?.[HITL_RESPONSE_KEY] as { payload: unknown }).payload).toEqual(JSON.parse(text));
  });

  it('carries a payload nested 100,000 levels to the agent, which refuses it with a 422', async () => {
    const { taskId, promptId } = await parked(client);
    const levels = 100_000;
    const text = `{"tree":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    const outcome = await client.answerRaw(taskId, promptId, text);
    expect(outcome).toMatchObject({ kind: 'invalid', httpStatus: 422, rpcCode: -32011 });
    expect(outcome.validationErrors.map((e) => e.keyword)).toEqual(['maxDepth']);
  });
});
