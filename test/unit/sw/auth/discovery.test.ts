import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discover, protectedResourceMetadataUrls, resourceCovers } from '../../../../src/sw/auth/discovery.js';
import { DiscoveryError, MetadataError, MultipleAuthorizationServersError, ResourceMismatchError } from '../../../../src/sw/auth/errors.js';
import { FakeAs, FakeNet, ISSUER, MCP, json } from './fake-net.js';

const PATH_PRM = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';
const ROOT_PRM = 'https://mcp.example.com/.well-known/oauth-protected-resource';

test('the challenge resource_metadata wins when same-origin and https', async () => {
  const net = new FakeNet();
  new FakeAs(net, { prm: false });
  net.on('https://mcp.example.com/custom-prm', { resource: MCP, authorization_servers: [ISSUER] });
  const d = await discover(net.fetch, MCP, { resourceMetadataUrl: 'https://mcp.example.com/custom-prm' });
  assert.equal(d.issuer, ISSUER);
  assert.equal(net.urls()[0], 'https://mcp.example.com/custom-prm');
});

test('a cross-origin or plain-http resource_metadata is ignored and never fetched', async () => {
  const urls = protectedResourceMetadataUrls(MCP, 'https://evil.example/prm');
  assert.deepEqual(urls, [PATH_PRM, ROOT_PRM]);
  const loopback = protectedResourceMetadataUrls('http://127.0.0.1:9/mcp', 'http://127.0.0.1:9/prm');
  assert.equal(loopback[0], 'http://127.0.0.1:9/prm');
  const net = new FakeNet();
  new FakeAs(net);
  await discover(net.fetch, MCP, { resourceMetadataUrl: 'https://evil.example/prm' });
  assert.ok(!net.urls().some((u) => u.includes('evil')));
});

test('without a challenge the path-aware PRM is tried before the root PRM', async () => {
  const net = new FakeNet();
  new FakeAs(net, { prm: false });
  net.on(ROOT_PRM, { resource: MCP, authorization_servers: [ISSUER] });
  const d = await discover(net.fetch, MCP);
  assert.equal(d.legacy, false);
  assert.deepEqual(net.urls().slice(0, 2), [PATH_PRM, ROOT_PRM]);
});

test('a PRM for a different resource is refused', async () => {
  const net = new FakeNet();
  new FakeAs(net, { prm: { resource: 'https://other.example.com/mcp' } });
  await assert.rejects(discover(net.fetch, MCP), (e: unknown) => {
    assert.ok(e instanceof ResourceMismatchError);
    assert.match(e.message, /is for "https:\/\/other\.example\.com\/mcp", not for "https:\/\/mcp\.example\.com\/mcp"/);
    return true;
  });
});

test('a PRM resource that differs only in case of the host is the same resource', async () => {
  const net = new FakeNet();
  new FakeAs(net, { prm: { resource: 'https://MCP.example.com/mcp' } });
  assert.equal((await discover(net.fetch, MCP)).resource, MCP);
});

test('an empty authorization_servers list is an explicit discovery error', async () => {
  const net = new FakeNet();
  new FakeAs(net, { prm: { authorization_servers: [] } });
  await assert.rejects(discover(net.fetch, MCP), /lists no authorization servers/);
});

test('several authorization servers on first discovery name them all and stop', async () => {
  const net = new FakeNet();
  new FakeAs(net, { prm: { authorization_servers: [ISSUER, 'https://as2.example.com'] } });
  await assert.rejects(discover(net.fetch, MCP), (e: unknown) => {
    assert.ok(e instanceof MultipleAuthorizationServersError);
    assert.deepEqual(e.issuers, [ISSUER, 'https://as2.example.com']);
    assert.match(e.message, /https:\/\/as\.example\.com, https:\/\/as2\.example\.com/);
    return true;
  });
});

test('an existing binding whose issuer is still listed is kept among several', async () => {
  const net = new FakeNet();
  new FakeAs(net, { prm: { authorization_servers: ['https://as2.example.com', ISSUER] } });
  const d = await discover(net.fetch, MCP, { existingIssuer: ISSUER });
  assert.equal(d.issuer, ISSUER);
});

test('an http authorization server in the PRM is refused before any request to it', async () => {
  const net = new FakeNet();
  new FakeAs(net, { prm: { authorization_servers: ['http://as.example.com'] } });
  await assert.rejects(discover(net.fetch, MCP), DiscoveryError);
  assert.ok(!net.urls().some((u) => u.startsWith('http://as.example.com')));
});

test('invalid PRM JSON and a 5xx are explicit discovery errors naming the URL', async () => {
  const net = new FakeNet().on(PATH_PRM, { resource: 42 });
  await assert.rejects(discover(net.fetch, MCP), (e: unknown) => e instanceof DiscoveryError && e.message.includes(PATH_PRM));
  const net2 = new FakeNet().on(PATH_PRM, () => json({}, 503));
  await assert.rejects(discover(net2.fetch, MCP), /HTTP 503/);
});

test('a PRM whose AS publishes no metadata is a metadata error', async () => {
  const net = new FakeNet().on(PATH_PRM, { resource: MCP, authorization_servers: ['https://bare.example.com'] });
  await assert.rejects(discover(net.fetch, MCP), MetadataError);
});

test('without any PRM, 2025-03-26 fallback uses AS metadata at the MCP origin', async () => {
  const net = new FakeNet().on('https://mcp.example.com/.well-known/oauth-authorization-server', {
    issuer: 'https://mcp.example.com/',
    authorization_endpoint: 'https://mcp.example.com/oauth/authorize',
    token_endpoint: 'https://mcp.example.com/oauth/token',
  });
  const d = await discover(net.fetch, MCP);
  assert.equal(d.legacy, true);
  assert.equal(d.issuer, 'https://mcp.example.com');
  assert.equal(d.metadata.authorization_endpoint, 'https://mcp.example.com/oauth/authorize');
});

