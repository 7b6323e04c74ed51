// The @a2a-js/sdk 1.3.0 agent of test/support/sdkMinimalAgent.ts as a process of its own, so a
// benchmark can load it the way it loads the reference agent (`a2a-rig agent`): it prints
// `{"url": ...}` on its first stdout line and stops on SIGTERM/SIGINT.
import { startSdkMinimalAgent } from '../test/support/sdkMinimalAgent.ts';

const agent = await startSdkMinimalAgent();
console.log(JSON.stringify({ url: agent.url }));
const stop = () => void agent.close().finally(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
