// SIGINT/SIGTERM during a run. The first signal aborts the run (runScenarios stops the running
// scenario, records the rest as not run and closes the environment: proxies deleted, the agent
// stopped, its temp files removed) and restores the terminal at once; the caller then writes the
// results so far and exits 130/143. A second signal, or a wind-down that overruns its bound, forces
// the exit — still through onForce, so the terminal is restored and children are reaped by their
// exit handlers.
import { EXIT } from '../exitCodes.ts';

export type RunSignal = 'SIGINT' | 'SIGTERM';

export interface InterruptHooks {
  /** The first signal: stop drawing progress and restore the terminal now. */
  onSignal(signal: RunSignal): void;
  /** A second signal, or the wind-down overran: restore the terminal, say so, process.exit. */
  onForce(signal: RunSignal): void;
}

/** The bound is 2 s from signal to exit; forcing a little before it leaves time to exit. */
export const FORCE_AFTER_MS = 1_800;

export class RunInterrupt {
  private readonly controller = new AbortController();
  private received: RunSignal | undefined;
  private watchdog: NodeJS.Timeout | undefined;

  constructor(
    private readonly hooks: InterruptHooks,
    private readonly forceAfterMs = FORCE_AFTER_MS,
  ) {}

  /** Aborted on the first signal, with the signal's name as its reason. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get signalName(): RunSignal | undefined {
    return this.received;
  }

  /** 130 for SIGINT, 143 for SIGTERM (128 + the signal's number, as a shell reports it). */
  get exitCode(): number | undefined {
    return this.received ? EXIT[this.received] : undefined;
  }

  install(): this {
    process.on('SIGINT', this.onSigint);
    process.on('SIGTERM', this.onSigterm);
    return this;
  }

  uninstall(): void {
    process.off('SIGINT', this.onSigint);
    process.off('SIGTERM', this.onSigterm);
    clearTimeout(this.watchdog);
  }

  private readonly onSigint = () => this.handle('SIGINT');
  private readonly onSigterm = () => this.handle('SIGTERM');

  private handle(signal: RunSignal): void {
    if (this.received) {
      this.hooks.onForce(this.received);
      return;
    }
    this.received = signal;
    this.controller.abort(signal);
    this.hooks.onSignal(signal);
    // unref: a wind-down that finishes in time exits on its own; one that hangs keeps the loop alive anyway.
    this.watchdog = setTimeout(() => this.hooks.onForce(signal), this.forceAfterMs).unref();
  }
}
