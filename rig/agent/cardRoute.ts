// Serves the agent card. `/.well-known/agent-card.json` is negotiated by A2A-Version (header, or
// the `A2A-Version` query parameter A2A 1.0 §3.2.6 allows): 1.0 gets the strict 1.0 card, 0.3 the
// 0.3 card (agentCard.ts says why there are two), any other version VersionNotSupportedError
// (-32009, HTTP 400, AIP-193 body). A request without a version gets the 1.0 card: the card is
// discovery, read before any version is chosen, so the newest card is the default (the 1.0 TCK
// fetches it without a header) -- unless the agent was started with `--card-default 0.3` for 0.3
// clients that send no header and cannot be re-pointed. `/.well-known/agent.json`, the 0.2/0.3
// location older clients (and the 0.3 TCK, as its fallback) read, always serves the 0.3 card.
//
// Caching (A2A 1.0 §8.6 SHOULD/MAY): Cache-Control with max-age, a strong ETag that is a hash of
// the exact bytes served (so the two cards, and cards naming different Hosts, differ),
// Last-Modified = the agent's start (the card cannot change while it runs), Vary: A2A-Version
// (the same URL serves two cards), and If-None-Match / If-Modified-Since answered with 304.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2AError, A2A_VERSION_NOT_SUPPORTED } from '../protocol/errorCodes.ts';
import { HITL_PROMPT_URI } from '../protocol/hitlPrompt.ts';
import { agentCard, type CardGeneration } from './agentCard.ts';

export const CARD_PATH = '/.well-known/agent-card.json';
export const LEGACY_CARD_PATH = '/.well-known/agent.json';
/** How long a client or cache may reuse the card without asking again (seconds). */
export const CARD_MAX_AGE_S = 300;

export interface CardRouteOptions {
  /** The card a request without A2A-Version gets at agent-card.json (default 1.0). */
  cardDefault: CardGeneration;
  declareRequired: boolean;
  /** The gRPC binding's port, when the agent serves one. */
  grpcPort?: number;
  /** When the agent started: the card's Last-Modified. */
  startedAt: Date;
}

export function isCardPath(pathname: string): boolean {
  return pathname === CARD_PATH || pathname === LEGACY_CARD_PATH;
}

/** The card generation a request asks for; throws VersionNotSupported for any other version. */
export function cardGenerationOf(req: IncomingMessage, url: URL, cardDefault: CardGeneration): CardGeneration {
  if (url.pathname === LEGACY_CARD_PATH) return '0.3';
  const raw = req.headers['a2a-version'] ?? url.searchParams.get('A2A-Version') ?? undefined;
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (value === undefined || value === '') return cardDefault;
  if (value === '1.0' || value === '1') return '1.0';
  if (value === '0.3' || value === '0.3.0') return '0.3';
  throw new A2AError(
    A2A_VERSION_NOT_SUPPORTED,
    `A2A-Version ${value.slice(0, 40)} is not supported; this agent serves cards for 1.0 and 0.3`,
  );
}

/** True when the request's validators say the client already holds this body. */
function notModified(req: IncomingMessage, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    // RFC 9110 §13.1.2: weak comparison, `*` matches any current representation.
    return ifNoneMatch.split(',').some((tag) => {
      const t = tag.trim();
      return t === '*' || t.replace(/^W\//, '') === etag;
    });
  }
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

export function serveCard(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  host: string,
  options: CardRouteOptions,
): void {
  let generation: CardGeneration;
  try {
    generation = cardGenerationOf(req, url, options.cardDefault);
  } catch (err) {
    const text = JSON.stringify((err as A2AError).toRestJson(HITL_PROMPT_URI));
    res.writeHead(400, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(text),
      Vary: 'A2A-Version',
    });
    res.end(text);
    return;
  }
  const text = JSON.stringify(
    agentCard(host, { generation, declareRequired: options.declareRequired, grpcPort: options.grpcPort }),
  );
  const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 32)}"`;
  const headers = {
    'Cache-Control': `public, max-age=${CARD_MAX_AGE_S}`,
    ETag: etag,
    'Last-Modified': options.startedAt.toUTCString(),
    Vary: 'A2A-Version',
  };
  if (notModified(req, etag, options.startedAt)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(req.method === 'HEAD' ? undefined : text);
}
