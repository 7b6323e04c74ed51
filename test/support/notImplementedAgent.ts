// An agent whose card is fine (hitl-prompt/v1 declared) and whose JSON-RPC endpoint answers every
// call with HTTP 501 and an HTML page: a target whose every request fails in a known way, so a test
// can tell which address a client reached and how its errors name it.
import { createServer, type Server } from 'node:http';
import { HITL_PROMPT_URI } from '../../rig/protocol/hitlPrompt.ts';

export interface NotImplementedAgent {
  url: string;
  close(): Promise<void>;
}

export async function notImplementedAgent(): Promise<NotImplementedAgent> {
  let url = '';
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          name: 'x',
          description: 'x',
          version: '1',
          url: `${url}/`,
          protocolVersion: '0.3.0',
          capabilities: { extensions: [{ uri: HITL_PROMPT_URI, required: false }] },
          defaultInputModes: [],
          defaultOutputModes: [],
          skills: [],
        }),
      );
    }
    req.resume();
    res.writeHead(501, { 'content-type': 'text/html' });
    res.end('<h1>Not Implemented</h1>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
