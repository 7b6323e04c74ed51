// Toxiproxy's HTTP API over a ProxyCollection: the routes of api.go with its status codes, body
// shapes and quirks (toxic creation answers 200, errors are text/plain JSON with a newline,
// browsers are refused), so any Toxiproxy client can drive the embedded proxy unchanged.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ApiError, asApiError, ErrToxicNotFound } from './apiError.ts';
import { decodeStruct, parseBody } from './goJsonDecoding.ts';
import { ProxyCollection } from './proxyCollection.ts';
import { toxicJson } from './toxicCollection.ts';

/**
 * The version /version answers, exactly as the Go server's: clients parse it (the Ruby client's
 * parser refuses "2.12.0+anything" and then falls back to POST for PATCH).
 */
export const EMBEDDED_TOXIPROXY_VERSION = '2.12.0';

/** Says on every reply that this is not the Go server (which sends no Server header at all). */
export const EMBEDDED_SERVER_HEADER = 'a2a-rig embedded Toxiproxy';

const MAX_BODY_BYTES = 8 * 1024 * 1024;

interface Reply {
  status: number;
  body?: unknown;
}

type Handler = (params: string[], body: () => Promise<unknown>) => Promise<Reply>;

interface Route {
  pattern: RegExp;
  methods: Record<string, Handler>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    request.on('data', (part: Buffer) => {
      size += part.length;
      if (size > MAX_BODY_BYTES) {
        reject(new ApiError('bad request body: http: request body too large', 400));
        request.destroy();
        return;
      }
      parts.push(part);
    });
    request.once('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.once('error', reject);
  });
}

const ok = (body: unknown): Reply => ({ status: 200, body });

function routesOver(collection: ProxyCollection): Route[] {
  return [
    {
      pattern: /^\/reset$/,
      methods: {
        POST: async () => (await collection.reset(), { status: 204 }),
      },
    },
    ...proxyRoutes(collection),
    ...toxicRoutes(collection),
    {
      pattern: /^\/version$/,
      methods: {
        GET: async () => ({ status: 200, body: VERSION_BODY }),
      },
    },
  ];
}

/** /proxies, /populate and /proxies/{name}. */
function proxyRoutes(collection: ProxyCollection): Route[] {
  return [
    {
      pattern: /^\/proxies$/,
      methods: {
        GET: async () => ok(Object.fromEntries(collection.all().map((p) => [p.name, p.toJSON()]))),
        POST: async (_, body) => ({ status: 201, body: (await collection.create(await body())).toJSON() }),
      },
    },
    {
      pattern: /^\/populate$/,
      methods: {
        POST: async (_, body) => populate(collection, body),
      },
    },
    {
      pattern: /^\/proxies\/([^/]+)$/,
      methods: {
        GET: async ([name]) => ok(collection.get(name!).toJSON()),
        POST: async (params, body) => updateProxy(collection, params, body),
        PATCH: async (params, body) => updateProxy(collection, params, body),
        DELETE: async ([name]) => (await collection.remove(name!), { status: 204 }),
      },
    },
  ];
}

/** /proxies/{name}/toxics and /proxies/{name}/toxics/{toxic}. */
function toxicRoutes(collection: ProxyCollection): Route[] {
  return [
    {
      pattern: /^\/proxies\/([^/]+)\/toxics$/,
      methods: {
        GET: async ([name]) => ok(collection.get(name!).toxics.list().map(toxicJson)),
        POST: async ([name], body) => {
          const proxy = collection.get(name!);
          return ok(toxicJson(await proxy.toxics.add(await body())));
        },
      },
    },
    {
      pattern: /^\/proxies\/([^/]+)\/toxics\/([^/]+)$/,
      methods: {
        GET: async ([name, toxic]) => {
          const found = collection.get(name!).toxics.find(toxic!);
          if (!found) throw ErrToxicNotFound;
          return ok(toxicJson(found));
        },
        POST: async (params, body) => updateToxic(collection, params, body),
        PATCH: async (params, body) => updateToxic(collection, params, body),
        DELETE: async ([name, toxic]) => (await collection.get(name!).toxics.remove(toxic!), { status: 204 }),
      },
    },
  ];
}

