// One direction of one proxied connection (Go's ToxicLink): a reader feeding the head of a chain
// of ToxicStubs, one per toxic of that direction (behind a hidden noop), and a writer draining the
// tail into the destination socket. Toxics can be added, updated and removed while data flows.
// A link that starts with no toxics writes straight through (the common case under load, and
// what keeps the proxy's own latency tail short) until its first toxic arrives.
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { ChunkChannel, LinkFlow } from './chunkChannel.ts';
import { closeAfterWrites, setLingerZero } from './socketClosing.ts';
import { ToxicStub, type Direction, type ToxicWrapper } from './toxicStub.ts';

export class ToxicLink {
  private readonly stubs: ToxicStub[] = [];
  private readonly flow: LinkFlow;
  private readonly input: ChunkChannel;
  private readonly output: ChunkChannel;
  private readerDone = false;
  private writerDone = false;
  /** No toxic yet: chunks go straight from source to dest, with the same backpressure and close. */
  private direct: boolean;

  constructor(
    readonly direction: Direction,
    private readonly chain: readonly ToxicWrapper[],
    private readonly source: Socket,
    private readonly dest: Socket,
    private readonly onWriterDone: (link: ToxicLink) => void,
  ) {
    this.flow = new LinkFlow(() => {
      if (!this.source.destroyed && this.source.isPaused()) this.source.resume();
    });
    this.input = new ChunkChannel(this.flow, 0);
    let last = this.input;
    for (let i = 0; i < chain.length; i++) {
      const next =
        i + 1 < chain.length
          ? new ChunkChannel(this.flow, chain[i + 1]!.type.bufferSize ?? 0)
          : new ChunkChannel(this.flow, 0);
      this.stubs.push(new ToxicStub(last, next));
      last = next;
    }
    this.output = last;
    this.direct = chain.length === 1;
  }

  start(): void {
    this.startReader();
    if (!this.direct) this.startChain();
  }

  private startChain(): void {
    this.chain.forEach((wrapper, i) => {
      const stub = this.stubs[i]!;
      if (wrapper.type.newState) stub.state = wrapper.type.newState();
      if (wrapper.type.resetsPeer) {
        // Set at link start only, whatever the toxicity roll: as in Go, reset_peer added to a live
        // connection closes it with a FIN, and one present at connect makes every close an RST.
        setLingerZero(this.source);
        setLingerZero(this.dest);
      }
      stub.run(wrapper);
    });
    void this.runWriter();
  }

  async addToxic(wrapper: ToxicWrapper): Promise<void> {
    if (this.writerDone) return;
    if (this.direct) {
      // Everything read so far is already in dest's buffer, so the chain continues in order.
      this.direct = false;
      this.startChain();
    }
    const last = this.stubs[this.stubs.length - 1]!;
    const newInput = new ChunkChannel(this.flow, wrapper.type.bufferSize ?? 0);
    const stub = new ToxicStub(newInput, last.output);
    stub.wrapper = wrapper;
    this.stubs.push(stub);
    if (await last.interrupt()) {
      last.output = newInput;
      if (wrapper.type.newState) stub.state = wrapper.type.newState();
      stub.run(wrapper);
      last.run(last.wrapper!);
    } else {
      // The link already closed; keep the chain's shape with a closed stage, as Go does.
      stub.output = newInput;
      stub.close();
    }
  }

  async updateToxic(wrapper: ToxicWrapper): Promise<void> {
    const stub = this.stubs.find((s, i) => i > 0 && s.wrapper === wrapper);
    if (stub && (await stub.interrupt())) stub.run(wrapper);
  }

  async removeToxic(wrapper: ToxicWrapper): Promise<void> {
    const index = this.stubs.findIndex((s, i) => i > 0 && s.wrapper === wrapper);
    if (index < 1) return;
    const stub = this.stubs[index]!;
    if (!(await stub.interrupt())) return;
    if (wrapper.type.cleanup) {
      wrapper.type.cleanup(stub);
      if (stub.closed) return;
    }
    const previous = this.stubs[index - 1]!;
    await previous.interrupt();
    // Pass on whatever reached the removed stage; never drop data on the floor.
    for (;;) {
      const chunk = stub.input.tryTake();
      if (chunk === undefined) break;
      if (chunk === null) return stub.close();
      stub.output.push(chunk);
    }
    previous.output = stub.output;
    this.stubs.splice(index, 1);
    stub.input.discard();
    previous.run(previous.wrapper!);
  }

  private startReader(): void {
    const source = this.source;
    const dest = this.dest;
    const resume = () => {
      if (!source.destroyed) source.resume();
    };
    source.on('data', (data: Buffer) => {
      if (this.direct) {
        if (dest.destroyed || dest.writableEnded) return;
        if (!dest.write(data)) {
          source.pause();
          dest.once('drain', resume);
        }
        return;
      }
      this.input.push({ data, timestamp: performance.now() });
      if (this.flow.blocked) source.pause();
    });
    const end = () => {
      if (this.readerDone) return;
      this.readerDone = true;
      if (this.direct) {
        this.direct = false;
        this.finishWriting();
      } else {
        this.input.close();
      }
      this.disposeIfDone();
    };
    source.once('end', end);
    source.once('close', end);
    source.resume();
  }

  private async runWriter(): Promise<void> {
    const dest = this.dest;
    for (;;) {
      const chunk = this.output.tryTake();
      if (chunk === undefined) {
        await new Promise<void>((resolve) => this.output.onReadable(resolve));
        continue;
      }
      if (chunk === null) break;
      // A failed write ends Go's io.Copy too; the rest of the stream has nowhere to go.
      if (dest.destroyed || dest.writableEnded) break;
      if (!dest.write(chunk.data)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            dest.off('drain', done);
            dest.off('close', done);
            resolve();
          };
          dest.on('drain', done);
          dest.on('close', done);
        });
      }
    }
    this.finishWriting();
  }

  private finishWriting(): void {
    closeAfterWrites(this.dest);
    this.writerDone = true;
    this.output.discard();
    this.onWriterDone(this);
    this.disposeIfDone();
  }

  /** Both ends finished: stop every stage so no timer outlives the connection. */
  private disposeIfDone(): void {
    if (!this.readerDone || !this.writerDone) return;
    for (const stub of this.stubs) {
      stub.dispose();
      stub.input.discard();
    }
  }
}
