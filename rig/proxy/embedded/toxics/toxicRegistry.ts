// The toxic types the API accepts, by the name clients send. "noop" is registered in Go too.
import { bandwidthToxic } from './bandwidth.ts';
import { latencyToxic } from './latency.ts';
import { limitDataToxic } from './limitData.ts';
import { noopToxic } from './noop.ts';
import { resetPeerToxic } from './resetPeer.ts';
import { slicerToxic } from './slicer.ts';
import { slowCloseToxic } from './slowClose.ts';
import { timeoutToxic } from './timeout.ts';
import type { ToxicType } from '../toxicStub.ts';

const registry = new Map<string, ToxicType>(
  [
    noopToxic,
    latencyToxic,
    bandwidthToxic,
    slowCloseToxic,
    timeoutToxic,
    resetPeerToxic,
    slicerToxic,
    limitDataToxic,
  ].map((toxic) => [toxic.type, toxic as unknown as ToxicType]),
);

export function toxicTypeNamed(name: string): ToxicType | undefined {
  return registry.get(name);
}
