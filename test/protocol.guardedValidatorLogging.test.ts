// A schema that fails to compile must not make Ajv log its generated source: with untrusted schemas
// (acceptance criteria come from any client) that is a 1.25 MB stderr write per 55 KB request.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GuardedValidator, SchemaRejectedError } from '../rig/protocol/guardedValidator.ts';
import { wideOneOfSchema } from './support/hostileSchemas.ts';

afterEach(() => vi.restoreAllMocks());

describe('GuardedValidator logging', () => {
  it('refuses a schema whose generated code overflows the parser without writing to the console', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const schema = wideOneOfSchema(2500);
    expect(JSON.stringify(schema).length).toBeLessThan(65_536);
    expect(() => new GuardedValidator({ compileBudgetMs: 60_000 }).compile(schema)).toThrow(SchemaRejectedError);
    expect(error).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  }, 30_000);
});
