// Reads an agent's card (`/.well-known/agent-card.json`) and decides how to talk to it: the wire
// generation (1.0 when the card offers an interface with protocolVersion 1.x the rig speaks, else
// 0.3; a caller's choice overrides), the binding and endpoint of that generation (cardInterfaces.ts;
// the card's preferred one first, or the caller's `--binding`), streaming, and whether
// hitl-prompt/v1 is declared as the spec asks (required: false, params: {}), and how the
// acceptance-criteria extension is declared (acceptanceDeclaration.ts).
//
// A v1.0 card is ProtoJSON: a field holding its default is left out (a2a-sdk 1.3.0 declares an
// extension with required: false as `{"uri": …, "params": {}}`, and an empty `skills` list is
// absent). Absence is read as the default, never as a missing or undefined value.
import type { Generation, JsonObject } from '../protocol/a2aTypes.ts';
import { HITL_PROMPT_URI } from '../protocol/hitlPrompt.ts';
import { UserError } from '../protocol/userError.ts';
import { acceptanceDeclaration, type AcceptanceDeclaration } from './acceptanceDeclaration.ts';
import { JsonRpcTransport } from './jsonRpcTransport.ts';
import type { Credentials } from './credentials.ts';
import type { ExchangeOptions } from './transportTypes.ts';
import { TransportError } from './transportError.ts';
import { BINDING_NAMES, cardInterfaces, type Binding, type CardInterface } from './cardInterfaces.ts';

export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

export interface HitlDeclaration {
  declared: boolean;
  /**
   * The declaration's `required` (the spec says it MUST be false); absent reads as false, the
   * default. Undefined only when it is not a boolean.
   */
  required: boolean | undefined;
  /** True when `required` was left out (ProtoJSON omits a false). */
  requiredAbsent?: boolean;
  params: unknown;
}

export interface AgentDescription {
  /** The URL the rig was given. */
  agentUrl: string;
  cardUrl: string;
  card: JsonObject;
  name: string | undefined;
  /** The generation the client speaks. */
  generation: Generation;
  /** 'card' when chosen from the card, 'override' when the caller chose it. */
  generationSource: 'card' | 'override';
  /** The endpoint the client calls: the chosen interface's URL (for every binding, despite the name). */
  rpcUrl: string;
  /** The binding the client speaks at `rpcUrl`. */
  binding: Binding;
  /** Every interface the card offers, preferred first. */
  interfaces: CardInterface[];
  /** JSON-RPC endpoints the card offers, by generation. */
  jsonRpcInterfaces: Partial<Record<Generation, string>>;
  streaming: boolean;
  hitl: HitlDeclaration;
  /** The acceptance-criteria extension's declaration (acceptanceDeclaration.ts). */
  acceptance: AcceptanceDeclaration;
  /** Findings that do not stop the rig (missing fields, a declaration that breaks the spec...). */
  problems: string[];
}

/** The card could not be had or read: the target URL is wrong or the agent is not an A2A agent. */
export class DiscoveryError extends UserError {
  override name = 'DiscoveryError';
}

/** The card offers no interface of the binding asked for (`--binding all` goes on to the next). */
export class BindingNotOffered extends DiscoveryError {
  override name = 'BindingNotOffered';
}

/** Required card fields of scalar or list type, which ProtoJSON leaves out when empty. */
const PROTOJSON_DEFAULTED_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'description',
  'version',
  'defaultInputModes',
  'defaultOutputModes',
  'skills',
]);

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The bindings and generations the rig's client speaks (restTransport.ts, grpcTransport.ts). */
export function rigSpeaks(i: CardInterface): boolean {
  return i.binding === 'JSONRPC' || i.binding === 'HTTP+JSON' || (i.binding === 'GRPC' && i.generation === '1.0');
}

