import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveClient } from '../../../../src/sw/auth/registration.js';
import { ClientIdRequiredError, RegistrationError, InsecureEndpointError } from '../../../../src/sw/auth/errors.js';
import type { AuthServerMetadata } from '../../../../src/sw/auth/metadata.js';
import { FakeNet, ISSUER, REDIRECT, json } from './fake-net.js';

const meta = (extra: Partial<AuthServerMetadata> = {}): AuthServerMetadata => ({
  issuer: ISSUER,
  authorization_endpoint: `${ISSUER}/authorize`,
  token_endpoint: `${ISSUER}/token`,
  registration_endpoint: `${ISSUER}/register`,
  code_challenge_methods_supported: ['S256'],
  ...extra,
});
const opts = { redirectUri: REDIRECT, clientName: 'Test' };

test('DCR sends our redirect URI, both grant types, auth method none and the scope', async () => {
  const net = new FakeNet().on(`${ISSUER}/register`, () => json({ client_id: 'abc' }, 201));
  const client = await resolveClient(net.fetch, { ...opts, metadata: meta(), scope: 'read write' });
  assert.deepEqual(client, { clientId: 'abc', tokenEndpointAuthMethod: 'none', source: 'dcr' });
  const sent = JSON.parse(net.requests[0]!.body) as Record<string, unknown>;
  assert.deepEqual(sent.redirect_uris, [REDIRECT]);
  assert.deepEqual(sent.grant_types, ['authorization_code', 'refresh_token']);
  assert.equal(sent.token_endpoint_auth_method, 'none');
  assert.equal(sent.scope, 'read write');
});

test('DCR names application_type "web": the redirect URI is https on a non-local host (2026-07-28 MUST; OIDC would default to web anyway)', async () => {
  const net = new FakeNet().on(`${ISSUER}/register`, () => json({ client_id: 'abc' }, 201));
  await resolveClient(net.fetch, { ...opts, metadata: meta() });
  const sent = JSON.parse(net.requests[0]!.body) as Record<string, unknown>;
  assert.equal(sent.application_type, 'web');
});

test('a DCR response without a usable client_id is refused before use', async () => {
  for (const body of [{}, { client_id: '' }, { client_id: 'x'.repeat(513) }, { client_id: 5 }, ['client_id']]) {
    const net = new FakeNet().on(`${ISSUER}/register`, () => json(body, 201));
    await assert.rejects(resolveClient(net.fetch, { ...opts, metadata: meta() }), RegistrationError, JSON.stringify(body).slice(0, 40));
  }
});

test('a DCR error response names the endpoint and the OAuth error', async () => {
  const net = new FakeNet().on(`${ISSUER}/register`, () => json({ error: 'invalid_redirect_uri', error_description: 'not allowed' }, 400));
  await assert.rejects(
    resolveClient(net.fetch, { ...opts, metadata: meta() }),
    /register failed \(HTTP 400: invalid_redirect_uri — not allowed\)/,
  );
});

test('a DCR client with a secret uses the auth method the AS returned', async () => {
  const net = new FakeNet().on(`${ISSUER}/register`, () =>
    json({ client_id: 'c', client_secret: 's', token_endpoint_auth_method: 'client_secret_post' }, 201),
  );
  const client = await resolveClient(net.fetch, { ...opts, metadata: meta() });
  assert.equal(client.tokenEndpointAuthMethod, 'client_secret_post');
  assert.equal(client.clientSecret, 's');
});

test('a preconfigured client id is used without registering', async () => {
  const net = new FakeNet();
  const client = await resolveClient(net.fetch, { ...opts, metadata: meta(), preconfigured: { clientId: 'pre', clientSecret: 'sec' } });
  assert.deepEqual(client, {
    clientId: 'pre',
    clientSecret: 'sec',
    tokenEndpointAuthMethod: 'client_secret_basic',
    source: 'preconfigured',
  });
  assert.equal(net.requests.length, 0);
  const postOnly = await resolveClient(net.fetch, {
    ...opts,
    metadata: meta({ token_endpoint_auth_methods_supported: ['client_secret_post'] }),
    preconfigured: { clientId: 'pre', clientSecret: 'sec' },
  });
  assert.equal(postOnly.tokenEndpointAuthMethod, 'client_secret_post');
});

test('no registration endpoint and no client id asks the UI for a client ID', async () => {
  const { registration_endpoint: _, ...noReg } = meta();
  await assert.rejects(resolveClient(new FakeNet().fetch, { ...opts, metadata: noReg }), (e: unknown) => {
    assert.ok(e instanceof ClientIdRequiredError);
    assert.equal(e.code, 'client-id-required');
    return true;
  });
});

test('a CIMD URL is used as client id only when the AS supports it', async () => {
  const cimd = 'https://example.org/client.json';
  const net = new FakeNet().on(`${ISSUER}/register`, () => json({ client_id: 'dcr' }, 201));
  const yes = await resolveClient(net.fetch, {
    ...opts,
    metadata: meta({ client_id_metadata_document_supported: true }),
    clientMetadataUrl: cimd,
  });
  assert.equal(yes.clientId, cimd);
  assert.equal(net.requests.length, 0);
  const no = await resolveClient(net.fetch, { ...opts, metadata: meta(), clientMetadataUrl: cimd });
  assert.equal(no.clientId, 'dcr');
});

test('an http registration endpoint is refused before the request', async () => {
  const net = new FakeNet();
  await assert.rejects(
    resolveClient(net.fetch, { ...opts, metadata: meta({ registration_endpoint: 'http://as.example.com/register' }) }),
    InsecureEndpointError,
  );
  assert.equal(net.requests.length, 0);
});
