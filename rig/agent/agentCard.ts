// The agent card in two generations. A2A 1.0's card is strict: its JSON schema forbids unknown
// top-level fields, so a 1.0 parser (the 1.0 TCK's among them) rejects a card that also carries
// the 0.3 fields `url`, `protocolVersion`, `preferredTransport` and `additionalInterfaces`. So the
// 1.0 card has only 1.0 fields and names every endpoint, both generations', in
// `supportedInterfaces`; the 0.3 card is the 1.0 card plus the 0.3 fields (0.3 parsers ignore
// fields they do not know, and @a2a-js/sdk 1.3 / a2a-sdk 0.3 find their endpoint in `url` and
// `additionalInterfaces`). Which one a request gets is decided by cardRoute.ts.
import { HITL_PROMPT_URI } from '../protocol/hitlPrompt.ts';
import { ACCEPTANCE_URI, EVALUATORS, MAX_REJECTIONS_CAP, type AcceptanceParams } from '../protocol/acceptance.ts';

/** The acceptance-criteria extension's declaration (required: false, as the draft says it SHOULD be). */
const ACCEPTANCE_PARAMS: AcceptanceParams = {
  evaluators: [...EVALUATORS],
  supportsArtifactSchema: true,
  maxRejectionsCap: MAX_REJECTIONS_CAP,
};
import { SCRIPTED_SKILL_ID } from '../protocol/rigScript.ts';

export const AGENT_VERSION = '0.1.0';

export type CardGeneration = '1.0' | '0.3';

export interface AgentCardOptions {
  /** Which card: '1.0' (strict, the default) or '0.3' (1.0 fields plus the 0.3 ones). */
  generation?: CardGeneration;
  /** The declare-required-extension fault: declare hitl-prompt/v1 with required: true. */
  declareRequired?: boolean;
  /** The port of the agent's gRPC binding, when it serves one (same host as `baseUrl`). */
  grpcPort?: number;
}

/** A2A 1.0 names a gRPC endpoint by `host:port` (a gRPC target, as the TCK's client dials it). */
function grpcInterfaces(baseUrl: string, grpcPort: number | undefined): Array<Record<string, string>> {
  if (grpcPort === undefined) return [];
  return [{ url: `${new URL(baseUrl).hostname}:${grpcPort}`, protocolBinding: 'GRPC', protocolVersion: '1.0' }];
}

export function agentCard(baseUrl: string, options: AgentCardOptions = {}): Record<string, unknown> {
  const card: Record<string, unknown> = {
    name: 'a2a-rig reference agent',
    description:
      'Reference A2A agent for hitl-prompt/v1 and the acceptance-criteria extension: ' +
      'follows scripts of prompts, work, artifacts and outcomes, ' +
      'with a durable outbox and a WebSocket replay plane at /events.',
    version: AGENT_VERSION,
    // 1.0 first: a 1.0 client takes the first interface it supports, in the agent's order of
    // preference. The 0.3 HTTP+JSON binding keeps the base URL; its paths start with /v1/.
    supportedInterfaces: [
      { url: baseUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: baseUrl, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ...grpcInterfaces(baseUrl, options.grpcPort),
      { url: baseUrl, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: baseUrl, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
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
        {
          uri: ACCEPTANCE_URI,
          description:
            'Acceptance criteria: completion waits for an accept/reject decision ' +
            '(INPUT_REQUIRED with pendingAcceptance), or the agent checks the criteria itself.',
          required: false,
          params: ACCEPTANCE_PARAMS,
        },
      ],
    },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: SCRIPTED_SKILL_ID,
        name: 'Scripted human-in-the-loop task',
        description:
          'Runs the script in the first message\'s "a2a-rig/script" data part; ' +
          'by default asks "Approve?" and echoes the answer.',
        tags: ['hitl', 'testing'],
        inputModes: ['text/plain', 'application/json'],
        outputModes: ['text/plain', 'application/json'],
      },
    ],
  };
  if (options.generation !== '0.3') return card;
  return {
    ...card,
    url: baseUrl,
    protocolVersion: '0.3.0',
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [
      { url: baseUrl, transport: 'JSONRPC' },
      { url: baseUrl, transport: 'HTTP+JSON' },
    ],
  };
}