/** The JSON-RPC endpoints a card offers, by generation (the first of each). */
function jsonRpcInterfaces(interfaces: readonly CardInterface[]): Partial<Record<Generation, string>> {
  const found: Partial<Record<Generation, string>> = {};
  for (const i of interfaces) if (i.binding === 'JSONRPC') found[i.generation] ??= i.url;
  return found;
}

function offered(interfaces: readonly CardInterface[]): string {
  return interfaces.length === 0
    ? 'none'
    : interfaces
        .map((i) => `${BINDING_NAMES[i.binding as Binding] ?? i.binding} ${i.generation} at ${i.url}`)
        .join(', ');
}

/**
 * The interface the client talks to: of the generation asked for (else 1.0 when the card offers one
 * the rig speaks, else 0.3), the card's first that the rig speaks, of the binding asked for if any.
 * A binding asked for that the card does not offer is the user's to change: refused, naming what is.
 */
function chooseInterface(
  interfaces: readonly CardInterface[],
  override: Generation | undefined,
  binding: Binding | undefined,
): { generation: Generation; chosen: CardInterface | undefined } {
  const usable = interfaces.filter((i) => rigSpeaks(i) && (binding === undefined || i.binding === binding));
  const generation = override ?? (usable.some((i) => i.generation === '1.0') ? '1.0' : '0.3');
  const chosen = usable.find((i) => i.generation === generation);
  if (binding !== undefined && !chosen)
    throw new BindingNotOffered(
      `--binding ${BINDING_NAMES[binding]}: the card offers no ${BINDING_NAMES[binding]} interface` +
        `${override ? ` for A2A ${override}` : ''} the rig speaks (it offers: ${offered(interfaces)})`,
    );
  return { generation, chosen };
}

function hitlDeclaration(card: JsonObject, problems: string[]): HitlDeclaration {
  const capabilities = isObject(card.capabilities) ? card.capabilities : {};
  const extensions = Array.isArray(capabilities.extensions) ? capabilities.extensions : [];
  const entry = extensions.find((e): e is JsonObject => isObject(e) && e.uri === HITL_PROMPT_URI);
  if (!entry) return { declared: false, required: undefined, params: undefined };
  // AgentExtension.required defaults to false in both generations; ProtoJSON omits it then.
  const requiredAbsent = entry.required === undefined || entry.required === null;
  const required = requiredAbsent ? false : typeof entry.required === 'boolean' ? entry.required : undefined;
  if (required !== false)
    problems.push(
      `hitl-prompt/v1 is declared with required: ${JSON.stringify(entry.required)}; the spec says it MUST be false`,
    );
  if (entry.params !== undefined && !(isObject(entry.params) && Object.keys(entry.params).length === 0)) {
    problems.push('hitl-prompt/v1 is declared with non-empty params; v1 defines none');
  }
  return { declared: true, required, ...(requiredAbsent ? { requiredAbsent } : {}), params: entry.params };
}

/** Interprets a card (pure; `discoverAgent` fetches it). */
export function describeAgent(
  agentUrl: string,
  cardUrl: string,
  card: JsonObject,
  override?: Generation,
  binding?: Binding,
): AgentDescription {
  const problems: string[] = [];
  const interfaces = cardInterfaces(card, cardUrl);
  const jsonRpc = jsonRpcInterfaces(interfaces);
  const { generation, chosen } = chooseInterface(interfaces, override, binding);
  let rpcUrl = chosen?.url;
  if (!rpcUrl) {
    rpcUrl = jsonRpc['1.0'] ?? jsonRpc['0.3'] ?? new URL('/', agentUrl).toString();
    problems.push(`the card offers no interface for A2A ${generation} the rig speaks; calling JSON-RPC at ${rpcUrl}`);
  }
  // In a v1.0 (ProtoJSON) card an absent string or list is "" or []: present, at its default.
  const protoJson = Array.isArray(card.supportedInterfaces);
  const defaultable = protoJson ? PROTOJSON_DEFAULTED_FIELDS : new Set<string>();
  for (const field of [
    'name',
    'description',
    'version',
    'capabilities',
    'defaultInputModes',
    'defaultOutputModes',
    'skills',
  ]) {
    if (card[field] === undefined && !defaultable.has(field)) problems.push(`the card lacks "${field}"`);
  }
  const capabilities = isObject(card.capabilities) ? card.capabilities : {};
  return {
    agentUrl,
    cardUrl,
    card,
    name: typeof card.name === 'string' ? card.name : undefined,
    generation,
    generationSource: override ? 'override' : 'card',
    rpcUrl,
    binding: chosen?.binding === 'HTTP+JSON' || chosen?.binding === 'GRPC' ? chosen.binding : 'JSONRPC',
    interfaces,
    jsonRpcInterfaces: jsonRpc,
    streaming: capabilities.streaming === true,
    hitl: hitlDeclaration(card, problems),
    acceptance: acceptanceDeclaration(card, problems),
    problems,
  };
}

