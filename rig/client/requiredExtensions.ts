// The extensions a card declares `required: true` (the agent refuses a request that does not
// activate them, -32008 in A2A 1.0): the rig activates the ones it understands where it should
// (hitl-prompt/v1, acceptance-criteria); any other must be activated by the user (`--activate URI`)
// or every request is refused for the rig's omission — so a run stops before sending anything.
// ProtoJSON leaves `required: false` out: only an explicit `true` counts.
import type { JsonObject } from '../protocol/a2aTypes.ts';
import { UserError } from '../protocol/userError.ts';
import { ACCEPTANCE_URI } from '../protocol/acceptance.ts';
import { HITL_PROMPT_URI } from '../protocol/hitlPrompt.ts';

/** The extensions whose activation the rig decides itself, call by call. */
export const UNDERSTOOD_EXTENSIONS: readonly string[] = [HITL_PROMPT_URI, ACCEPTANCE_URI];

/** The URIs of the card's extensions declared `required: true`, in card order. */
export function requiredExtensions(card: JsonObject): string[] {
  const capabilities = card.capabilities as { extensions?: unknown } | undefined;
  const list = Array.isArray(capabilities?.extensions) ? (capabilities.extensions as unknown[]) : [];
  const uris: string[] = [];
  for (const e of list) {
    const { uri, required } = (typeof e === 'object' && e !== null ? e : {}) as { uri?: unknown; required?: unknown };
    if (required === true && typeof uri === 'string' && !uris.includes(uri)) uris.push(uri.slice(0, 300));
  }
  return uris;
}

/** The required extensions neither understood by the rig nor given with `--activate`. */
export function unactivatedRequired(card: JsonObject, activate: readonly string[]): string[] {
  return requiredExtensions(card).filter((uri) => !UNDERSTOOD_EXTENSIONS.includes(uri) && !activate.includes(uri));
}

/** The one line that stops a run: which extensions, and the flags that would activate them. */
export function unactivatedRequiredLine(unactivated: readonly string[]): string {
  const flags = unactivated.map((uri) => `--activate ${uri}`).join(' ');
  const which = unactivated.length === 1 ? 'an extension' : `${unactivated.length} extensions`;
  const it = unactivated.length === 1 ? 'it' : 'them';
  return (
    `the agent card declares ${which} required that the rig does not understand and was not activated: ` +
    `${unactivated.join(', ')}; the agent would refuse every request without ${it} ` +
    `(nothing was sent) — if the agent works with the rig's requests once activated, pass ${flags}`
  );
}

/** Stops a run (UserError) on an unactivated required extension; says which ones `--activate` turns on. */
export function checkRequiredExtensions(card: JsonObject, activate: readonly string[], say?: (line: string) => void) {
  const unactivated = unactivatedRequired(card, activate);
  if (unactivated.length > 0) throw new UserError(unactivatedRequiredLine(unactivated));
  const activated = requiredExtensions(card).filter((uri) => activate.includes(uri));
  if (activated.length > 0) say?.(`activating the card's required ${activated.join(', ')} (--activate)`);
}
