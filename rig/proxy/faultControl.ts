// The engine's one way to inject network faults: proxies in front of upstreams and toxics on them,
// driven through toxiproxy-node-client against whichever backend was chosen. Which backend ran
// (kind, version, where) is kept so results can say what produced them. The server may be shared
// (other users, other runs): this object only ever changes or deletes the proxies it created.
import { randomBytes } from 'node:crypto';
import { Toxiproxy, type Proxy } from 'toxiproxy-node-client';
import { UserError } from '../protocol/userError.ts';
import {
  openFaultBackend,
  type BackendKind,
  type BackendOptions,
  type FaultBackend,
  type ToxiproxyChoice,
} from './backend.ts';

export type ToxicStream = 'upstream' | 'downstream';

/** Attributes per toxic type; times in ms except slicer's delay (µs), rates in KB/s. */
export interface ToxicAttributes {
  latency: { latency: number; jitter?: number };
  bandwidth: { rate: number };
  slow_close: { delay: number };
  timeout: { timeout: number };
  reset_peer: { timeout: number };
  slicer: { average_size: number; size_variation?: number; delay?: number };
  limit_data: { bytes: number };
}

export type ToxicKind = keyof ToxicAttributes;

export type ToxicSpec = {
  [K in ToxicKind]: {
    type: K;
    attributes: ToxicAttributes[K];
    /** Default `<type>_<stream>`. */
    name?: string;
    /** Default downstream (upstream → client-to-server bytes). */
    stream?: ToxicStream;
    /** Share of connections affected, decided per connection; default 1. */
    toxicity?: number;
  };
}[ToxicKind];

export interface AppliedToxic {
  name: string;
  type: string;
  stream: string;
  toxicity: number;
  attributes: Record<string, number>;
}

export interface FaultProxy {
  name: string;
  /** Where clients connect, with the real port once listening. */
  listen: string;
  upstream: string;
  enabled: boolean;
}

export interface BackendRecord {
  kind: BackendKind;
  version: string;
  url: string;
  detail: string;
  passedOver: readonly string[];
}

export class FaultControlError extends Error {
  override name = 'FaultControlError';
}

/** Toxiproxy answered 409: a proxy of that name (or on that listen address) already exists. */
export class ProxyExistsError extends FaultControlError {
  override name = 'ProxyExistsError';
}

/** How many fresh names createUniqueProxy tries after the first is taken. */
const RENAME_ATTEMPTS = 3;

async function attempt<T>(what: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (err) {
    const message = `${what}: ${(err as Error).message}`;
    // toxiproxy-node-client only says the status in its message.
    throw /status code 409\b/.test(message) ? new ProxyExistsError(message) : new FaultControlError(message);
  }
}

function asFaultProxy(proxy: Proxy): FaultProxy {
  return { name: proxy.name, listen: proxy.listen, upstream: proxy.upstream, enabled: proxy.enabled };
}

export class FaultControl {
  private readonly client: Toxiproxy;
  private readonly created = new Set<string>();
  private closing: Promise<void> | undefined;

  private constructor(private readonly backend: FaultBackend) {
    this.client = new Toxiproxy(backend.url);
  }

  static async open(choice: ToxiproxyChoice, options?: BackendOptions): Promise<FaultControl> {
    return new FaultControl(await openFaultBackend(choice, options));
  }

  /** Over an already-open backend (tests, or a caller sharing one). */
  static over(backend: FaultBackend): FaultControl {
    return new FaultControl(backend);
  }

  get record(): BackendRecord {
    const { kind, version, url, detail, passedOver } = this.backend;
    return { kind, version, url, detail, passedOver };
  }

  /** A proxy in front of `upstream` ("host:port"), listening on a free loopback port unless told. */
  async createProxy(name: string, upstream: string, listen = '127.0.0.1:0'): Promise<FaultProxy> {
    const proxy = await attempt(`create proxy ${name}`, () =>
      this.client.createProxy({ name, upstream, listen, enabled: true }),
    );
    this.created.add(name);
    return asFaultProxy(proxy);
  }

