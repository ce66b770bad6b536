import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exchangeCode, parseTokenResponse, refreshTokens, saneExpiresIn } from '../../../../src/sw/auth/token.js';
import { TokenError, InsecureEndpointError } from '../../../../src/sw/auth/errors.js';
import { FakeNet, ISSUER, MCP, REDIRECT, json } from './fake-net.js';

const TOKEN = `${ISSUER}/token`;
const ok = () => json({ access_token: 'at', token_type: 'Bearer', expires_in: 60, refresh_token: 'rt', scope: 'a' });

test('the code exchange sends resource, verifier and redirect URI; method none sends client_id only', async () => {
  const net = new FakeNet().on(TOKEN, ok);
  const t = await exchangeCode(net.fetch, {
    tokenEndpoint: TOKEN,
    client: { clientId: 'c', tokenEndpointAuthMethod: 'none' },
    code: 'k',
    codeVerifier: 'v',
    redirectUri: REDIRECT,
    resource: MCP,
  });
  assert.deepEqual(t, { accessToken: 'at', expiresIn: 60, refreshToken: 'rt', scope: 'a' });
  const body = Object.fromEntries(new URLSearchParams(net.requests[0]!.body));
  assert.deepEqual(body, {
    grant_type: 'authorization_code',
    code: 'k',
    code_verifier: 'v',
    redirect_uri: REDIRECT,
    resource: MCP,
    client_id: 'c',
  });
  assert.equal(net.requests[0]!.headers.get('authorization'), null);
});

test('client_secret_basic sends form-encoded credentials in the Authorization header', async () => {
  const net = new FakeNet().on(TOKEN, ok);
  await refreshTokens(net.fetch, {
    tokenEndpoint: TOKEN,
    client: { clientId: 'my client', clientSecret: 's:é', tokenEndpointAuthMethod: 'client_secret_basic' },
    refreshToken: 'r',
    resource: MCP,
  });
  const auth = net.requests[0]!.headers.get('authorization')!;
  assert.equal(Buffer.from(auth.replace('Basic ', ''), 'base64').toString('utf8'), 'my+client:s%3A%C3%A9');
  const body = new URLSearchParams(net.requests[0]!.body);
  assert.equal(body.get('client_id'), null);
  assert.equal(body.get('resource'), MCP);
  assert.equal(body.get('grant_type'), 'refresh_token');
});

test('client_secret_post sends the credentials in the body', async () => {
  const net = new FakeNet().on(TOKEN, ok);
  await refreshTokens(net.fetch, {
    tokenEndpoint: TOKEN,
    client: { clientId: 'c', clientSecret: 's', tokenEndpointAuthMethod: 'client_secret_post' },
    refreshToken: 'r',
  });
  const body = new URLSearchParams(net.requests[0]!.body);
  assert.equal(body.get('client_id'), 'c');
  assert.equal(body.get('client_secret'), 's');
  assert.equal(net.requests[0]!.headers.get('authorization'), null);
});

test('invalid token responses are refused', () => {
  const bad = [
    {},
    { access_token: '', token_type: 'Bearer' },
    { access_token: 'x'.repeat(20_000), token_type: 'Bearer' },
    { access_token: 'a', token_type: 'mac' },
    { access_token: 'a' },
    { access_token: 'a', token_type: 'Bearer', scope: 7 },
    { access_token: 'a', token_type: 'Bearer', refresh_token: 3 },
  ];
  for (const b of bad) assert.throws(() => parseTokenResponse(b, TOKEN), TokenError, JSON.stringify(b).slice(0, 60));
});

test('token_type is case-insensitive and a silly expires_in is treated as unknown', () => {
  assert.deepEqual(parseTokenResponse({ access_token: 'a', token_type: 'BEARER', expires_in: -5 }, TOKEN), { accessToken: 'a' });
  assert.equal(saneExpiresIn('3600'), 3600);
  for (const v of [0, -1, Infinity, NaN, 1e12, 'soon', null, true]) assert.equal(saneExpiresIn(v), undefined);
});

test('an error from the token endpoint carries the OAuth error code', async () => {
  const net = new FakeNet().on(TOKEN, () => json({ error: 'invalid_grant', error_description: 'expired' }, 400));
  await assert.rejects(
    refreshTokens(net.fetch, { tokenEndpoint: TOKEN, client: { clientId: 'c', tokenEndpointAuthMethod: 'none' }, refreshToken: 'r' }),
    (e: unknown) => e instanceof TokenError && e.oauthError === 'invalid_grant' && /HTTP 400: invalid_grant — expired/.test(e.message),
  );
});

test('an http token endpoint is refused before sending the code', async () => {
  const net = new FakeNet();
  await assert.rejects(
    exchangeCode(net.fetch, {
      tokenEndpoint: 'http://as.example.com/token',
      client: { clientId: 'c', tokenEndpointAuthMethod: 'none' },
      code: 'k',
      codeVerifier: 'v',
      redirectUri: REDIRECT,
    }),
    InsecureEndpointError,
  );
  assert.equal(net.requests.length, 0);
});