async function populate(collection: ProxyCollection, body: () => Promise<unknown>): Promise<Reply> {
  // Errors here still carry the proxies list, and as application/json, unlike other errors.
  let result;
  try {
    result = await collection.populate(await body());
  } catch (err) {
    const error = asApiError(err);
    return { status: error.status, body: { ...error.toJSON(), proxies: null } };
  }
  const proxies = result.proxies.length > 0 ? result.proxies.map((p) => p.toJSON()) : null;
  if (result.error) return { status: result.error.status, body: { ...result.error.toJSON(), proxies } };
  return { status: 201, body: { proxies } };
}

async function updateProxy(
  collection: ProxyCollection,
  [name]: string[],
  body: () => Promise<unknown>,
): Promise<Reply> {
  const proxy = collection.get(name!);
  const input = decodeStruct(
    await body(),
    { name: 'string', listen: 'string', upstream: 'string', enabled: 'bool' },
    'toxiproxy.Proxy',
    'Proxy',
    {
      name: proxy.name,
      listen: proxy.listen,
      upstream: proxy.upstream,
      enabled: proxy.enabled,
    },
  );
  await proxy.update(input);
  return ok(proxy.toJSON());
}

async function updateToxic(
  collection: ProxyCollection,
  [name, toxic]: string[],
  body: () => Promise<unknown>,
): Promise<Reply> {
  const proxy = collection.get(name!);
  return ok(toxicJson(await proxy.toxics.update(toxic!, await body())));
}

const VERSION_BODY = Symbol('version');

function write(
  response: ServerResponse,
  status: number,
  contentType: string,
  text: string,
  extra: Record<string, string> = {},
): void {
  response
    .writeHead(status, { 'Content-Type': contentType, ...extra, 'Content-Length': String(Buffer.byteLength(text)) })
    .end(text);
}

function send(response: ServerResponse, reply: Reply): void {
  if (reply.body === undefined) {
    response.writeHead(reply.status).end();
  } else if (reply.body === VERSION_BODY) {
    write(response, 200, 'application/json;charset=utf-8', `{"version": "${EMBEDDED_TOXIPROXY_VERSION}"}\n`);
  } else {
    write(response, reply.status, 'application/json', JSON.stringify(reply.body));
  }
}

/** Go's http.Error: text/plain, nosniff, and a trailing newline. */
function sendError(response: ServerResponse, status: number, text: string): void {
  write(response, status, 'text/plain; charset=utf-8', `${text}\n`, { 'X-Content-Type-Options': 'nosniff' });
}

export function createApiServer(collection: ProxyCollection): Server {
  const routes = routesOver(collection);
  return createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
    response.setHeader('Server', EMBEDDED_SERVER_HEADER);
    void (async () => {
      if ((request.headers['user-agent'] ?? '').startsWith('Mozilla/'))
        return sendError(response, 403, 'User agent not allowed');
      const path = new URL(request.url ?? '/', 'http://toxiproxy').pathname;
      const route = routes.find((r) => r.pattern.test(path));
      if (!route) return sendError(response, 404, '404 page not found');
      const handler = route.methods[request.method ?? ''];
      if (!handler) return response.writeHead(405, { 'Content-Length': '0' }).end();
      const params = route.pattern
        .exec(path)!
        .slice(1)
        .map((p) => decodeURIComponent(p));
      try {
        send(response, await handler(params, async () => parseBody(await readBody(request))));
      } catch (err) {
        const error = asApiError(err);
        sendError(response, error.status, JSON.stringify(error.toJSON()));
      }
    })().catch(() => response.destroy());
  });
}
