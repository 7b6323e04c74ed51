// The tiny interface every toxic implements, after Toxiproxy's Go `Toxic`: a toxic owns nothing
// per connection; it transforms the stream of chunks flowing through one ToxicStub, and whatever it
// must remember per connection lives in the stub's state.
import type { ToxicStub } from '../toxicStub.ts';

/** Go's integer kinds, named as they appear in Toxiproxy's decode errors. */
export type AttributeKind = 'int64' | 'int';

export type Direction = 'upstream' | 'downstream';

export interface ToxicType<A extends Record<string, number> = Record<string, number>> {
  /** The registry name clients send as `type`. */
  readonly type: string;
  /** The Go struct name, for decode errors that read like the real server's. */
  readonly goStruct: string;
  /** Attribute names in the order the real server serialises them, all defaulting to 0. */
  readonly attributes: { readonly [K in keyof A]: AttributeKind };
  /** Capacity of the channel feeding this toxic (Go's BufferedToxic); 0 means unbuffered. */
  readonly bufferSize?: number;
  /** reset_peer: a link starting with it in its chain sets SO_LINGER 0 on both sockets. */
  readonly resetsPeer?: boolean;
  /** Per-connection state that survives attribute updates (limit_data's byte count). */
  newState?(): unknown;
  /** Runs until the input closes, the stub is closed, or it is interrupted. */
  pipe(stub: ToxicStub, attributes: A): Promise<void>;
  /** Called before the toxic is removed from a live link (timeout closes the stub). */
  cleanup?(stub: ToxicStub): void;
}

/** A toxic as configured on a proxy: one of these per name, shared by every link of its direction. */
export interface ToxicWrapper {
  name: string;
  type: ToxicType;
  /** As the client spelled it: the real server echoes "UPSTREAM" back unchanged. */
  stream: string;
  direction: Direction;
  /** Stored as float32, as Go does. */
  toxicity: number;
  attributes: Record<string, number>;
}
