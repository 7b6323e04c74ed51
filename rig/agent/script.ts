// What a task does: a script of steps from the first user message (`a2a-rig/script` in a data part),
// the A2A TCK's messageId-prefix conventions, or the default approve-prompt script.
import type { Message, Part } from '../protocol/a2aTypes.ts';
import { SCRIPT_KEY } from '../protocol/rigScript.ts';
import { UserError } from '../protocol/userError.ts';
import { MAX_REJECTIONS_CAP } from '../protocol/acceptance.ts';

export { SCRIPT_KEY };
export const MAX_STEPS = 256;
export const MAX_WORK_MS = 600_000;
export const MAX_DEADLINE_MS = 86_400_000;
/** `attempts` entries: one per attempt an acceptance gate can reach (the first plus every retry). */
export const MAX_ATTEMPTS = MAX_REJECTIONS_CAP + 1;

export interface PromptStep {
  prompt: { text: string; response_schema: unknown; deadline_ms?: number; allowed_responders?: unknown };
}
export interface WorkStep {
  work: { ms: number };
}
export interface ArtifactStep {
  artifact: {
    text?: string;
    data?: unknown;
    url?: string;
    /** File content, base64 (a file part's `raw`; 0.3's `file.bytes`). */
    raw?: string;
    /** A file part's name and media type (0.3's `file.name` and `file.mimeType`). */
    filename?: string;
    media_type?: string;
    name?: string;
    append?: boolean;
    last_chunk?: boolean;
    id?: string;
  };
}
export interface CompleteStep {
  complete: { text?: string };
}
export interface FailStep {
  fail: { reason: string };
}
export interface RejectStep {
  reject: { reason: string };
}
export type Step = PromptStep | WorkStep | ArtifactStep | CompleteStep | FailStep | RejectStep;

export interface Script {
  steps: Step[];
  /** The TCK's `tck-message-response`: answer with a Message holding this text and create no task. */
  messageOnly?: { text: string };
  /** The first step runs straight from SUBMITTED, with no WORKING status before it (`tck-stream-002`). */
  skipWorking?: boolean;
  /**
   * A plain follow-up (from a client that did not activate hitl-prompt/v1) whose messageId starts
   * with this asks the open prompt again instead of answering it: the TCK's multi-turn tasks
   * stay in INPUT_REQUIRED for every `tck-input-required-*` message and complete on another.
   */
  askAgainOn?: string;
  /**
   * Artifacts per attempt of an acceptance gate (acceptance-criteria extension): attempt i (0-based)
   * emits `attempts[min(i, length - 1)]` just before it parks or completes, so a scenario can make
   * attempt 1 bad and attempt 2 good. Without it a retry re-emits the script's own artifact steps.
   */
  attempts?: ArtifactStep[][];
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

/** The TCK's streaming timeout in seconds, from the environment variable the TCK itself reads. */
export const TCK_STREAMING_TIMEOUT_ENV = 'TCK_STREAMING_TIMEOUT';
/** Its default in the TCK's SUT requirements (0.3.x docs/SUT_REQUIREMENTS.md; the 1.0-dev SUT's 2 s). */
export const TCK_STREAMING_TIMEOUT_DEFAULT_S = 2;

/**
 * The TCK's streaming timeout in ms: `TCK_STREAMING_TIMEOUT` (seconds, > 0 and at most half of
 * MAX_WORK_MS, since a task waits twice as long), or 2 s when unset. A bad value is a UserError.
 */
export function tckStreamingTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[TCK_STREAMING_TIMEOUT_ENV];
  if (raw === undefined || raw.trim() === '') return TCK_STREAMING_TIMEOUT_DEFAULT_S * 1000;
  const seconds = Number(raw);
  const max = MAX_WORK_MS / 2000;
  if (!/^\s*\d+(\.\d+)?\s*$/.test(raw) || !(seconds > 0) || seconds > max) {
    throw new UserError(
      `${TCK_STREAMING_TIMEOUT_ENV} must be a number of seconds in (0, ${max}], ` +
        `got ${JSON.stringify(raw.slice(0, 40))}`,
    );
  }
  return Math.round(seconds * 1000);
}

