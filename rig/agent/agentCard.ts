// The agent card, v1.0 fields first, plus the v0.3 fields (`url`, `protocolVersion`,
// `preferredTransport`) that v0.3 clients such as @a2a-js/sdk 1.3 read.
import { HITL_PROMPT_URI } from '../protocol/hitlPrompt.ts';
import { SCRIPTED_SKILL_ID } from '../protocol/rigScript.ts';

export const AGENT_VERSION = '0.1.0';

export function agentCard(baseUrl: string, options: { declareRequired?: boolean } = {}): Record<string, unknown> {
  return {
    name: 'a2a-rig reference agent',
    description:
      'Reference A2A agent for hitl-prompt/v1: follows scripts of prompts, work, artifacts and outcomes, ' +
      'with a durable outbox and a WebSocket replay plane at /events.',
    version: AGENT_VERSION,
    supportedInterfaces: [
      { url: baseUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: baseUrl, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: baseUrl, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [
        {
          uri: HITL_PROMPT_URI,
          description: 'Structured HITL prompt envelope on INPUT_REQUIRED state.',
          // MUST be false; the declare-required-extension fault says true.
          required: options.declareRequired === true,
          params: {},
        },
      ],
    },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: SCRIPTED_SKILL_ID,
        name: 'Scripted human-in-the-loop task',
        description: 'Runs the script in the first message\'s "a2a-rig/script" data part; by default asks "Approve?" and echoes the answer.',
        tags: ['hitl', 'testing'],
        inputModes: ['text/plain', 'application/json'],
        outputModes: ['text/plain', 'application/json'],
      },
    ],
    // v0.3 fields
    url: baseUrl,
    protocolVersion: '0.3.0',
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [
      { url: baseUrl, transport: 'JSONRPC' },
      { url: baseUrl, transport: 'HTTP+JSON' },
    ],
  };
}
