// The toxics of one proxy (Go's ToxicCollection): an ordered chain per direction, shared by every
// live link of that direction, and the JSON operations the API exposes on them.
import type { Socket } from 'node:net';
import {
  ErrBadRequestBody,
  ErrInvalidStream,
  ErrInvalidToxicType,
  ErrToxicAlreadyExists,
  ErrToxicNotFound,
} from './apiError.ts';
import { AsyncMutex } from './asyncMutex.ts';
import { decodeStruct, float32Json } from './goJsonDecoding.ts';
import { ToxicLink } from './toxicLink.ts';
import { noopToxic } from './toxics/noop.ts';
import { toxicTypeNamed } from './toxics/toxicRegistry.ts';
import type { Direction, ToxicWrapper } from './toxicStub.ts';

export interface ToxicJson {
  attributes: Record<string, number>;
  name: string;
  type: string;
  stream: string;
  toxicity: number;
}

const DIRECTIONS: readonly Direction[] = ['upstream', 'downstream'];

function hiddenNoop(direction: Direction): ToxicWrapper {
  return { name: '', type: noopToxic, stream: direction, direction, toxicity: 1, attributes: {} };
}

function parseDirection(stream: string): Direction | undefined {
  const lower = stream.toLowerCase();
  return lower === 'upstream' || lower === 'downstream' ? lower : undefined;
}

/** The attributes key of an object body, found the way Go matches keys (case-insensitively). */
function attributesOf(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const entries = Object.entries(body as Record<string, unknown>);
  return (entries.find(([k]) => k === 'attributes') ?? entries.find(([k]) => k.toLowerCase() === 'attributes'))?.[1];
}

export function toxicJson(wrapper: ToxicWrapper): ToxicJson {
  const attributes: Record<string, number> = {};
  for (const name of Object.keys(wrapper.type.attributes)) attributes[name] = wrapper.attributes[name] ?? 0;
  return {
    attributes,
    name: wrapper.name,
    type: wrapper.type.type,
    stream: wrapper.stream,
    toxicity: float32Json(wrapper.toxicity),
  };
}

export class ToxicCollection {
  private readonly chains: Record<Direction, ToxicWrapper[]> = {
    upstream: [hiddenNoop('upstream')],
    downstream: [hiddenNoop('downstream')],
  };
  private readonly links = new Set<ToxicLink>();
  private readonly mutex = new AsyncMutex();

  /** Starts one direction of a new connection with the toxics configured right now. */
  startLink(direction: Direction, source: Socket, dest: Socket): void {
    const link = new ToxicLink(direction, [...this.chains[direction]], source, dest, (done) => this.links.delete(done));
    this.links.add(link);
    link.start();
  }

  /** Upstream toxics first, then downstream, each in the order added. */
  list(): ToxicWrapper[] {
    return DIRECTIONS.flatMap((d) => this.chains[d].slice(1));
  }

  find(name: string): ToxicWrapper | undefined {
    return this.list().find((t) => t.name === name);
  }

  add(body: unknown): Promise<ToxicWrapper> {
    return this.mutex.run(async () => {
      // Same order of checks as Go's AddToxicJson, so a body wrong in two ways fails the same way.
      const head = decodeStruct(
        body,
        { name: 'string', type: 'string', stream: 'string', toxicity: 'float32' },
        'toxics.ToxicWrapper',
        'ToxicWrapper',
        { name: '', type: '', stream: 'downstream', toxicity: 1 } as {
          name: string;
          type: string;
          stream: string;
          toxicity: number;
        },
      );
      const attributesBody = attributesOf(body);
      if (
        attributesBody !== undefined &&
        attributesBody !== null &&
        (typeof attributesBody !== 'object' || Array.isArray(attributesBody))
      ) {
        throw ErrBadRequestBody.withDetail(
          `json: cannot unmarshal ${Array.isArray(attributesBody) ? 'array' : typeof attributesBody} ` +
            'into Go struct field ToxicWrapper.attributes of type toxics.NoopToxic',
        );
      }
      const direction = parseDirection(head.stream);
      if (!direction) throw ErrInvalidStream;
      const name = head.name || `${head.type}_${head.stream}`;
      const type = toxicTypeNamed(head.type);
      if (!type) throw ErrInvalidToxicType;
      if (this.find(name)) throw ErrToxicAlreadyExists;
      const defaults = Object.fromEntries(Object.keys(type.attributes).map((k) => [k, 0]));
      const attributes = decodeStruct(
        attributesBody ?? null,
        type.attributes,
        `toxics.${type.goStruct}`,
        `${type.goStruct}.attributes`,
        defaults,
      ) as Record<string, number>;
      const wrapper: ToxicWrapper = { name, type, stream: head.stream, direction, toxicity: head.toxicity, attributes };
      this.chains[direction].push(wrapper);
      const links = [...this.links].filter((l) => l.direction === direction);
      await Promise.all(links.map((l) => l.addToxic(wrapper)));
      return wrapper;
    });
  }

  /** PATCH: attributes merge into the current ones; toxicity changes only if given. */
  update(name: string, body: unknown): Promise<ToxicWrapper> {
    return this.mutex.run(async () => {
      const wrapper = this.find(name);
      if (!wrapper) throw ErrToxicNotFound;
      const head = decodeStruct(
        body,
        { toxicity: 'float32' },
        'struct { Attributes interface {} "json:\\"attributes\\""; Toxicity float32 "json:\\"toxicity\\"" }',
        '',
        { toxicity: wrapper.toxicity },
      );
      const attributes = decodeStruct(
        attributesOf(body) ?? null,
        wrapper.type.attributes,
        `toxics.${wrapper.type.goStruct}`,
        `${wrapper.type.goStruct}.attributes`,
        { ...wrapper.attributes },
      );
      Object.assign(wrapper.attributes, attributes);
      wrapper.toxicity = head.toxicity;
      const links = [...this.links].filter((l) => l.direction === wrapper.direction);
      await Promise.all(links.map((l) => l.updateToxic(wrapper)));
      return wrapper;
    });
  }

  remove(name: string): Promise<void> {
    return this.mutex.run(async () => {
      const wrapper = this.find(name);
      if (!wrapper) throw ErrToxicNotFound;
      await this.removeWrapper(wrapper);
    });
  }

  /** Removes every toxic (POST /reset); timeout toxics cut the connections they hold, as in Go. */
  reset(): Promise<void> {
    return this.mutex.run(async () => {
      for (const wrapper of this.list()) await this.removeWrapper(wrapper);
    });
  }

  private async removeWrapper(wrapper: ToxicWrapper): Promise<void> {
    const chain = this.chains[wrapper.direction];
    chain.splice(chain.indexOf(wrapper), 1);
    const links = [...this.links].filter((l) => l.direction === wrapper.direction);
    await Promise.all(links.map((l) => l.removeToxic(wrapper)));
  }
}
