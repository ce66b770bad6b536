import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAuthorizationUrl, mapAuthorizeFailure, parseAuthorizationCallback } from '../../../../src/sw/auth/authorize.js';
import { createPkce, randomState, s256 } from '../../../../src/sw/auth/pkce.js';
import {
  AuthorizationCancelledError,
  AuthorizationDeniedError,
  AuthorizationResponseError,
  InsecureEndpointError,
} from '../../../../src/sw/auth/errors.js';
import { ISSUER, MCP, REDIRECT } from './fake-net.js';

test('PKCE verifier is 43 base64url chars and the challenge is its S256 (RFC 7636 appendix B)', async () => {
  const p = await createPkce();
  assert.match(p.verifier, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(p.challenge, await s256(p.verifier));
  assert.equal(await s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'), 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  assert.notEqual(randomState(), randomState());
});

test('the authorization URL carries every parameter, resource included', () => {
  const url = new URL(
    buildAuthorizationUrl({
      authorizationEndpoint: `${ISSUER}/authorize?tenant=1`,
      clientId: 'c',
      redirectUri: REDIRECT,
      codeChallenge: 'ch',
      state: 'st',
      scope: 'a b',
      resource: MCP,
    }),
  );
  const p = Object.fromEntries(url.searchParams);
  assert.deepEqual(p, {
    tenant: '1',
    response_type: 'code',
    client_id: 'c',
    redirect_uri: REDIRECT,
    code_challenge: 'ch',
    code_challenge_method: 'S256',
    state: 'st',
    scope: 'a b',
    resource: MCP,
  });
});

test('an http authorization endpoint is refused', () => {
  assert.throws(
    () =>
      buildAuthorizationUrl({
        authorizationEndpoint: 'http://as.example.com/a',
        clientId: 'c',
        redirectUri: REDIRECT,
        codeChallenge: 'x',
        state: 's',
      }),
    InsecureEndpointError,
  );
});

const expect = { state: 'st', redirectUri: REDIRECT, issuer: ISSUER, issRequired: false };
const cb = (q: Record<string, string>) => `${REDIRECT}?${new URLSearchParams(q)}`;

test('a callback with the exact state yields the code', () => {
  assert.deepEqual(parseAuthorizationCallback(cb({ code: 'k', state: 'st' }), expect), { code: 'k' });
});

test('a wrong or missing state is rejected', () => {
  assert.throws(() => parseAuthorizationCallback(cb({ code: 'k', state: 'st2' }), expect), AuthorizationResponseError);
  assert.throws(() => parseAuthorizationCallback(cb({ code: 'k' }), expect), /state mismatch/);
});

test('a returned iss must equal the issuer exactly, and is required when the AS declares it', () => {
  assert.throws(
    () => parseAuthorizationCallback(cb({ code: 'k', state: 'st', iss: 'https://evil.example' }), expect),
    /issuer check failed: the authorization response names the issuer "https:\/\/evil\.example"/,
  );
  assert.throws(() => parseAuthorizationCallback(cb({ code: 'k', state: 'st', iss: `${ISSUER}/` }), expect), AuthorizationResponseError);
  assert.throws(
    () => parseAuthorizationCallback(cb({ code: 'k', state: 'st' }), { ...expect, issRequired: true }),
    /issuer check failed.*"\(none\)"/,
  );
  assert.deepEqual(parseAuthorizationCallback(cb({ code: 'k', state: 'st', iss: ISSUER }), { ...expect, issRequired: true }), {
    code: 'k',
  });
});

test('an error response becomes a clear message', () => {
  assert.throws(
    () => parseAuthorizationCallback(cb({ error: 'access_denied', error_description: 'User said no', state: 'st' }), expect),
    (e: unknown) => e instanceof AuthorizationDeniedError && e.oauthError === 'access_denied' && /denied.*User said no/.test(e.message),
  );
});

test('a callback at another address or without a code is rejected', () => {
  assert.throws(() => parseAuthorizationCallback('https://evil.example/mcp-oauth?code=k&state=st', expect), /unexpected address/);
  assert.throws(() => parseAuthorizationCallback(cb({ state: 'st' }), expect), /no authorization code/);
});

test('a closed window becomes AuthorizationCancelledError; other failures pass through', () => {
  assert.ok(mapAuthorizeFailure(new Error('The user did not approve access.')) instanceof AuthorizationCancelledError);
  const other = new Error('boom');
  assert.equal(mapAuthorizeFailure(other), other);
});
