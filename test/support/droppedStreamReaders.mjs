// Opens event streams on one task with fetch and, unless --keep, drops each Response (as the
// 33rd-stream test once did by keeping only its AbortControllers), then forces a garbage
// collection. undici cancels the body of a Response that is collected unread, which closes the
// connection: the agent frees that slot. Prints whether one more SubscribeToTask was then served
// as a stream (a slot was free) or refused (-32029). Run with node --expose-gc.
const [url, taskId, countText, mode] = process.argv.slice(2);
const headers = {
  'content-type': 'application/json',
  'A2A-Version': '1.0',
  'A2A-Extensions': process.env.HITL_URI,
  accept: 'text/event-stream',
};
const subscribe = (id) =>
  fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'SubscribeToTask', params: { id: taskId } }),
    signal: AbortSignal.timeout(10_000),
  });
const kept = [];
for (let i = 0; i < Number(countText); i++) {
  const res = await subscribe(i);
  if (!res.headers.get('content-type')?.includes('text/event-stream')) throw new Error(`stream ${i} refused`);
  if (mode === '--keep') kept.push(res);
}
// Collect, let the finalizers run, and give the agent a bounded while to see the closes.
const deadline = performance.now() + 15_000;
let served = false;
while (!served && performance.now() < deadline) {
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const res = await subscribe('probe');
  served = res.headers.get('content-type')?.includes('text/event-stream') ?? false;
  if (served) res.body?.cancel();
  else await res.json();
  if (mode === '--keep') break;
}
console.log(JSON.stringify({ served, kept: kept.length }));
for (const res of kept) res.body?.cancel();
process.exit(0);
