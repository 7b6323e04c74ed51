#!/usr/bin/env node
// The rig is TypeScript run through tsx, so a fresh clone works after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../rig/cli.ts');
