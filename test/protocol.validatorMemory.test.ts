// Ajv keeps every schema it compiled whatever addUsedSchema says, so a cache that merely forgot its
// entries still grew without bound with every distinct schema (docs/testing.md, "What the tests
// were written against"). The validator's cache now rotates whole Ajv instances; after thousands of distinct
// schemas and a forced GC the heap must stay near where it began. Measured in a child process
// started with --expose-gc, so the number is the validator's alone.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

const SCRIPT = `
import { GuardedValidator } from './rig/protocol/guardedValidator.ts';
const v = new GuardedValidator();
const schema = (i) => ({
  type: 'object', additionalProperties: false, required: ['id', 'name'],
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 64 }, name: { type: 'string', maxLength: 200 },
    count: { type: 'integer', minimum: 0, maximum: 1000 + i },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 20 },
    mode: { enum: ['a', 'b', 'c', 'v' + i] },
    nested: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'boolean' } } },
  },
});
const heap = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed; };
for (let i = 0; i < 50; i++) v.compile(schema(-1 - i));
const before = heap();
for (let i = 0; i < 1500; i++) {
  const c = v.compile(schema(i));
  if (c.validate({ id: 'x', name: 'y' }).length !== 0) throw new Error('schema ' + i + ' rejected a valid payload');
}
const after = heap();
process.stdout.write(JSON.stringify({ before, after, cached: v.cachedSchemas }));
`;

describe('GuardedValidator memory', () => {
  it('releases compiled schemas: 1,500 distinct schemas grow the heap by less than 20 MB', () => {
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.stderr).toBe('');
    const { before, after, cached } = JSON.parse(run.stdout) as { before: number; after: number; cached: number };
    const grownMb = (after - before) / 2 ** 20;
    console.log(
      `heap ${(before / 2 ** 20).toFixed(1)} MB -> ${(after / 2 ** 20).toFixed(1)} ` +
        `MB after 1,500 distinct schemas (${cached} cached)`,
    );
    expect(cached).toBeLessThanOrEqual(512);
    expect(grownMb).toBeLessThan(20);
  }, 150_000);
});

describe('GuardedValidator cache generations', () => {
  it(
    'holds at most two generations, ' +
      'and a validator a caller still holds keeps working after its generation is dropped',
    async () => {
      const { GuardedValidator, CACHE_GENERATION_ENTRIES } = await import('../rig/protocol/guardedValidator.ts');
      const v = new GuardedValidator();
      const first = v.compile({ type: 'object', required: ['first'] });
      for (let i = 0; i < CACHE_GENERATION_ENTRIES * 2 + 10; i++) v.compile({ type: 'object', required: [`k${i}`] });
      expect(v.cachedSchemas).toBeLessThanOrEqual(CACHE_GENERATION_ENTRIES * 2);
      expect(first.validate({})).toEqual([
        { path: '/first', keyword: 'required', message: "must have required property 'first'" },
      ]);
      // Dropped from the cache, it compiles again (into the young generation) and is equivalent.
      const again = v.compile({ type: 'object', required: ['first'] });
      expect(again).not.toBe(first);
      expect(again.validate({ first: 1 })).toEqual([]);
    },
    60_000,
  );
});