const FILE_CONTENT = Buffer.from('tck').toString('base64');
const TCK_FILE = { filename: 'output.txt', media_type: 'text/plain' };

/**
 * Scripts that let the A2A TCK drive the agent by messageId prefix, as the TCK specifies them
 * (1.0-dev's scenarios/core_operations.feature and scenarios/streaming.feature; 0.3.x's
 * docs/SUT_REQUIREMENTS.md for test-resubscribe-message-id). First match wins, so longer
 * prefixes come before the prefixes they extend.
 */
function tckScripts(): Array<[string, Script]> {
  const streamText = (text: string): Script => ({ steps: [{ artifact: { text } }, { complete: {} }] });
  return [
    ['tck-complete-task', { steps: [{ complete: { text: 'Hello from TCK' } }] }],
    [
      'tck-input-required',
      {
        steps: [
          { prompt: { text: 'Please provide more input.', response_schema: OPEN_SCHEMA } },
          { complete: { text: 'Hello from TCK' } },
        ],
        askAgainOn: 'tck-input-required',
      },
    ],
    ['tck-message-response', { steps: [], messageOnly: { text: 'Direct message response' } }],
    ['tck-reject-task', { steps: [{ reject: { reason: 'rejected' } }] }],
    ['tck-artifact-text', { steps: [{ artifact: { text: 'Generated text content' } }, { complete: {} }] }],
    [
      'tck-artifact-file-url',
      { steps: [{ artifact: { url: 'https://example.com/output.txt', ...TCK_FILE } }, { complete: {} }] },
    ],
    ['tck-artifact-file', { steps: [{ artifact: { raw: FILE_CONTENT, ...TCK_FILE } }, { complete: {} }] }],
    ['tck-artifact-data', { steps: [{ artifact: { data: { key: 'value', count: 42 } } }, { complete: {} }] }],
    ['tck-stream-001', streamText('Stream hello from TCK')],
    ['tck-stream-002', { steps: [{ complete: {} }], skipWorking: true }],
    ['tck-stream-003', streamText('Stream task lifecycle')],
    ['tck-stream-ordering-001', streamText('Ordered output')],
    ['tck-stream-artifact-text', streamText('Streamed text content')],
    ['tck-stream-artifact-file', { steps: [{ artifact: { raw: FILE_CONTENT, ...TCK_FILE } }, { complete: {} }] }],
    [
      'tck-stream-artifact-chunked',
      {
        steps: [
          { artifact: { id: 'chunked', text: 'chunk-1 ', append: false, last_chunk: false } },
          { artifact: { id: 'chunked', text: 'chunk-2', append: true, last_chunk: true } },
          { complete: {} },
        ],
      },
    ],
    ['tck-stream-', streamText('Streamed content')],
  ];
}
const TCK_SCRIPTS = tckScripts();

/** The 0.3 TCK's long task for resubscription: working for twice its streaming timeout, then completed. */
const RESUBSCRIBE_PREFIX = 'test-resubscribe-message-id';

