/**
 * SPEC R1 with E3/E7: the worker's probes reach a server of the 2026-07-28 era, which refuses a
 * 2025 `initialize` with HTTP 400 — the official SDK v2 server in its modern-only mode, and the
 * same behind a bearer check whose 401 names the protected resource metadata.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { probeServer } from '../../../../src/sw/auth/server-probe.js';
import { probeChallenge } from '../../../../src/sw/auth/challenge-probe.js';
import { startModernServer } from '../../../support/modern-mcp.js';

const modern = await startModernServer({ legacy: 'reject' });
after(() => modern.close());

const fetchFn = (input: string | URL | Request, init?: RequestInit) => fetch(input, init);

test('R1: the guided add names a modern-only server that refuses initialize, and needs no authorization for it', async () => {
  assert.deepEqual(await probeServer(fetchFn, modern.url), { authKind: 'none', name: 'modern-demo' });
  const methods = modern.seen.map((r) => r.method);
  assert.deepEqual(methods.slice(-2), ['initialize', 'server/discover']);
  assert.equal(modern.seen.at(-1)?.headers['mcp-protocol-version'], '2026-07-28');
});

test('R1/E7: a modern server that lets anyone discover but guards its tools gives Authorize the tools’ challenge', async () => {
  const challenge = 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource", scope="tools.read"';
  const http = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const method = (JSON.parse(body || '{}') as { method?: string }).method;
      if (method === 'initialize')
        return void res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(
            '{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"]}}}',
          );
      if (method === 'server/discover')
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"jsonrpc":"2.0","id":0,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}}');
      res.writeHead(401, { 'www-authenticate': challenge }).end();
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    assert.equal(await probeChallenge(fetchFn, url), challenge);
  } finally {
    http.close();
  }
});
