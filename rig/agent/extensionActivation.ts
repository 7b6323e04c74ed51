// Extension activation per request (A2A `A2A-Extensions`, v0.3 `X-A2A-Extensions`) and the echo
// the agent owes on every response, streaming ones included.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EXTENSIONS_HEADER_V03, EXTENSIONS_HEADER_V1 } from '../protocol/a2aTypes.ts';
import { HITL_PROMPT_URI } from '../protocol/hitlPrompt.ts';
import { ACCEPTANCE_URI } from '../protocol/acceptance.ts';

export const SUPPORTED_EXTENSIONS: ReadonlySet<string> = new Set([HITL_PROMPT_URI, ACCEPTANCE_URI]);

function headerList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value.join(',') : value)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The requested URIs (header values, or gRPC metadata values) this agent supports, in request order, without
 * repeats. */
export function supportedOf(values: Array<string | string[] | undefined>): string[] {
  const requested = values.flatMap(headerList);
  return [...new Set(requested.filter((uri) => SUPPORTED_EXTENSIONS.has(uri)))];
}

/** The requested URIs this agent supports, in request order, without repeats. */
export function activatedExtensions(req: IncomingMessage): string[] {
  const v1 = req.headers[EXTENSIONS_HEADER_V1];
  const v03 = req.headers[EXTENSIONS_HEADER_V03];
  // Most requests carry neither header: they need no lists, splits or set.
  if (v1 === undefined && v03 === undefined) return [];
  return supportedOf([v1, v03]);
}

/** Sets the echo headers (both spellings, so clients of either generation find theirs). */
export function echoExtensions(res: ServerResponse, activated: string[], suppressed: boolean): void {
  if (suppressed || activated.length === 0) return;
  const value = activated.join(', ');
  res.setHeader('A2A-Extensions', value);
  res.setHeader('X-A2A-Extensions', value);
}
