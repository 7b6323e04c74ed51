// Status timestamps (rig/agent/isoNow.ts): the clock's current millisecond as ISO 8601, the string
// made once per millisecond and never reused once the clock has moved.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoNow } from '../rig/agent/isoNow.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('isoNow', () => {
  it('is the current millisecond, and follows the clock', () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 11, 5, 11, 40, 0, 123));
    expect(isoNow()).toBe('2026-12-05T11:40:00.123Z');
    expect(isoNow()).toBe('2026-12-05T11:40:00.123Z');
    vi.setSystemTime(Date.UTC(2026, 11, 5, 11, 40, 0, 124));
    expect(isoNow()).toBe('2026-12-05T11:40:00.124Z');
    // Backwards too (a clock step): whatever the clock says now, never the string of another instant.
    vi.setSystemTime(Date.UTC(2025, 0, 1));
    expect(isoNow()).toBe('2025-01-01T00:00:00.000Z');
  });
});
