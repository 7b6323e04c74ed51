// The open prompts kept in memory (rig/agent/promptStore.ts): an answer to a prompt this process
// emitted finds it without reading the prompts table, and what is kept never says more than the
// table would: answered, closed, dropped with the outbox's row cache (another process's commit),
// or pushed out by the bound, a prompt is read from the table again.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Outbox } from '../rig/agent/outbox.ts';
import { PromptStore } from '../rig/agent/promptStore.ts';
import { tempDbPath } from './support/inProcessAgent.ts';
import { bareTaskRow } from './support/engineFixture.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

const schema = { type: 'object', required: ['approved'], properties: { approved: { type: 'boolean' } } };
const prompt = (taskId: string, step = 0) => ({
  taskId,
  step,
  promptId: `prompt-${taskId}-${step}`,
  envelope: { prompt_id: `prompt-${taskId}-${step}`, prompt: 'Approve?', response_schema: schema },
  schema,
  deadline: null,
});

/** A PromptStore on a fresh database that logs every statement it runs. */
function store(limits?: { prompts: number; bytes: number }) {
  const db = tempDbPath();
  const statements: string[] = [];
  const sqlite = new Database(db.path, { verbose: (sql) => statements.push(String(sql)) });
  cleanups.push(() => {
    sqlite.close();
    db.cleanup();
  });
  const selects = () => statements.filter((s) => /^SELECT .* FROM prompts/.test(s)).length;
  return { prompts: new PromptStore(sqlite, limits), selects };
}

describe('open prompts kept in memory', () => {
  it('finds a prompt it emitted without a SELECT, and reads it back once answered', () => {
    const { prompts, selects } = store();
    prompts.insert(prompt('t1'));
    expect(prompts.find('t1', 'prompt-t1-0')).toMatchObject({ state: 'open', step: 0, schema });
    expect(prompts.openOf('t1')).toMatchObject({ promptId: 'prompt-t1-0' });
    expect(selects()).toBe(0);

    expect(prompts.answer('t1', 0, { approved: true })).toBe(true);
    expect(prompts.find('t1', 'prompt-t1-0')).toMatchObject({ state: 'answered' });
    expect(prompts.openOf('t1')).toBeUndefined();
    expect(prompts.answer('t1', 0, { approved: true })).toBe(false);
  });

  it('reads a closed, dropped or evicted prompt from the table', () => {
    const { prompts, selects } = store({ prompts: 2, bytes: 1 << 20 });
    prompts.insert(prompt('t1'));
    prompts.closeOpen('t1');
    expect(prompts.find('t1', 'prompt-t1-0')).toMatchObject({ state: 'closed' });

    prompts.insert(prompt('t2'));
    prompts.forgetCached();
    const before = selects();
    expect(prompts.find('t2', 'prompt-t2-0')).toMatchObject({ state: 'open' });
    expect(selects()).toBe(before + 1);

    // Past the bound the oldest goes: still open, from the table.
    prompts.insert(prompt('t3'));
    prompts.insert(prompt('t4'));
    prompts.insert(prompt('t5'));
    expect(prompts.find('t3', 'prompt-t3-0')).toMatchObject({ state: 'open' });
    expect(selects()).toBe(before + 2);
    expect(prompts.find('t5', 'prompt-t5-0')).toMatchObject({ state: 'open' });
    expect(selects()).toBe(before + 2);
  });

  it('drops what it keeps when another process commits to the same outbox', () => {
    const db = tempDbPath();
    const mine = new Outbox(db.path);
    const theirs = new Outbox(db.path);
    cleanups.push(() => {
      theirs.close();
      mine.close();
      db.cleanup();
    });
    const row = bareTaskRow('t1', 'TASK_STATE_INPUT_REQUIRED', true);
    mine.transaction(() => {
      mine.insertTask(row);
      mine.prompts.insert(prompt('t1'));
    });
    mine.commitBatch();
    expect(mine.prompts.find('t1', 'prompt-t1-0')).toMatchObject({ state: 'open' });

    theirs.transaction(() => expect(theirs.prompts.answer('t1', 0, { approved: false })).toBe(true));
    theirs.commitBatch();
    // As an answer does: the task first (which notices the other commit), then its prompt.
    mine.getTask('t1');
    expect(mine.prompts.find('t1', 'prompt-t1-0')).toMatchObject({ state: 'answered' });
  });
});
