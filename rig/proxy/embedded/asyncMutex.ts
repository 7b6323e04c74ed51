// Serialises async operations that Toxiproxy's Go code guards with a sync.Mutex (chain rewiring,
// proxy start/stop), so two API calls never interleave across an await.
export class AsyncMutex {
  private tail: Promise<void> = Promise.resolve();

  async run<T>(operation: () => Promise<T> | T): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    try {
      return await operation();
    } finally {
      release();
    }
  }
}
