// What a task does: a script of steps from the first user message (`a2a-rig/script` in a data part),
// the A2A TCK's messageId-prefix conventions, or the default approve-prompt script.
import type { Message } from '../protocol/a2aTypes.ts';
import { SCRIPT_KEY } from '../protocol/rigScript.ts';

export { SCRIPT_KEY };
export const MAX_STEPS = 256;
export const MAX_WORK_MS = 600_000;
export const MAX_DEADLINE_MS = 86_400_000;

export interface PromptStep {
  prompt: { text: string; response_schema: unknown; deadline_ms?: number; allowed_responders?: unknown };
}
export interface WorkStep { work: { ms: number } }
export interface ArtifactStep {
  artifact: { text?: string; data?: unknown; url?: string; name?: string; append?: boolean; last_chunk?: boolean; id?: string };
}
export interface CompleteStep { complete: { text?: string } }
export interface FailStep { fail: { reason: string } }
export interface RejectStep { reject: { reason: string } }
export type Step = PromptStep | WorkStep | ArtifactStep | CompleteStep | FailStep | RejectStep;

export interface Script {
  steps: Step[];
  /** The TCK's `tck-message-response`: answer with a Message and create no task. */
  messageOnly?: boolean;
}

export class ScriptError extends Error {
  override name = 'ScriptError';
}

export const DEFAULT_RESPONSE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['approved'],
  properties: { approved: { type: 'boolean' }, comment: { type: 'string', maxLength: 1024 } },
};

export const DEFAULT_SCRIPT: Script = {
  steps: [
    { prompt: { text: 'Approve?', response_schema: DEFAULT_RESPONSE_SCHEMA } },
    { artifact: { name: 'answer', text: 'Answer: {{answer}}' } },
    { complete: {} },
  ],
};

const OPEN_SCHEMA = { type: 'object' };

/** Scripts that let the A2A TCK drive the agent by messageId prefix (see a2a-facts.md). */
const TCK_SCRIPTS: Array<[string, Script]> = [
  ['tck-complete-task', { steps: [{ complete: { text: 'Task completed.' } }] }],
  ['tck-input-required', { steps: [{ prompt: { text: 'Please provide more input.', response_schema: OPEN_SCHEMA } }, { complete: { text: 'Thanks, done.' } }] }],
  ['tck-message-response', { steps: [], messageOnly: true }],
  ['tck-reject-task', { steps: [{ reject: { reason: 'Task rejected by request.' } }] }],
  ['tck-artifact-text', { steps: [{ artifact: { name: 'text', text: 'Generated text content' } }, { complete: {} }] }],
  ['tck-artifact-file-url', { steps: [{ artifact: { name: 'file-url', url: 'https://example.com/output.txt' } }, { complete: {} }] }],
  ['tck-artifact-file', { steps: [{ artifact: { name: 'file', data: { filename: 'output.txt', content: 'file content' } } }, { complete: {} }] }],
  ['tck-artifact-data', { steps: [{ artifact: { name: 'data', data: { key: 'value', count: 42 } } }, { complete: {} }] }],
  ['tck-stream-artifact-chunked', {
    steps: [
      { artifact: { id: 'chunked', name: 'chunked', text: 'chunk 1 ', append: false, last_chunk: false } },
      { artifact: { id: 'chunked', name: 'chunked', text: 'chunk 2 ', append: true, last_chunk: false } },
      { artifact: { id: 'chunked', name: 'chunked', text: 'chunk 3', append: true, last_chunk: true } },
      { complete: {} },
    ],
  }],
  ['tck-stream-artifact-file', { steps: [{ work: { ms: 50 } }, { artifact: { name: 'file-url', url: 'https://example.com/stream.txt' } }, { complete: {} }] }],
  ['tck-stream-', { steps: [{ work: { ms: 50 } }, { artifact: { name: 'stream', text: 'Streamed content' } }, { work: { ms: 50 } }, { complete: {} }] }],
  ['test-resubscribe-message-id', { steps: [{ work: { ms: 4000 } }, { complete: {} }] }],
];

function fail(path: string, what: string): never {
  throw new ScriptError(`${SCRIPT_KEY}: ${path} ${what}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkStep(raw: unknown, i: number): Step {
  const at = `steps[${i}]`;
  if (!isObject(raw) || Object.keys(raw).length !== 1) fail(at, 'must be an object with exactly one of prompt, work, artifact, complete, fail');
  const [kind, body] = Object.entries(raw)[0];
  if (!isObject(body)) fail(`${at}.${kind}`, 'must be an object');
  switch (kind) {
    case 'prompt': {
      if (typeof body.text !== 'string') fail(`${at}.prompt.text`, 'must be a string');
      if (!('response_schema' in body)) fail(`${at}.prompt.response_schema`, 'is required');
      const ms = body.deadline_ms;
      if (ms !== undefined && (typeof ms !== 'number' || !Number.isInteger(ms) || ms <= 0 || ms > MAX_DEADLINE_MS)) {
        fail(`${at}.prompt.deadline_ms`, `must be an integer in 1..${MAX_DEADLINE_MS}`);
      }
      return { prompt: body as PromptStep['prompt'] };
    }
    case 'work': {
      const ms = body.ms;
      if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || ms > MAX_WORK_MS) fail(`${at}.work.ms`, `must be an integer in 0..${MAX_WORK_MS}`);
      return { work: { ms } };
    }
    case 'artifact':
      if (body.text === undefined && body.data === undefined && body.url === undefined) fail(`${at}.artifact`, 'needs text, data or url');
      if (body.text !== undefined && typeof body.text !== 'string') fail(`${at}.artifact.text`, 'must be a string');
      return { artifact: body as ArtifactStep['artifact'] };
    case 'complete':
      return { complete: body as CompleteStep['complete'] };
    case 'fail':
      if (typeof body.reason !== 'string') fail(`${at}.fail.reason`, 'must be a string');
      return { fail: { reason: body.reason } };
    default:
      return fail(at, `has unknown kind "${kind}" (expected prompt, work, artifact, complete or fail)`);
  }
}

/** The script a new task follows; throws ScriptError (a caller mistake) for a malformed one. */
export function scriptFor(message: Message): Script {
  for (const part of message.parts) {
    if (isObject(part.data) && SCRIPT_KEY in part.data) {
      const raw = part.data[SCRIPT_KEY];
      if (!isObject(raw) || !Array.isArray(raw.steps)) fail('value', 'must be an object with a "steps" array');
      if (raw.steps.length > MAX_STEPS) fail('steps', `has ${raw.steps.length} entries; at most ${MAX_STEPS} are allowed`);
      return { steps: raw.steps.map(checkStep) };
    }
  }
  const tck = TCK_SCRIPTS.find(([prefix]) => message.messageId.startsWith(prefix));
  return tck ? tck[1] : DEFAULT_SCRIPT;
}
