// The interfaces an agent card offers, in the card's order of preference, and the binding the rig
// talks over. A v1.0 card lists `supportedInterfaces[{url, protocolBinding, protocolVersion}]`, the
// first preferred; a v0.3 card names `url` with its `preferredTransport`, then
// `additionalInterfaces[{url, transport}]`. Cards between the two (an entry with `transport`, or with
// no `protocolVersion` of its own under a card-level one) are read by the same rules.
import type { Generation, JsonObject } from '../protocol/a2aTypes.ts';

export type Binding = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';
export const BINDINGS: readonly Binding[] = ['JSONRPC', 'HTTP+JSON', 'GRPC'];

/** How `--binding` and messages name a binding. */
export const BINDING_NAMES: Readonly<Record<Binding, string>> = {
  JSONRPC: 'JSON-RPC',
  'HTTP+JSON': 'HTTP+JSON',
  GRPC: 'gRPC',
};

export interface CardInterface {
  /** The binding as the card names it, normalized when it is one A2A defines. */
  binding: Binding | string;
  generation: Generation;
  url: string;
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function generationOfVersion(version: unknown): Generation | undefined {
  if (typeof version !== 'string') return undefined;
  if (/^1(\.|$)/.test(version.trim())) return '1.0';
  if (/^0\.3(\.|$)/.test(version.trim())) return '0.3';
  return undefined;
}

/** A binding name from a card or the command line; REST is the name 0.3 drafts used for HTTP+JSON. */
export function normalizeBinding(name: unknown): Binding | string | undefined {
  if (typeof name !== 'string' || name.length === 0) return undefined;
  const key = name.trim().toUpperCase().replace(/[-_ ]/g, '');
  if (key === 'JSONRPC') return 'JSONRPC';
  if (key === 'HTTP+JSON' || key === 'HTTPJSON' || key === 'REST') return 'HTTP+JSON';
  if (key === 'GRPC') return 'GRPC';
  return name.slice(0, 40);
}

function absolute(url: unknown, base: string, binding: Binding | string): string | undefined {
  if (typeof url !== 'string' || url.length === 0) return undefined;
  // A gRPC interface URL is host:port, or a URL with a scheme.
  const text = binding === 'GRPC' && !/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? `http://${url}` : url;
  try {
    return new URL(text, base).toString();
  } catch {
    return undefined;
  }
}

function listed(card: JsonObject, base: string): CardInterface[] {
  const found: CardInterface[] = [];
  const cardGeneration = generationOfVersion(card.protocolVersion);
  for (const entry of Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : []) {
    if (!isObject(entry)) continue;
    const binding = normalizeBinding(entry.protocolBinding ?? entry.transport);
    const generation = generationOfVersion(entry.protocolVersion) ?? cardGeneration ?? '1.0';
    const url = binding === undefined ? undefined : absolute(entry.url, base, binding);
    if (binding !== undefined && url) found.push({ binding, generation, url });
  }
  return found;
}

function legacy(card: JsonObject, base: string): CardInterface[] {
  const found: CardInterface[] = [];
  const main = normalizeBinding(card.preferredTransport ?? 'JSONRPC') ?? 'JSONRPC';
  const url = absolute(card.url, base, main);
  if (url) found.push({ binding: main, generation: '0.3', url });
  for (const entry of Array.isArray(card.additionalInterfaces) ? card.additionalInterfaces : []) {
    if (!isObject(entry)) continue;
    const binding = normalizeBinding(entry.transport);
    const at = binding === undefined ? undefined : absolute(entry.url, base, binding);
    if (binding !== undefined && at) found.push({ binding, generation: '0.3', url: at });
  }
  return found;
}

/** Every interface the card offers, preferred first; the same binding and generation only once. */
export function cardInterfaces(card: JsonObject, base: string): CardInterface[] {
  const isLegacy =
    generationOfVersion(card.protocolVersion) === '0.3' ||
    (card.protocolVersion === undefined && card.url !== undefined);
  const all = [...listed(card, base), ...(isLegacy ? legacy(card, base) : [])];
  const seen = new Set<string>();
  return all.filter((i) => {
    const key = `${i.binding} ${i.generation}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
