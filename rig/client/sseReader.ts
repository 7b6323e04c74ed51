// Server-sent events from an HTTP body, parsed with eventsource-parser and bounded in bytes: an
// agent that streams forever, or sends one endless line, is cut off at `maxBytes` with a clear
// error. Time bounds belong to whoever owns the body (an abort makes the iteration throw).
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ByteTally } from './byteTally.ts';
import { TransportError } from './transportError.ts';

export interface SseEvent {
  /** The `id:` field, if the agent sent one. */
  id: string | undefined;
  /** The `event:` field, if any (A2A streams use the default type). */
  event: string | undefined;
  data: string;
}

export interface SseReadOptions {
  /** Bytes the whole stream may carry, comments and heartbeats included. */
  maxBytes: number;
  /** Characters one event (or one unterminated line) may buffer. */
  maxEventChars: number;
  /** Names the stream in error messages, e.g. "SSE stream of SendStreamingMessage from http://…". */
  describe: string;
  /** Told every byte of the body as it is read. */
  tally?: ByteTally;
}

/** Yields each event as soon as its terminating blank line has arrived. */
export async function* readSseEvents(
  body: AsyncIterable<Uint8Array>,
  options: SseReadOptions,
): AsyncGenerator<SseEvent> {
  const ready: SseEvent[] = [];
  let oversized = false;
  const parser = createParser({
    maxBufferSize: options.maxEventChars,
    onEvent: (message: EventSourceMessage) => ready.push({ id: message.id, event: message.event, data: message.data }),
    // Unknown fields and bad `retry:` values are ignored, as the SSE standard says; only the
    // buffer bound is fatal.
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') oversized = true;
    },
  });
  const decoder = new TextDecoder('utf-8');
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.byteLength;
    if (options.tally) options.tally.received += chunk.byteLength;
    if (bytes > options.maxBytes) {
      throw new TransportError(
        'too-large',
        `${options.describe} exceeded ${options.maxBytes} bytes; the rig cut it off`,
      );
    }
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (oversized) {
      throw new TransportError(
        'too-large',
        `${options.describe} sent one event longer than ${options.maxEventChars} characters; the rig cut it off`,
      );
    }
    while (ready.length > 0) yield ready.shift()!;
  }
  parser.feed(decoder.decode());
  // A final event without its blank line is dropped, as EventSource does.
  while (ready.length > 0) yield ready.shift()!;
}
