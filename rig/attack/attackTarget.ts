// Builds an AttackTarget from what the engine knows (the agent's base URL and its card's binding,
// endpoint and generation), and a prompt opener for agents that follow a2a-rig scripts: the answer
// attacks need live prompts, and a scripted agent parks a task on a prompt of any schema we name.
import { request } from 'node:http';
import { a2aRequestHeaders } from '../client/a2aHeaders.ts';
import { userMessage } from '../client/outgoingMessage.ts';
import { HITL_PROMPT_URI } from '../protocol/hitlPrompt.ts';
import { SCRIPT_KEY } from '../protocol/rigScript.ts';
import { sendResultFromWire } from '../protocol/wireInbound.ts';
import { assertLoopbackTarget } from './attackLimits.ts';
import { sendRequest } from './attackRequests.ts';
import type { AttackTarget, LivePrompt } from './attackTypes.ts';

/**
 * Where attack traffic comes from unless told otherwise: not 127.0.0.1, so a per-client limit tells
 * it from the legitimate load.
 */
export const DEFAULT_SOURCE_ADDRESS = '127.0.0.2';

export interface AttackTargetOptions {
  baseUrl: string | URL;
  /** The card's endpoint for its binding (default: the base URL). */
  endpoint?: string | URL;
  binding?: AttackTarget['binding'];
  generation?: AttackTarget['generation'];
  /** Default 127.0.0.2 (::1 for an IPv6 target). */
  sourceAddress?: string;
  /** Default: the generation's A2A-Version header and hitl-prompt/v1 activated. */
  headers?: Record<string, string>;
  openPrompt?: () => Promise<LivePrompt>;
}

/** An AttackTarget with the defaults filled in; throws one line when it is not loopback. */
/** `localhost` as the IPv4 loopback address: attack sockets connect to addresses, never resolve names. */
function withAddress(url: URL): URL {
  if (url.hostname === 'localhost') url.hostname = '127.0.0.1';
  return url;
}

export function attackTarget(options: AttackTargetOptions): AttackTarget {
  const baseUrl = withAddress(new URL(String(options.baseUrl)));
  const generation = options.generation ?? '1.0';
  const target: AttackTarget = {
    baseUrl,
    endpoint: withAddress(new URL(String(options.endpoint ?? baseUrl))),
    binding: options.binding ?? 'JSONRPC',
    generation,
    sourceAddress: options.sourceAddress ?? (baseUrl.hostname.startsWith('[') ? '::1' : DEFAULT_SOURCE_ADDRESS),
    headers: options.headers ?? a2aRequestHeaders({ generation, extensions: [HITL_PROMPT_URI] }),
    ...(options.openPrompt ? { openPrompt: options.openPrompt } : {}),
  };
  assertLoopbackTarget(target);
  return target;
}

export interface ScriptedPromptOptions {
  responseSchema: unknown;
  /** An answer the schema accepts (the answer attacks send it, or build on it). */
  validPayload: unknown;
  text?: string;
  /**
   * An artifact of this many characters emitted before the prompt, so every view of the task (a
   * stream's first snapshot) carries it: an unread stream then fills the agent's buffers at once,
   * which is what exercises a per-reader buffer bound (default 0: none).
   */
  artifactBytes?: number;
  /** Bound of the blocking send that parks the task (default 10 s). */
  timeoutMs?: number;
}

/**
 * Opens prompts on an agent that follows a2a-rig scripts: a blocking send whose script is one
 * prompt step (then complete), from the default source (these are the legitimate side's requests).
 */
export function scriptedPromptOpener(target: AttackTarget, options: ScriptedPromptOptions): () => Promise<LivePrompt> {
  return async () => {
    const prompt = {
      prompt: { text: options.text ?? 'Attack target prompt', response_schema: options.responseSchema },
    };
    const artifact = options.artifactBytes
      ? [{ artifact: { name: 'bulk', text: 'b'.repeat(options.artifactBytes) } }]
      : [];
    const script = { steps: [...artifact, prompt, { complete: {} }] };
    const { path, body } = sendRequest(target, userMessage({ text: 'open a prompt', data: { [SCRIPT_KEY]: script } }));
    const text = await post(target, path, body, options.timeoutMs ?? 10_000);
    const reply = JSON.parse(text) as { result?: unknown; error?: { message?: string } };
    if (target.binding === 'JSONRPC' && reply.error)
      throw new Error(`opening a prompt failed: ${reply.error.message ?? JSON.stringify(reply.error)}`);
    const result = sendResultFromWire(target.binding === 'JSONRPC' ? reply.result : reply);
    if (!('task' in result)) throw new Error('opening a prompt failed: the agent answered with a message, not a task');
    const task = result.task;
    const envelope = task.status.message?.metadata?.[HITL_PROMPT_URI] as { prompt_id?: string } | undefined;
    if (task.status.state !== 'TASK_STATE_INPUT_REQUIRED' || typeof envelope?.prompt_id !== 'string') {
      throw new Error(
        `opening a prompt failed: task ${task.id} is ${task.status.state} without a hitl-prompt/v1 envelope`,
      );
    }
    return {
      taskId: task.id,
      contextId: task.contextId,
      promptId: envelope.prompt_id,
      responseSchema: options.responseSchema,
      validPayload: options.validPayload,
    };
  };
}

function post(target: AttackTarget, path: string, body: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.baseUrl.hostname.replace(/^\[|\]$/g, ''),
        port: Number(target.baseUrl.port || 80),
        method: 'POST',
        path,
        agent: false,
        timeout: timeoutMs,
        headers: { ...target.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > 1024 * 1024) req.destroy(new Error('opening a prompt failed: the reply is over 1 MiB'));
          else chunks.push(c);
        });
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`opening a prompt failed: no reply within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
