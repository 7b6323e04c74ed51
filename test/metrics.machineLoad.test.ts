// The machine's run queue and steal from Linux /proc (rig/metrics/machineLoad.ts), parsed from
// fixture text and read from a fixture /proc in a temp dir: procs_running before /proc/loadavg, the
// reader itself left out, steal as a share of all cores' ticks, and anything unreadable absent.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseProcStat, readMachine, runnableFromLoadavg, stealPct } from '../rig/metrics/machineLoad.ts';

const STAT = `cpu  943776 1174 148732 5837738 6181 0 4132 9558 12 0
cpu0 471888 587 74366 2918869 3090 0 2066 4779 6 0
intr 123 0 0
ctxt 456
procs_running 3
procs_blocked 0
`;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function procRoot(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-proc-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('/proc parsers', () => {
  it('loadavg: the running count of "R/T"', () => {
    expect(runnableFromLoadavg('0.32 1.08 1.88 2/94 18178\n')).toBe(2);
    expect(runnableFromLoadavg('garbage')).toBeUndefined();
  });

  it('stat: procs_running, and the aggregate cpu line summed without guest (already in user/nice)', () => {
    expect(parseProcStat(STAT)).toEqual({
      procsRunning: 3,
      totalTicks: 943776 + 1174 + 148732 + 5837738 + 6181 + 0 + 4132 + 9558,
      stealTicks: 9558,
    });
    // A kernel too old for the steal column: no ticks rather than a wrong total.
    expect(parseProcStat('cpu  1 2 3 4\nprocs_running 1\n')).toEqual({ procsRunning: 1 });
    expect(parseProcStat('')).toEqual({});
  });

  it('steal between two readings as % of all ticks; undefined without the cpu line or without time passing', () => {
    expect(stealPct({ totalTicks: 1000, stealTicks: 10 }, { totalTicks: 1400, stealTicks: 50 })).toBe(10);
    expect(stealPct({ runnable: 1 }, { totalTicks: 1400, stealTicks: 50 })).toBeUndefined();
    expect(stealPct({ totalTicks: 1000, stealTicks: 10 }, { totalTicks: 1000, stealTicks: 10 })).toBeUndefined();
  });
});

describe('readMachine', () => {
  it('prefers /proc/stat, leaving the reading thread out of the runnable count', () => {
    const root = procRoot({ stat: STAT, loadavg: '0.1 0.1 0.1 9/90 1\n' });
    expect(readMachine(root)).toEqual({ runnable: 2, totalTicks: parseProcStat(STAT).totalTicks, stealTicks: 9558 });
  });

  it('falls back on /proc/loadavg (no steal then)', () => {
    expect(readMachine(procRoot({ loadavg: '0.1 0.1 0.1 4/90 1\n' }))).toEqual({ runnable: 3 });
  });

  it('not Linux (no /proc): undefined, never a throw', () => {
    expect(readMachine(procRoot({}))).toBeUndefined();
    expect(readMachine('/nonexistent/proc')).toBeUndefined();
  });
});
