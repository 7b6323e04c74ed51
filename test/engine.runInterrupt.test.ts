// RunInterrupt (rig/engine/runInterrupt.ts) on its own: the first signal aborts the run with the
// signal's name and restores the terminal; a second one, or a wind-down that overruns its bound,
// forces the exit; 130 for SIGINT, 143 for SIGTERM; uninstalled, it hears nothing. The listeners are
// called with process.emit, so no real signal reaches the test runner.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RunInterrupt } from '../rig/engine/runInterrupt.ts';

const installed: RunInterrupt[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const i of installed.splice(0)) i.uninstall();
});

function recorder(forceAfterMs?: number) {
  const calls: string[] = [];
  const interrupt = new RunInterrupt(
    {
      onSignal: (s) => calls.push(`signal ${s}`),
      onForce: (s) => calls.push(`force ${s}`),
    },
    forceAfterMs,
  ).install();
  installed.push(interrupt);
  return { interrupt, calls };
}

describe('RunInterrupt', () => {
  it('first SIGINT: aborts with reason SIGINT, restores the terminal, exit code 130; a second forces', () => {
    const { interrupt, calls } = recorder(60_000);
    expect(interrupt.signal.aborted).toBe(false);
    expect(interrupt.exitCode).toBeUndefined();
    process.emit('SIGINT');
    expect(interrupt.signal.aborted).toBe(true);
    expect(interrupt.signal.reason).toBe('SIGINT');
    expect(interrupt.exitCode).toBe(130);
    expect(calls).toEqual(['signal SIGINT']);
    process.emit('SIGINT');
    expect(calls).toEqual(['signal SIGINT', 'force SIGINT']);
  });

  it('SIGTERM: exit code 143, and a later SIGINT forces under the first signal', () => {
    const { interrupt, calls } = recorder(60_000);
    process.emit('SIGTERM');
    expect(interrupt.exitCode).toBe(143);
    process.emit('SIGINT');
    expect(calls).toEqual(['signal SIGTERM', 'force SIGTERM']);
  });

  it('a wind-down that overruns its bound is forced, not before', () => {
    vi.useFakeTimers();
    const { calls } = recorder(1_800);
    process.emit('SIGTERM');
    vi.advanceTimersByTime(1_799);
    expect(calls).toEqual(['signal SIGTERM']);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(['signal SIGTERM', 'force SIGTERM']);
  });

  it('uninstalled: no listener left, no forced exit pending', () => {
    vi.useFakeTimers();
    const before = process.listenerCount('SIGINT');
    const { interrupt, calls } = recorder(1_800);
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    process.emit('SIGINT');
    interrupt.uninstall();
    expect(process.listenerCount('SIGINT')).toBe(before);
    vi.advanceTimersByTime(10_000);
    expect(calls).toEqual(['signal SIGINT']);
  });
});
