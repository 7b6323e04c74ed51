// Every proxy of one embedded server, by name (Go's ProxyCollection): guards name uniqueness and
// implements create, populate (create-or-replace in bulk), delete and the reset of all of them.
import { asApiError, ApiError, ErrMissingField, ErrProxyAlreadyExists, ErrProxyNotFound } from './apiError.ts';
import { AsyncMutex } from './asyncMutex.ts';
import { decodeStruct } from './goJsonDecoding.ts';
import { ProxyAlreadyStartedError, ProxyListener } from './proxyListener.ts';

const PROXY_FIELDS = { name: 'string', listen: 'string', upstream: 'string', enabled: 'bool' } as const;
const POPULATE_ELEMENT = 'struct { toxiproxy.Proxy; Enabled *bool "json:\\"enabled\\"" }';

export interface PopulateResult {
  proxies: ProxyListener[];
  error?: ApiError;
}

export class ProxyCollection {
  private readonly proxies = new Map<string, ProxyListener>();
  private readonly mutex = new AsyncMutex();

  /** POST /proxies. Enabled unless the body says otherwise. */
  create(body: unknown): Promise<ProxyListener> {
    const input = decodeStruct(body, PROXY_FIELDS, 'toxiproxy.Proxy', 'Proxy', {
      name: '',
      listen: '',
      upstream: '',
      enabled: true,
    });
    if (input.name.length < 1) throw ErrMissingField.withDetail('name');
    if (input.upstream.length < 1) throw ErrMissingField.withDetail('upstream');
    return this.mutex.run(async () => {
      if (this.proxies.has(input.name)) throw ErrProxyAlreadyExists;
      const proxy = new ProxyListener(input.name, input.listen, input.upstream);
      if (input.enabled) await proxy.start();
      this.proxies.set(proxy.name, proxy);
      return proxy;
    });
  }

  /**
   * POST /populate: validates every entry first, then adds each, keeping an existing proxy whose
   * listen and upstream match and replacing one that differs. Stops at the first failure and
   * reports what was done so far with it, as Go does.
   */
  async populate(body: unknown): Promise<PopulateResult> {
    if (!Array.isArray(body)) {
      const kind = body === null ? 'null' : typeof body === 'object' ? 'object' : typeof body;
      if (body !== null)
        throw new ApiError(
          `bad request body: json: cannot unmarshal ${kind} into Go value of type []${POPULATE_ELEMENT}`,
          400,
        );
      return { proxies: [] };
    }
    const inputs = body.map((element) =>
      decodeStruct(element, PROXY_FIELDS, POPULATE_ELEMENT, '', { name: '', listen: '', upstream: '', enabled: true }),
    );
    inputs.forEach((input, i) => {
      if (input.name.length < 1) throw ErrMissingField.withDetail(`name at proxy ${i + 1}`);
      if (input.upstream.length < 1) throw ErrMissingField.withDetail(`upstream at proxy ${i + 1}`);
    });
    const proxies: ProxyListener[] = [];
    for (const input of inputs) {
      try {
        proxies.push(
          await this.addOrReplace(new ProxyListener(input.name, input.listen, input.upstream), input.enabled),
        );
      } catch (err) {
        return { proxies, error: asApiError(err) };
      }
    }
    return { proxies };
  }

  get(name: string): ProxyListener {
    const proxy = this.proxies.get(name);
    if (!proxy) throw ErrProxyNotFound;
    return proxy;
  }

  /** By name, in Go's map-marshalling order (sorted keys). */
  all(): ProxyListener[] {
    return [...this.proxies.keys()].sort().map((name) => this.proxies.get(name)!);
  }

  remove(name: string): Promise<void> {
    return this.mutex.run(async () => {
      const proxy = this.get(name);
      await proxy.stop();
      this.proxies.delete(name);
    });
  }

  /** POST /reset: every proxy enabled again and stripped of its toxics. */
  async reset(): Promise<void> {
    for (const proxy of this.all()) {
      try {
        await proxy.start();
      } catch (err) {
        if (!(err instanceof ProxyAlreadyStartedError)) throw err;
      }
      await proxy.toxics.reset();
    }
  }

  /** Stops and forgets every proxy (server shutdown). */
  clear(): Promise<void> {
    return this.mutex.run(async () => {
      await Promise.all([...this.proxies.values()].map((p) => p.stop()));
      this.proxies.clear();
    });
  }

  private addOrReplace(proxy: ProxyListener, start: boolean): Promise<ProxyListener> {
    return this.mutex.run(async () => {
      const existing = this.proxies.get(proxy.name);
      if (existing) {
        if (!(await existing.differs(proxy))) return existing;
        await existing.stop();
      }
      if (start) await proxy.start();
      this.proxies.set(proxy.name, proxy);
      return proxy;
    });
  }
}