  /**
   * A proxy named `name`, or, when that name is taken (a killed run's leftover, another run that
   * picked the same id), `name-<random hex>`: a name collision never ends a run, and a proxy that
   * is not ours is never touched. Still taken after a few tries: one line saying what to do.
   */
  async createUniqueProxy(name: string, upstream: string): Promise<FaultProxy> {
    const taken: string[] = [];
    for (let i = 0; i <= RENAME_ATTEMPTS; i++) {
      const candidate = i === 0 ? name : `${name}-${randomBytes(3).toString('hex')}`;
      try {
        return await this.createProxy(candidate, upstream);
      } catch (err) {
        if (!(err instanceof ProxyExistsError)) throw err;
        taken.push(candidate);
      }
    }
    throw new UserError(
      `Toxiproxy at ${this.backend.url} refused every proxy name tried (${taken.join(', ')}): 409, already exists; ` +
        'delete stale a2a-rig-* proxies there or use --toxiproxy embedded',
    );
  }

  async addToxic(proxyName: string, spec: ToxicSpec): Promise<AppliedToxic> {
    const stream = spec.stream ?? 'downstream';
    const body = {
      name: spec.name ?? `${spec.type}_${stream}`,
      type: spec.type,
      stream,
      toxicity: spec.toxicity ?? 1,
      attributes: spec.attributes as Record<string, number>,
    };
    return attempt(`add ${spec.type} toxic to ${proxyName}`, async () => {
      const proxy = await this.client.get(proxyName);
      return (await proxy.addToxic<Record<string, number>>(body)).toJson();
    });
  }

  async updateToxic(
    proxyName: string,
    toxicName: string,
    change: { attributes?: Record<string, number>; toxicity?: number },
  ): Promise<AppliedToxic> {
    return attempt(`update toxic ${toxicName} on ${proxyName}`, async () => {
      const proxy = await this.client.get(proxyName);
      const toxic = await proxy.getToxic<Record<string, number>>(toxicName);
      const updated = await toxic.update({
        ...toxic.toJson(),
        attributes: { ...toxic.attributes, ...change.attributes },
        toxicity: change.toxicity ?? toxic.toxicity,
      });
      return updated.toJson();
    });
  }

  async removeToxic(proxyName: string, toxicName: string): Promise<void> {
    await attempt(`remove toxic ${toxicName} from ${proxyName}`, async () => {
      const proxy = await this.client.get(proxyName);
      await (await proxy.getToxic(toxicName)).remove();
    });
  }

  /** false refuses new connections and cuts open ones; true listens again on the same address. */
  async setEnabled(proxyName: string, enabled: boolean): Promise<FaultProxy> {
    return attempt(`${enabled ? 'enable' : 'disable'} proxy ${proxyName}`, async () => {
      const proxy = await this.client.get(proxyName);
      return asFaultProxy(await proxy.update({ enabled, listen: proxy.listen, upstream: proxy.upstream }));
    });
  }

  async getProxy(proxyName: string): Promise<FaultProxy & { toxics: AppliedToxic[] }> {
    return attempt(`get proxy ${proxyName}`, async () => {
      const { data } = await this.client
        .getApi()
        .get<FaultProxy & { toxics: AppliedToxic[] }>(`${this.backend.url}/proxies/${encodeURIComponent(proxyName)}`);
      return data;
    });
  }

  /**
   * Every proxy this object created back to clean: its toxics removed, enabled. Never Toxiproxy's
   * POST /reset, which does that to every proxy on the server, other users' included.
   */
  async reset(): Promise<void> {
    for (const name of this.created) await this.resetProxy(name);
  }

  /** One proxy's toxics removed and the proxy enabled (listening again on its address). */
  async resetProxy(proxyName: string): Promise<void> {
    const proxy = await this.getProxy(proxyName);
    for (const toxic of proxy.toxics) await this.removeToxic(proxyName, toxic.name);
    if (!proxy.enabled) await this.setEnabled(proxyName, true);
  }

  async deleteProxy(proxyName: string): Promise<void> {
    await attempt(`delete proxy ${proxyName}`, async () => (await this.client.get(proxyName)).remove());
    this.created.delete(proxyName);
  }

  /**
   * Deletes the proxies this object created (a shared server is left as found), then stops the
   * backend. Safe to call more than once, also while a first call is still under way (an interrupt
   * during the normal close): every call waits for the one cleanup.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        for (const name of [...this.created]) await this.deleteProxy(name).catch(() => {});
      } finally {
        await this.backend.close();
      }
    })();
    return this.closing;
  }
}
