// The time bounds of one HTTP exchange, on native timers: overall, until headers, and silence
// between body chunks. undici has headers and body timeouts of its own, but they run on its coarse
// "fast timers" (about 1 s resolution), so a 300 ms bound could fire at 1.3 s; these fire on time,
// and say which bound cut the exchange so the error can name it. undici's stay as a backstop.

export type CutBy = 'deadline' | 'headers' | 'idle';

export class ExchangeBounds {
  readonly signal: AbortSignal;
  private readonly cutter = new AbortController();
  private cut: CutBy | undefined;
  private readonly overall: NodeJS.Timeout;
  private headersTimer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private idleMs = 0;

  constructor(
    readonly overallMs: number,
    private readonly caller: AbortSignal | undefined,
    private readonly closing: AbortSignal,
  ) {
    this.overall = setTimeout(() => this.cutWith('deadline'), overallMs);
    this.signal = AbortSignal.any([this.cutter.signal, closing, ...(caller ? [caller] : [])]);
  }

  private cutWith(why: CutBy): void {
    if (this.cutter.signal.aborted) return;
    this.cut = why;
    this.cutter.abort(new Error(`exchange cut by its ${why} bound`));
  }

  /** Starts the bound on time to response headers. */
  awaitHeaders(ms: number): void {
    this.headersTimer = setTimeout(() => this.cutWith('headers'), ms);
  }

  /** Headers arrived: stops the headers bound and starts the body silence bound. */
  headersArrived(idleMs: number): void {
    clearTimeout(this.headersTimer);
    this.idleMs = idleMs;
    this.touch();
  }

  /** A body chunk arrived: the silence bound starts over. */
  touch(): void {
    if (this.idleTimer) this.idleTimer.refresh();
    else this.idleTimer = setTimeout(() => this.cutWith('idle'), this.idleMs);
  }

  /** Passes a body through, restarting the silence bound on each chunk. */
  async *watch<T>(body: AsyncIterable<T>): AsyncGenerator<T> {
    for await (const chunk of body) {
      this.touch();
      yield chunk;
    }
  }

  /** Which of this exchange's bounds cut it, if one did. */
  get cutBy(): CutBy | undefined {
    return this.cut;
  }

  /** The caller's signal or the transport's close aborted the exchange. */
  get callerAborted(): boolean {
    return Boolean(this.caller?.aborted) || this.closing.aborted;
  }

  dispose(): void {
    clearTimeout(this.overall);
    clearTimeout(this.headersTimer);
    clearTimeout(this.idleTimer);
  }
}
