// A minimal A2A agent built with the official SDK's server side (@a2a-js/sdk 1.3.0, Express 5):
// the "any agent" a2a-rig must be able to point at. Its card does NOT declare hitl-prompt/v1 and it
// offers JSON-RPC for A2A 1.0 only (the SDK's native generation; no v0.3 compat layer). Its executor
// answers every message with a task that is COMPLETED at once, carrying a plain text reply: it never
// parks in INPUT_REQUIRED, so nothing of hitl-prompt/v1 can be exercised against it.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import express from 'express';
import { AGENT_CARD_PATH, AgentCard, Role, TaskState, type Message } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';

export interface SdkAgent {
  /** Base URL, e.g. http://127.0.0.1:PORT (the card is at /.well-known/agent-card.json). */
  url: string;
  /** Closes the listener and every open connection. */
  close(): Promise<void>;
}

const completeAtOnce: AgentExecutor = {
  async execute(request, bus) {
    const { taskId, contextId } = request;
    const reply: Message = {
      messageId: randomUUID(),
      contextId,
      taskId,
      role: Role.ROLE_AGENT,
      parts: [
        { content: { $case: 'text', value: 'done' }, metadata: undefined, filename: '', mediaType: 'text/plain' },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    const status = { state: TaskState.TASK_STATE_COMPLETED, message: reply, timestamp: new Date().toISOString() };
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status,
        artifacts: [],
        history: [request.userMessage],
        metadata: undefined,
      }),
    );
    bus.finished();
  },
  async cancelTask() {},
};

export async function startSdkMinimalAgent(): Promise<SdkAgent> {
  const app = express();
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card = AgentCard.fromJSON({
    name: 'sdk-minimal-agent',
    description: 'A minimal @a2a-js/sdk agent without hitl-prompt/v1',
    version: '0.0.1',
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Done', description: 'answers every message with a completed task', tags: ['test'] }],
  });
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), completeAtOnce);
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
  app.use('/', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  return {
    url,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
