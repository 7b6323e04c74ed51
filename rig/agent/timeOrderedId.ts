// Ids for the rows the outbox keys by (tasks, and with them their history, artifacts and events):
// UUIDv7 (RFC 9562), a millisecond timestamp then 74 random bits. Random v4 keys put every new
// task on a random leaf page of each of those B-trees, so a commit wrote a page per table per
// task to the WAL; time-ordered keys append at the right edge, and a batch of new tasks dirties a
// few shared pages. Still unguessable in practice (74 random bits) and a valid UUID.
import { randomUUID } from 'node:crypto';

export function timeOrderedId(now = Date.now()): string {
  const time = now.toString(16).padStart(12, '0');
  // randomUUID() is `xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx`: keep its random tail and its variant.
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${randomUUID().slice(15)}`;
}
