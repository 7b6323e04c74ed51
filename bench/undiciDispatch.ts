// The bench's peer for the rig's own HTTP/1.1 client (rig/client/http1Connection.ts): the same
// JSON-RPC exchanges over undici's Pool with `dispatch` and a handler (no Readable body, no
// request()), doing the work the rig's transport does per exchange: a fresh JSON-RPC id in a body
// built per request, the caller's signal honoured, the reply read under a byte bound and held to
// the JSON-RPC shape and id (rpcReply.ts). bench/generator.ts measures its CPU per request against
// the transport's at the same rates, so the row says which HTTP client the rig should keep.
import { Pool, type Dispatcher } from 'undici';
import { readRpcResponse } from '../rig/client/rpcReply.ts';
import type { Iteration } from '../rig/load/openModelExecutor.ts';

const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** One exchange's handler: collects the body under the bound, then checks the JSON-RPC reply. */
class Exchange implements Dispatcher.DispatchHandler {
  private chunks: Buffer[] = [];
  private size = 0;
  private status = 0;
  private controller: Dispatcher.DispatchController | undefined;
  private readonly onAbort = () => this.controller?.abort(new Error('aborted by the caller'));

  constructor(
    private readonly id: number,
    private readonly signal: AbortSignal,
    private readonly resolve: () => void,
    private readonly reject: (err: Error) => void,
  ) {
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal.aborted) controller.abort(new Error('aborted by the caller'));
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number): void {
    this.status = statusCode;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > MAX_RESPONSE_BYTES) controller.abort(new Error('response too large'));
    else this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.signal.removeEventListener('abort', this.onAbort);
    const text = (this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks)).toString('utf8');
    try {
      const reply = readRpcResponse(text, this.id, 'undici dispatch', this.status);
      if (reply.ok) this.resolve();
      else this.reject(new Error(`JSON-RPC error ${reply.error.code}`));
    } catch (err) {
      this.reject(err as Error);
    }
  }

  onResponseError(controller: Dispatcher.DispatchController, err: Error): void {
    this.signal.removeEventListener('abort', this.onAbort);
    this.reject(err);
  }
}

/**
 * An open-model iteration sending iteration i's body (`paramsJson[i mod n]` with its method) over an
 * undici Pool of `connections` to `url`, with the A2A headers of the rig's calls. `close` ends the pool.
 */
export function undiciDispatchIteration(
  url: string,
  connections: number,
  calls: readonly { method: string; paramsJson: string }[],
  headers: Record<string, string>,
): { iteration: Iteration; close: () => Promise<void> } {
  const u = new URL(url);
  const pool = new Pool(u.origin, { connections, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const allHeaders = { ...headers, accept: 'application/json', 'content-type': 'application/json' };
  let nextId = 1;
  const iteration: Iteration = ({ index, signal }) =>
    new Promise<void>((resolve, reject) => {
      const id = nextId++;
      const call = calls[index % calls.length];
      const body = `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(call.method)},"params":${call.paramsJson}}`;
      pool.dispatch(
        { origin: u.origin, path: u.pathname, method: 'POST', headers: allHeaders, body },
        new Exchange(id, signal, resolve, reject),
      );
    });
  return { iteration, close: () => pool.close() };
}