function fail(path: string, what: string): never {
  throw new ScriptError(`${SCRIPT_KEY}: ${path} ${what}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isIntegerIn(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

type StepBody = Record<string, unknown>;

function checkPrompt(body: StepBody, at: string): Step {
  if (typeof body.text !== 'string') fail(`${at}.prompt.text`, 'must be a string');
  if (!('response_schema' in body)) fail(`${at}.prompt.response_schema`, 'is required');
  const ms = body.deadline_ms;
  if (ms !== undefined && !isIntegerIn(ms, 1, MAX_DEADLINE_MS)) {
    fail(`${at}.prompt.deadline_ms`, `must be an integer in 1..${MAX_DEADLINE_MS}`);
  }
  return { prompt: body as PromptStep['prompt'] };
}

function checkWork(body: StepBody, at: string): Step {
  const ms = body.ms;
  if (!isIntegerIn(ms, 0, MAX_WORK_MS)) fail(`${at}.work.ms`, `must be an integer in 0..${MAX_WORK_MS}`);
  return { work: { ms } };
}

function checkArtifact(body: StepBody, at: string): Step {
  if (body.text === undefined && body.data === undefined && body.url === undefined && body.raw === undefined)
    fail(`${at}.artifact`, 'needs text, data, url or raw');
  for (const key of ['raw', 'url', 'filename', 'media_type'] as const) {
    if (body[key] !== undefined && typeof body[key] !== 'string') fail(`${at}.artifact.${key}`, 'must be a string');
  }
  if (body.text !== undefined && typeof body.text !== 'string') fail(`${at}.artifact.text`, 'must be a string');
  return { artifact: body as ArtifactStep['artifact'] };
}

function checkFail(body: StepBody, at: string): Step {
  if (typeof body.reason !== 'string') fail(`${at}.fail.reason`, 'must be a string');
  return { fail: { reason: body.reason } };
}

/** Each kind of step a script may hold, with what its body must be. */
const STEP_CHECKS: Record<string, (body: StepBody, at: string) => Step> = {
  prompt: checkPrompt,
  work: checkWork,
  artifact: checkArtifact,
  complete: (body) => ({ complete: body as CompleteStep['complete'] }),
  fail: checkFail,
};

function checkStep(raw: unknown, i: number): Step {
  const at = `steps[${i}]`;
  if (!isObject(raw) || Object.keys(raw).length !== 1)
    fail(at, 'must be an object with exactly one of prompt, work, artifact, complete, fail');
  const [kind, body] = Object.entries(raw)[0];
  if (!isObject(body)) fail(`${at}.${kind}`, 'must be an object');
  if (!Object.hasOwn(STEP_CHECKS, kind))
    fail(at, `has unknown kind "${kind}" (expected prompt, work, artifact, complete or fail)`);
  return STEP_CHECKS[kind](body, at);
}

function checkAttempts(raw: unknown, stepCount: number): ArtifactStep[][] {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_ATTEMPTS)
    fail('attempts', `must be an array of 1..${MAX_ATTEMPTS} arrays of artifact steps`);
  let total = stepCount;
  return raw.map((attempt, a) => {
    if (!Array.isArray(attempt)) fail(`attempts[${a}]`, 'must be an array of artifact steps');
    total += attempt.length;
    if (total > MAX_STEPS) fail('attempts', `take the script past ${MAX_STEPS} steps`);
    return attempt.map((step, i) => {
      const checked = checkStep(step, i);
      if (!('artifact' in checked)) fail(`attempts[${a}][${i}]`, 'must be an artifact step');
      return checked;
    });
  });
}

/** The script a new task follows; throws ScriptError (a caller mistake) for a malformed one. */
export function scriptFor(message: Message): Script {
  for (const part of message.parts) {
    if (isObject(part.data) && SCRIPT_KEY in part.data) {
      const raw = part.data[SCRIPT_KEY];
      if (!isObject(raw) || !Array.isArray(raw.steps)) fail('value', 'must be an object with a "steps" array');
      if (raw.steps.length > MAX_STEPS)
        fail('steps', `has ${raw.steps.length} entries; at most ${MAX_STEPS} are allowed`);
      const script: Script = { steps: raw.steps.map(checkStep) };
      if (raw.attempts !== undefined) script.attempts = checkAttempts(raw.attempts, raw.steps.length);
      return script;
    }
  }
  if (message.messageId.startsWith(RESUBSCRIBE_PREFIX))
    return { steps: [{ work: { ms: 2 * tckStreamingTimeoutMs() } }, { complete: {} }] };
  const tck = TCK_SCRIPTS.find(([prefix]) => message.messageId.startsWith(prefix));
  return tck ? tck[1] : DEFAULT_SCRIPT;
}

/** The one part an artifact step adds: text (with {{answer}} filled in), a file (url or raw bytes), or data. */
export function artifactPart(spec: ArtifactStep['artifact'], answer: string): Part {
  if (spec.text !== undefined) return { text: spec.text.replaceAll('{{answer}}', answer) };
  if (spec.url === undefined && spec.raw === undefined) return { data: spec.data };
  return {
    ...(spec.url !== undefined ? { url: spec.url } : { raw: spec.raw }),
    ...(spec.filename !== undefined ? { filename: spec.filename } : {}),
    ...(spec.media_type !== undefined ? { mediaType: spec.media_type } : {}),
  };
}
