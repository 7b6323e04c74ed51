// Setup file of the `unit` project (vitest.config.ts; test:unit runs it alone): no test in the unit
// tier may start a process.
import { expect } from 'vitest';
import { refuseProcesses } from './unitTierGuard.ts';

refuseProcesses(expect.getState().testPath ?? 'a unit-tier test');
