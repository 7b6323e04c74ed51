// How the fake acceptance agent (fakeAcceptanceAgent.ts) renders what it says, in either wire
// generation: its tasks (artifact, status, the pending status message and its flag), its card with
// the extension's declaration, and the data of its acceptance errors.
import { ACCEPTANCE_URI, PENDING_KEY } from '../../rig/protocol/acceptance.ts';

/** The options that change what the fake says on the wire (fakeAcceptanceAgent.ts has the rest). */
export interface AcceptanceWireOptions {
  generation: '0.3' | '1.0';
  /**
   * The card's capabilities.extensions entry for the extension; null leaves it out. Default: the
   * full declaration.
   */
  declaration?: Record<string, unknown> | null;
  /** What the pending status carries under PENDING_KEY: true (default), the string "true", or nothing. */
  pendingFlag?: 'true' | 'string' | 'absent';
  /** The pending status message lists ACCEPTANCE_URI in `extensions` (default true). */
  listsUri?: boolean;
  /**
   * error.data: the object {extension, reason} (default) or, as an SDK renders 1.0 errors, a
   * google.rpc ErrorInfo list.
   */
  errorData?: 'object' | 'error-info';
}

export interface FakeTask {
  id: string;
  contextId: string;
  state: 'working' | 'input-required' | 'completed' | 'failed';
  gated: boolean;
  creator: string;
  deciders: string[];
  maxRejections: number;
  rejections: number;
  history: unknown[];
}

const V1_STATE = {
  working: 'TASK_STATE_WORKING',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
} as const;

export class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

export const FULL_DECLARATION = {
  uri: ACCEPTANCE_URI,
  description: 'gates completion',
  required: false,
  params: { evaluators: ['client', 'agent', 'human'], supportsArtifactSchema: true, maxRejectionsCap: 10 },
};

/** The fake's renderings for `options`; `urlOf` gives its address once it listens. */
export function acceptanceWire(options: AcceptanceWireOptions, urlOf: () => string) {
  const v1 = options.generation === '1.0';
  const part = (p: Record<string, unknown>, kind: 'text' | 'data') => (v1 ? p : { kind, ...p });
  const statusMessage = (t: FakeTask) => {
    if (t.state !== 'input-required' || !t.gated) return undefined;
    const flag = options.pendingFlag ?? 'true';
    const metadata = flag === 'absent' ? {} : { [PENDING_KEY]: flag === 'true' ? true : 'true' };
    const listed = (options.listsUri ?? true) ? { extensions: [ACCEPTANCE_URI] } : {};
    // ProtoJSON leaves out the empty parts list; 0.3 requires parts and `kind`.
    return v1
      ? { messageId: `s-${t.id}-${t.rejections}`, role: 'ROLE_AGENT', metadata, ...listed }
      : {
          kind: 'message',
          messageId: `s-${t.id}-${t.rejections}`,
          role: 'agent',
          parts: [part({ text: 'pending acceptance' }, 'text')],
          metadata,
          ...listed,
        };
  };
  const taskJson = (t: FakeTask, state = t.state) => {
    const message = state === t.state ? statusMessage(t) : undefined;
    const artifacts =
      t.gated || state === 'completed'
        ? [{ artifactId: `a-${t.id}`, name: 'result', parts: [part({ data: { attempt: t.rejections } }, 'data')] }]
        : [];
    const status = { state: v1 ? V1_STATE[state] : state, ...(message ? { message } : {}) };
    return v1
      ? {
          id: t.id,
          contextId: t.contextId,
          status,
          ...(artifacts.length ? { artifacts } : {}),
          ...(t.history.length ? { history: t.history } : {}),
        }
      : { kind: 'task', id: t.id, contextId: t.contextId, status, artifacts, history: t.history };
  };
  const card = () => {
    const extensions = options.declaration === null ? [] : [options.declaration ?? FULL_DECLARATION];
    return v1
      ? {
          name: 'fake-acceptance-agent',
          description: 'gates',
          supportedInterfaces: [{ url: `${urlOf()}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
          version: '1.0.0',
          capabilities: { streaming: true, ...(extensions.length ? { extensions } : {}) },
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['application/json'],
        }
      : {
          name: 'fake-acceptance-agent',
          description: 'gates',
          url: `${urlOf()}/`,
          protocolVersion: '0.3.0',
          preferredTransport: 'JSONRPC',
          version: '1.0.0',
          capabilities: { streaming: true, extensions },
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['application/json'],
          skills: [],
        };
  };

  const errorData = (f: RpcFailure) => {
    if (!(f.code <= -32040 && f.code >= -32044)) return undefined;
    const data = { extension: ACCEPTANCE_URI, reason: f.reason };
    return options.errorData === 'error-info'
      ? [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: f.message.toUpperCase(),
            domain: 'github.com',
            metadata: data,
          },
        ]
      : data;
  };
  return { taskJson, card, errorData };
}