/**
 * Where to look for the card: the URL itself if it names a `.json` file; else under the URL's path
 * (agents mounted below a prefix serve it there), then at the origin's root as A2A specifies.
 */
export function agentCardUrls(agentUrl: string): string[] {
  const url = new URL(agentUrl);
  if (url.pathname.endsWith('.json')) return [url.toString()];
  const underPath = new URL(AGENT_CARD_PATH.slice(1), url.toString().endsWith('/') ? url : `${url}/`).toString();
  return [...new Set([underPath, new URL(AGENT_CARD_PATH, url).toString()])];
}

/** Fetches and interprets the agent card; throws DiscoveryError with a one-line reason. */
export async function discoverAgent(
  transport: JsonRpcTransport,
  agentUrl: string,
  options: ExchangeOptions & { generation?: Generation | 'auto'; binding?: Binding } = {},
): Promise<AgentDescription> {
  let candidates: string[];
  try {
    candidates = agentCardUrls(agentUrl);
  } catch {
    throw new DiscoveryError(`"${agentUrl}" is not a URL; give the agent's base URL, e.g. http://127.0.0.1:8080`);
  }
  const statuses: string[] = [];
  for (const cardUrl of candidates) {
    let reply: { status: number; body: unknown };
    try {
      reply = await transport.getJson(cardUrl, options);
    } catch (err) {
      if (err instanceof TransportError) throw new DiscoveryError(`cannot read the agent card: ${err.message}`);
      throw err;
    }
    if (reply.status === 404) {
      statuses.push(`${cardUrl} answered 404`);
      continue;
    }
    if (reply.status === 401 || reply.status === 403)
      throw new DiscoveryError(
        `GET ${cardUrl} answered HTTP ${reply.status}: the agent card itself needs credentials; ` +
          "pass them with --header (e.g. --header 'Authorization: Bearer $TOKEN')",
      );
    if (reply.status !== 200)
      throw new DiscoveryError(`GET ${cardUrl} answered HTTP ${reply.status}; is ${agentUrl} an A2A agent?`);
    if (!isObject(reply.body)) throw new DiscoveryError(`GET ${cardUrl} did not return a JSON object`);
    const override = options.generation === undefined || options.generation === 'auto' ? undefined : options.generation;
    return describeAgent(agentUrl, cardUrl, reply.body, override, options.binding);
  }
  throw new DiscoveryError(`no agent card at ${agentUrl} (${statuses.join('; ')}); is it an A2A agent?`);
}

/** `discoverAgent` over a transport of its own, closed when the card is read. */
export async function readAgent(
  agentUrl: string,
  options: { generation?: Generation | 'auto'; binding?: Binding; credentials?: Credentials } = {},
): Promise<AgentDescription> {
  const transport = new JsonRpcTransport({ connections: 1, credentials: options.credentials });
  try {
    return await discoverAgent(transport, agentUrl, options);
  } finally {
    await transport.close();
  }
}
