// Two things scenarios needed Node for (node:util, node:crypto), so a scenario imports 'a2a-rig'
// alone: whether two received values are the same, and an id no one has used.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';

/** Deep, strict equality of two values as received (an envelope before and after a restart, say). */
export const sameValue = (a: unknown, b: unknown): boolean => isDeepStrictEqual(a, b);

/** A fresh random id (a UUID), for a context, a message or a prompt nobody has seen yet. */
export const freshId = (): string => randomUUID();