test('without PRM or metadata, the default endpoints at the MCP origin are used', async () => {
  const net = new FakeNet();
  const d = await discover(net.fetch, MCP);
  assert.equal(d.legacy, true);
  assert.deepEqual(
    [d.metadata.authorization_endpoint, d.metadata.token_endpoint, d.metadata.registration_endpoint],
    ['https://mcp.example.com/authorize', 'https://mcp.example.com/token', 'https://mcp.example.com/register'],
  );
});

test('an http MCP URL that is not loopback makes no request at all', async () => {
  const net = new FakeNet();
  await assert.rejects(discover(net.fetch, 'http://mcp.example.com/mcp'), /not HTTPS/);
  assert.equal(net.requests.length, 0);
});

test('a root PRM whose resource is the origin covers the MCP URL (RFC 9728 root metadata)', async () => {
  const net = new FakeNet();
  new FakeAs(net, { prm: false });
  net.on(ROOT_PRM, { resource: 'https://mcp.example.com', authorization_servers: [ISSUER] });
  const d = await discover(net.fetch, MCP);
  assert.equal(d.resource, MCP);
  assert.equal(d.issuer, ISSUER);
});

test('a PRM resource covers only whole path segments of the same origin', () => {
  assert.equal(resourceCovers('https://mcp.example.com/', 'https://mcp.example.com/mcp'), true);
  assert.equal(resourceCovers('https://mcp.example.com/mcp', 'https://mcp.example.com/mcp/v1'), true);
  assert.equal(resourceCovers('https://mcp.example.com/mcp', 'https://mcp.example.com/mcp2'), false);
  assert.equal(resourceCovers('https://mcp.example.com/mcp/v1', 'https://mcp.example.com/mcp'), false);
  assert.equal(resourceCovers('https://mcp.example.com:8443/', 'https://mcp.example.com/mcp'), false);
  assert.equal(resourceCovers('https://evil.example.com/mcp', 'https://mcp.example.com/mcp'), false);
});

test('2025-03-26 fallback accepts an issuer with a path on the MCP origin, not another origin', async () => {
  const meta = (issuer: string) => ({
    issuer,
    authorization_endpoint: 'https://mcp.example.com/oauth/authorize',
    token_endpoint: 'https://mcp.example.com/oauth/token',
  });
  const ok = new FakeNet().on('https://mcp.example.com/.well-known/oauth-authorization-server', meta('https://mcp.example.com/oauth'));
  const d = await discover(ok.fetch, MCP);
  assert.equal(d.legacy, true);
  assert.equal(d.issuer, 'https://mcp.example.com');
  assert.equal(d.metadata.issuer, 'https://mcp.example.com/oauth');
  const bad = new FakeNet().on('https://mcp.example.com/.well-known/oauth-authorization-server', meta('https://as.example.org'));
  await assert.rejects(discover(bad.fetch, MCP), MetadataError);
});

test('a PRM announced in the challenge that cannot be read is an error naming the documents tried, never the 2025-03-26 fallback', async () => {
  const net = new FakeNet();
  const announced = 'https://mcp.example.com/meta/prm';
  await assert.rejects(discover(net.fetch, MCP, { resourceMetadataUrl: announced }), (e: unknown) => {
    assert.ok(e instanceof DiscoveryError);
    assert.match(e.message, /announced protected resource metadata at https:\/\/mcp\.example\.com\/meta\/prm in its 401 challenge/);
    for (const url of [announced, PATH_PRM, ROOT_PRM]) assert.ok(e.message.includes(url), `${url} in ${e.message}`);
    return true;
  });
  assert.deepEqual(net.urls(), [announced, PATH_PRM, ROOT_PRM], 'no AS metadata at the MCP origin, no default endpoints');
});

test('a PRM announced on another origin is not fetched, and the error says so instead of falling back', async () => {
  const net = new FakeNet();
  await assert.rejects(discover(net.fetch, MCP, { resourceMetadataUrl: 'https://evil.example/prm' }), (e: unknown) => {
    assert.ok(e instanceof DiscoveryError);
    assert.match(e.message, /https:\/\/evil\.example\/prm was not fetched: it is not on the server's origin/);
    return true;
  });
  assert.ok(!net.urls().some((u) => u.includes('evil') || u.includes('oauth-authorization-server')));
});

test('the 2025-03-26 fallback still requires S256 when the AS declares its methods, and the error names the documents tried', async () => {
  const net = new FakeNet().on('https://mcp.example.com/.well-known/oauth-authorization-server', {
    issuer: 'https://mcp.example.com',
    authorization_endpoint: 'https://mcp.example.com/authorize',
    token_endpoint: 'https://mcp.example.com/token',
    code_challenge_methods_supported: ['plain'],
  });
  await assert.rejects(discover(net.fetch, MCP), (e: unknown) => {
    assert.ok(e instanceof MetadataError);
    assert.match(e.message, /does not declare PKCE S256 support/);
    assert.match(e.message, /No protected resource metadata exists/);
    for (const url of [PATH_PRM, ROOT_PRM]) assert.ok(e.message.includes(url), `${url} in ${e.message}`);
    return true;
  });
});

test('the fallback is taken only after the path-aware and root PRM both do not exist, and remembers what was tried', async () => {
  const net = new FakeNet();
  const d = await discover(net.fetch, MCP);
  assert.equal(d.legacy, true);
  assert.deepEqual(d.tried, {
    prm: [PATH_PRM, ROOT_PRM],
    metadata: [
      'https://mcp.example.com/.well-known/oauth-authorization-server',
      'https://mcp.example.com/.well-known/openid-configuration',
    ],
  });
});
