// ListTasks for the durability checks: does the agent still list a task? A2A 1.0 has ListTasks
// (optional for an agent: -32601 method not found or -32004 unsupported operation say it has none);
// A2A 0.3 has no such method. One call per task, filtered by the task's contextId, so the answer
// does not depend on how many other tasks the agent holds (a run's load scenarios leave thousands).
import { METHOD_NAMES } from '../../protocol/a2aTypes.ts';
import type { A2AClient } from '../../client/index.ts';

export type TaskListing =
  /** The agent listed the context; `listed` says whether the task was among its tasks. */
  | { kind: 'listed'; listed: boolean }
  /** The agent offers no ListTasks (its generation has none, or it says so). */
  | { kind: 'unsupported'; reason: string }
  /** ListTasks answered with another error, or with something that is not a task list. */
  | { kind: 'failed'; reason: string };

const NOT_OFFERED = new Set([-32601, -32004]);
const MAX_PAGES = 20;

/** `signal` by default the client's own (A2AClient.abortWith): a scenario's client ends with the scenario. */
export async function taskListed(
  client: A2AClient,
  taskId: string,
  contextId: string,
  signal?: AbortSignal,
): Promise<TaskListing> {
  const method = METHOD_NAMES[client.generation].list;
  if (!method) return { kind: 'unsupported', reason: `A2A ${client.generation} has no ListTasks` };
  let pageToken = '';
  for (let page = 0; page < MAX_PAGES; page++) {
    const params = { contextId, pageSize: 100, ...(pageToken ? { pageToken } : {}) };
    let reply;
    try {
      reply = await client.transport.call(
        client.agent.rpcUrl,
        method,
        params,
        { generation: client.generation, extensions: [] },
        { signal: signal ?? client.defaultSignal },
      );
    } catch (err) {
      return { kind: 'failed', reason: `${method}: ${(err as Error).message}` };
    }
    if (!reply.ok) {
      const reason = `${method} answered ${reply.error.code} ${reply.error.message}`;
      return NOT_OFFERED.has(reply.error.code) ? { kind: 'unsupported', reason } : { kind: 'failed', reason };
    }
    const result = reply.result as { tasks?: unknown; nextPageToken?: unknown } | null;
    // ProtoJSON leaves an empty list out: no `tasks` is no tasks.
    const tasks = result?.tasks ?? [];
    if (typeof result !== 'object' || result === null || !Array.isArray(tasks))
      return { kind: 'failed', reason: `${method} result has no tasks list` };
    if (tasks.some((t) => (t as { id?: unknown } | null)?.id === taskId)) return { kind: 'listed', listed: true };
    pageToken = typeof result.nextPageToken === 'string' ? result.nextPageToken : '';
    if (!pageToken) return { kind: 'listed', listed: false };
  }
  return { kind: 'failed', reason: `${method} for context ${contextId} went on past ${MAX_PAGES} pages` };
}
