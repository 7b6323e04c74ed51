// The stack of an error that ended a scenario, as results.json `stack` keeps it: only the frames
// (`at fn (file:line:col)`), the scenario's own frames first (any file outside the rig's rig/ and
// node_modules: a scenario of the repository's scenarios/ or of a user's --scenarios directory), then
// the first RIG_FRAMES_KEPT of the rig's (where inside the rig it was thrown); Node's internals and
// frames that name no file:line left out.
import { fileURLToPath } from 'node:url';

/** The rig's own code (rig/), as stack frames name it. */
const RIG_DIR = fileURLToPath(new URL('../', import.meta.url));
const RIG_FRAMES_KEPT = 8;

const FRAME = /^\s*at\s/;
/** A frame that names a place: `file:line:col` (frames such as `at async Promise.all (index 0)` name none). */
const LOCATED = /:\d+:\d+\)?$/;

function isRigFrame(frame: string): boolean {
  return frame.includes(RIG_DIR) || frame.includes('/node_modules/') || frame.includes('node:');
}

/** The error's frames, scenario frames first; undefined when it has none (not an Error, or no stack). */
export function errorStack(err: unknown): string | undefined {
  const stack = (err as { stack?: unknown } | null)?.stack;
  if (typeof stack !== 'string') return undefined;
  const frames = stack
    .split('\n')
    .filter((l) => FRAME.test(l) && LOCATED.test(l.trimEnd()) && !l.includes('node:internal'))
    .map((l) => l.trim().replace('file://', ''));
  if (frames.length === 0) return undefined;
  const own = frames.filter((f) => !isRigFrame(f));
  const rig = frames.filter(isRigFrame).slice(0, RIG_FRAMES_KEPT);
  return [...own, ...rig].join('\n');
}
