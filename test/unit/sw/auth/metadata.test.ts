import { test } from 'node:test';
import assert from 'node:assert/strict';
import { authServerMetadataUrls, fetchAuthServerMetadata } from '../../../../src/sw/auth/metadata.js';
import { MetadataError } from '../../../../src/sw/auth/errors.js';
import { FakeNet } from './fake-net.js';

const base = (issuer: string, extra: Record<string, unknown> = {}) => ({
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/token`,
  code_challenge_methods_supported: ['S256'],
  ...extra,
});

test('an issuer with a path tries RFC 8414 insertion, OIDC insertion, then OIDC append', () => {
  assert.deepEqual(authServerMetadataUrls('https://as.example.com/tenant/1'), [
    'https://as.example.com/.well-known/oauth-authorization-server/tenant/1',
    'https://as.example.com/.well-known/openid-configuration/tenant/1',
    'https://as.example.com/tenant/1/.well-known/openid-configuration',
  ]);
});

test('an issuer without a path tries RFC 8414 then OIDC', () => {
  assert.deepEqual(authServerMetadataUrls('https://as.example.com/'), [
    'https://as.example.com/.well-known/oauth-authorization-server',
    'https://as.example.com/.well-known/openid-configuration',
  ]);
});

test('metadata found only at the OIDC path-append URL is used after the others 404', async () => {
  const issuer = 'https://as.example.com/tenant';
  const net = new FakeNet().on('https://as.example.com/tenant/.well-known/openid-configuration', base(issuer));
  const meta = await fetchAuthServerMetadata(net.fetch, issuer);
  assert.equal(meta?.issuer, issuer);
  assert.equal(net.requests.length, 3);
});

test('a metadata issuer that differs from the chosen issuer is refused', async () => {
  const net = new FakeNet().on('https://as.example.com/.well-known/oauth-authorization-server', base('https://evil.example.com'));
  await assert.rejects(fetchAuthServerMetadata(net.fetch, 'https://as.example.com'), (e: unknown) => {
    assert.ok(e instanceof MetadataError);
    assert.match(e.message, /says its issuer is "https:\/\/evil\.example\.com", but "https:\/\/as\.example\.com" was expected/);
    return true;
  });
});

test('metadata without S256 in code_challenge_methods_supported is refused, also when the field is missing', async () => {
  const net = new FakeNet().on(
    'https://as.example.com/.well-known/oauth-authorization-server',
    base('https://as.example.com', { code_challenge_methods_supported: ['plain'] }),
  );
  await assert.rejects(fetchAuthServerMetadata(net.fetch, 'https://as.example.com'), /does not declare PKCE S256/);
  const { code_challenge_methods_supported: _, ...noField } = base('https://as.example.com');
  const net2 = new FakeNet().on('https://as.example.com/.well-known/oauth-authorization-server', noField);
  await assert.rejects(fetchAuthServerMetadata(net2.fetch, 'https://as.example.com'), /does not declare PKCE S256/);
});

test('an http token endpoint in metadata is refused', async () => {
  const net = new FakeNet().on(
    'https://as.example.com/.well-known/oauth-authorization-server',
    base('https://as.example.com', { token_endpoint: 'http://as.example.com/token' }),
  );
  await assert.rejects(
    fetchAuthServerMetadata(net.fetch, 'https://as.example.com'),
    /token endpoint "http:\/\/as\.example\.com\/token" .* not HTTPS/,
  );
});

test('metadata missing required endpoints is invalid', async () => {
  const net = new FakeNet().on('https://as.example.com/.well-known/oauth-authorization-server', { issuer: 'https://as.example.com' });
  await assert.rejects(fetchAuthServerMetadata(net.fetch, 'https://as.example.com'), /invalid \(authorization_endpoint/);
});
