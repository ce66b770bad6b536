/**
 * A hand-rolled Streamable HTTP endpoint on 127.0.0.1 that answers `initialize` properly and
 * every later request the way a test's `answer` says (SPEC N). For hostile-answer tests of the
 * offscreen session: unmatched messages, oversized results.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface Rpc {
  jsonrpc: '2.0';
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
}

/** How the endpoint answers one request after the handshake; return false to fall back to JSON `{}`. */
export type Answer = (rpc: Rpc, res: ServerResponse) => boolean | void;

export interface HostileRpcServer {
  url: string;
  origin: string;
  close(): Promise<void>;
}

export async function startHostileRpcServer(answer: Answer): Promise<HostileRpcServer> {
  const http: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET') return void res.writeHead(405).end();
    if (req.method === 'DELETE') return void res.writeHead(200).end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rpc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Rpc;
      if (rpc.method === 'initialize') {
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'session-1' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: rpc.id,
            result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '1' } },
          }),
        );
        return;
      }
      if (rpc.id === undefined) return void res.writeHead(202).end();
      if (answer(rpc, res) === false) sendJson(res, { jsonrpc: '2.0', id: rpc.id, result: {} });
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const port = (http.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        http.closeAllConnections();
        http.close(() => r());
      }),
  };
}

export function sendJson(res: ServerResponse, body: unknown, status = 200) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export function sendEvents(res: ServerResponse, ...events: string[]) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const e of events) res.write(`event: message\ndata: ${e}\n\n`);
  res.end();
}
