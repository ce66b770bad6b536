import { test } from 'node:test';
import assert from 'node:assert/strict';
import { probeServer, serverNameOf } from '../../../../src/sw/auth/server-probe.js';
import type { FetchLike } from '../../../../src/sw/auth/ports.js';

const MCP = 'https://mcp.example.com/mcp';

/** A fetch answering from a table of "METHOD url" → response, recording every request. */
function fakeFetch(routes: Record<string, () => Response>) {
  const seen: string[] = [];
  const fetchFn: FetchLike = async (url, init) => {
    const key = `${init?.method ?? 'GET'} ${url}`;
    seen.push(key);
    const route = routes[key];
    if (!route) return new Response('not found', { status: 404 });
    return route();
  };
  return { fetchFn, seen };
}

const initResult = (serverInfo: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', serverInfo } });

test('a 200 proposes no authorization and the server title, and ends the session it opened', async () => {
  const net = fakeFetch({
    [`POST ${MCP}`]: () =>
      new Response(initResult({ name: 'demo', title: 'Demo Server', version: '1' }), {
        headers: { 'content-type': 'application/json', 'mcp-session-id': 's-1' },
      }),
    [`DELETE ${MCP}`]: () => new Response(null, { status: 204 }),
  });
  assert.deepEqual(await probeServer(net.fetchFn, MCP), { authKind: 'none', name: 'Demo Server' });
  assert.deepEqual(net.seen, [`POST ${MCP}`, `DELETE ${MCP}`]);
});

test('the name is read from an SSE answer too, falling back from title to name', () => {
  assert.equal(serverNameOf(`event: message\ndata: ${initResult({ name: 'plain', version: '1' })}\n\n`), 'plain');
  assert.equal(serverNameOf('not json'), undefined);
  assert.equal(serverNameOf(initResult({ name: `  ${'n'.repeat(300)}  ` }))?.length, 120);
});

test('a 401 whose protected resource metadata names an authorization server proposes OAuth', async () => {
  const prm = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';
  const net = fakeFetch({
    [`POST ${MCP}`]: () => new Response('', { status: 401, headers: { 'www-authenticate': `Bearer resource_metadata="${prm}"` } }),
    [`GET ${prm}`]: () =>
      Response.json(
        { resource: MCP, authorization_servers: ['https://as.example.com'] },
        { headers: { 'content-type': 'application/json' } },
      ),
  });
  // No resource name: the authorization server's host names it, not the MCP URL's host.
  assert.deepEqual(await probeServer(net.fetchFn, MCP), { authKind: 'oauth', name: 'as.example.com' });
});

test('an OAuth server is proposed the resource name of its metadata, as one bounded line', async () => {
  const prm = 'https://127.0.0.1:8443/.well-known/oauth-protected-resource/mcp';
  const local = 'https://127.0.0.1:8443/mcp';
  const answer = (resource_name: unknown) =>
    fakeFetch({
      [`POST ${local}`]: () => new Response('', { status: 401, headers: { 'www-authenticate': `Bearer resource_metadata="${prm}"` } }),
      [`GET ${prm}`]: () => Response.json({ resource: local, resource_name, authorization_servers: ['https://login.example.org/tenant'] }),
    });
  assert.deepEqual(await probeServer(answer('Team Wiki\n(prod)').fetchFn, local), { authKind: 'oauth', name: 'Team Wiki (prod)' });
  assert.equal((await probeServer(answer(`  ${'w'.repeat(300)}`).fetchFn, local)).name?.length, 120);
  // A blank or non-string name falls back to the issuer's host.
  assert.equal((await probeServer(answer('  ').fetchFn, local)).name, 'login.example.org');
  assert.equal((await probeServer(answer(42).fetchFn, local)).name, 'login.example.org');
});

test('a 401 without metadata, or a 403, proposes a bearer token', async () => {
  const plain = fakeFetch({
    [`POST ${MCP}`]: () => new Response('', { status: 401, headers: { 'www-authenticate': 'Bearer realm="x"' } }),
  });
  assert.deepEqual(await probeServer(plain.fetchFn, MCP), { authKind: 'bearer' });
  const forbidden = fakeFetch({ [`POST ${MCP}`]: () => new Response('', { status: 403 }) });
  assert.deepEqual(await probeServer(forbidden.fetchFn, MCP), { authKind: 'bearer' });
});

test('a network failure and an unexpected status are errors naming the origin', async () => {
  const down: FetchLike = () => Promise.reject(new TypeError('Failed to fetch'));
  await assert.rejects(probeServer(down, MCP), (e: Error & { code?: string }) => {
    assert.equal(e.code, 'network');
    assert.match(e.message, /Could not reach https:\/\/mcp\.example\.com/);
    return true;
  });
  const missing = fakeFetch({});
  await assert.rejects(probeServer(missing.fetchFn, MCP), /answered HTTP 404 to an MCP initialize/);
});
