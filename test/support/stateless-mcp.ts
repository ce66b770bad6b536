/**
 * The request handler of the scripted MCP App servers (escape-, polling- and hostile-app-server):
 * each request gets a fresh SDK server from `build` on a stateless Streamable HTTP transport with
 * JSON answers, as the published example apps run. `seen` is shown each parsed request body first.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export function statelessMcpHandler(build: () => McpServer, seen?: (body: unknown) => void): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body: unknown = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
      seen?.(body);
      const server = build();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => void transport.close().then(() => server.close()));
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch((e) => {
      if (!res.headersSent) res.writeHead(500).end(String(e));
    });
  };
}
