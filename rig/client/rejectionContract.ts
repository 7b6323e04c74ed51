// A 422 / -32011 held against the contract's examples/invalid-response-422.json: `error.data` is
// the object `{extension: <the extension URI>, prompt_id: <the prompt answered>, validation_errors:
// [{path, keyword, message}]}`. Agents that put validation_errors elsewhere (an SDK renders custom
// details as a list of google.rpc details: `error.data: [{"@type": ".../google.rpc.ErrorInfo",
// "metadata": {...}}]`, or in `details[]`) break the contract, and the finding names where the
// array was found, so the agent's author knows what to move.
import { HITL_PROMPT_URI, invalidResponseExample } from '../protocol/hitlPrompt.ts';
import type { RpcErrorBody } from './rpcReply.ts';

/** Nodes visited looking for a stray validation_errors; a hostile reply cannot make this costly. */
const SEARCH_NODES = 2_000;
const SEARCH_DEPTH = 8;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(value: unknown): string {
  return Array.isArray(value)
    ? 'an array'
    : value === null
      ? 'null'
      : typeof value === 'object'
        ? 'an object'
        : (JSON.stringify(value)?.slice(0, 80) ?? String(value));
}

/**
 * The message type a detail names in its `@type` ("type.googleapis.com/google.rpc.ErrorInfo" →
 * "google.rpc.ErrorInfo").
 */
function detailType(node: object): string | undefined {
  const type = (node as Record<string, unknown>)['@type'];
  return typeof type === 'string' ? type.slice(type.lastIndexOf('/') + 1).slice(0, 80) : undefined;
}

/** Where in the error a `validation_errors` key sits (breadth first, bounded), with how it is held. */
export function locateValidationErrors(error: RpcErrorBody): string | undefined {
  const queue: Array<[unknown, string, number, string | undefined]> = [
    [error.data, 'error.data', 0, undefined],
    [error.details, 'error.details', 0, undefined],
  ];
  for (let visited = 0; queue.length > 0 && visited < SEARCH_NODES; visited++) {
    const [node, path, depth, outerType] = queue.shift()!;
    if (typeof node !== 'object' || node === null || depth > SEARCH_DEPTH) continue;
    const within = (!Array.isArray(node) && detailType(node)) || outerType;
    const how = (extra?: string) => {
      const notes = [within ? `inside a ${within}` : undefined, extra].filter(Boolean);
      return notes.length ? ` (${notes.join(', ')})` : '';
    };
    const entries: Array<[string, unknown]> = Array.isArray(node)
      ? node.map((v, i) => [`[${i}]`, v])
      : Object.entries(node).map(([k, v]) => [`.${k}`, v]);
    for (const [step, value] of entries) {
      if (step === '.validation_errors') {
        if (Array.isArray(value)) return `${path}${step}${how()}`;
        if (typeof value === 'string' && value.trimStart().startsWith('['))
          return `${path}${step}${how('as a JSON string')}`;
      }
      queue.push([value, `${path}${step}`, depth + 1, within]);
    }
  }
  return undefined;
}

/** An entry as the example writes one: {path, keyword, message}, all strings. */
export function exampleEntry(v: unknown): boolean {
  return isObject(v) && typeof v.path === 'string' && typeof v.keyword === 'string' && typeof v.message === 'string';
}

/**
 * The ways a -32011 rejection's error departs from examples/invalid-response-422.json; empty when
 * it matches. `promptId` is the prompt that was answered (unknown for a raw resend: not checked).
 */
export function rejectionContractBreaches(error: RpcErrorBody, promptId: string | undefined): string[] {
  const example = invalidResponseExample.response.jsonrpcError;
  const breaches: string[] = [];
  const data = error.data;
  if (!isObject(data)) {
    breaches.push(
      `error.data is ${data === undefined ? 'absent' : describe(data)}, ` +
        'not the object {extension, prompt_id, validation_errors} of examples/invalid-response-422.json',
    );
  } else {
    if (data.extension !== HITL_PROMPT_URI)
      breaches.push(
        `error.data.extension is ${data.extension === undefined ? 'absent' : describe(data.extension)}; ` +
          `the contract says ${example.data.extension}`,
      );
    if (typeof data.prompt_id !== 'string')
      breaches.push(
        `error.data.prompt_id is ${data.prompt_id === undefined ? 'absent' : describe(data.prompt_id)}; ` +
          'the contract names the answered prompt',
      );
    else if (promptId !== undefined && data.prompt_id !== promptId)
      breaches.push(`error.data.prompt_id is ${data.prompt_id}, not the answered prompt ${promptId}`);
  }
  const listed = isObject(data) && Array.isArray(data.validation_errors) ? data.validation_errors : undefined;
  const unlike = listed?.filter((e) => !exampleEntry(e)).length ?? 0;
  if (unlike > 0)
    breaches.push(
      `${unlike} of ${listed!.length} validation_errors entries lack the example's string path, keyword and message`,
    );
  if (!listed) {
    const elsewhere = locateValidationErrors(error);
    breaches.push(
      elsewhere
        ? `validation_errors is at ${elsewhere}, not at error.data.validation_errors`
        : 'there is no error.data.validation_errors array',
    );
  }
  return breaches;
}
