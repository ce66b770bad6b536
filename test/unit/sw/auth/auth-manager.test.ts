import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AuthManager, bearerHeaders, newRequestAuthState, UNKNOWN_LIFETIME_MS } from '../../../../src/sw/auth/auth-manager.js';
import { MemoryCredentialStore } from '../../../support/memory-credential-store.js';
import {
  AuthorizationCancelledError,
  AuthorizationRequiredError,
  AuthorizationResponseError,
  BearerRejectedError,
  ConfiguredClientIssuerError,
  ForbiddenError,
  FreshTokenRefusedError,
  StepUpLimitError,
} from '../../../../src/sw/auth/errors.js';
import type { AuthServerConfig, AuthorizeFn } from '../../../../src/sw/auth/ports.js';
import { FakeAs, FakeNet, ISSUER, json, MCP, REDIRECT, type FakeAsOptions } from './fake-net.js';

const CFG: AuthServerConfig = { id: 's1', url: MCP, auth: { kind: 'oauth' } };
const KEY = { serverId: 's1', resource: MCP, issuer: ISSUER };

function setup(asOpts: FakeAsOptions = {}, authorize?: AuthorizeFn) {
  const net = new FakeNet();
  const as = new FakeAs(net, asOpts);
  const store = new MemoryCredentialStore();
  const clock = { t: 1_000_000 };
  const manager = new AuthManager({
    fetch: net.fetch,
    now: () => clock.t,
    authorize: authorize ?? as.authorize,
    store,
    redirectUri: REDIRECT,
  });
  return { net, as, store, clock, manager };
}

test('an interactive flow registers, authorizes with PKCE and resource, and stores tokens under the binding', async () => {
  const { as, store, manager, net } = setup({ prm: { scopes_supported: ['mcp'] } });
  const token = await manager.getAccessToken(CFG, { interactive: true });
  assert.equal(token, 'at-2');
  const p = new URL(as.authorizeUrls[0]!).searchParams;
  assert.equal(p.get('resource'), MCP);
  assert.equal(p.get('code_challenge_method'), 'S256');
  assert.equal(p.get('client_id'), 'client-1');
  assert.equal(p.get('scope'), 'mcp');
  assert.deepEqual(await store.getBinding('s1'), { resource: MCP, issuer: ISSUER });
  assert.equal((await store.getRefreshToken(KEY))?.token, 'rt-2');
  assert.equal((await store.getClient(KEY))?.clientId, 'client-1');
  const before = net.requests.length;
  assert.equal(await manager.getAccessToken(CFG), 'at-2');
  assert.equal(net.requests.length, before, 'a cached token needs no request');
});

test('an entry with another account on its URL asks the AS for an account choice; a lone entry does not (S3)', async () => {
  const lone = setup();
  await lone.manager.getAccessToken(CFG, { interactive: true });
  assert.equal(new URL(lone.as.authorizeUrls[0]!).searchParams.get('prompt'), null);

  const chooser = setup({ metadata: { prompt_values_supported: ['none', 'login', 'select_account'] } });
  await chooser.manager.authorize({ ...CFG, auth: { kind: 'oauth', otherAccounts: true } });
  assert.equal(new URL(chooser.as.authorizeUrls[0]!).searchParams.get('prompt'), 'select_account');

  const oidc = setup({ metadata: { prompt_values_supported: ['none', 'login', 'consent'] } });
  await oidc.manager.authorize({ ...CFG, auth: { kind: 'oauth', otherAccounts: true } });
  assert.equal(new URL(oidc.as.authorizeUrls[0]!).searchParams.get('prompt'), 'login');
});

test('without credentials and without interaction, the result is needs-auth and no window opens', async () => {
  const { as, manager } = setup();
  await assert.rejects(manager.getAccessToken(CFG), (e: unknown) => e instanceof AuthorizationRequiredError && e.code === 'needs-auth');
  assert.equal(as.authorizeUrls.length, 0);
});

test('the scope of the current challenge is used for the first authorization', async () => {
  const { as, manager } = setup({ prm: { scopes_supported: ['other'] } });
  await manager.getAccessToken(CFG, {
    interactive: true,
    wwwAuthenticate: 'Bearer scope="tools:call", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
  });
  assert.equal(new URL(as.authorizeUrls[0]!).searchParams.get('scope'), 'tools:call');
});

test("a first Authorize asks the server itself: its 401 challenge's resource_metadata and scope drive discovery (E3, E7)", async () => {
  const { as, net, manager } = setup({ prm: false });
  const prmUrl = 'https://mcp.example.com/meta/prm';
  net.on(prmUrl, { resource: MCP, authorization_servers: [ISSUER], scopes_supported: ['read', 'admin'] });
  net.on(MCP, (req) =>
    req.method === 'POST' && !req.headers.has('authorization')
      ? new Response('{}', { status: 401, headers: { 'www-authenticate': `Bearer resource_metadata="${prmUrl}", scope="read"` } })
      : new Response('unexpected', { status: 500 }),
  );
  assert.equal(await manager.authorize(CFG), 'at-2');
  assert.equal(as.authorizeUrls.length, 1);
  assert.equal(new URL(as.authorizeUrls[0]!).searchParams.get('scope'), 'read');
  const urls = net.urls();
  assert.equal(urls[0], MCP, 'the unauthenticated initialize goes first');
  assert.equal((JSON.parse(net.requests[0]!.body) as { method: string }).method, 'initialize');
  assert.equal(urls[1], prmUrl, 'the challenge PRM has priority over the well-known URLs');
  assert.ok(!urls.some((u) => u.includes('/.well-known/oauth-protected-resource')));
  assert.ok(!urls.includes('https://mcp.example.com/register'), 'no 2025-03-26 fallback');
});

test('a failure on the 2025-03-26 path says which metadata documents were tried first (E3)', async () => {
  const net = new FakeNet();
  const manager = new AuthManager({
    fetch: net.fetch,
    now: () => 0,
    authorize: () => Promise.reject(new Error('no window')),
    store: new MemoryCredentialStore(),
    redirectUri: REDIRECT,
  });
  await assert.rejects(manager.authorize(CFG), (e: unknown) => {
    assert.ok(e instanceof Error);
    assert.match(e.message, /https:\/\/mcp\.example\.com\/register/);
    assert.match(
      e.message,
      /No protected resource metadata exists — tried https:\/\/mcp\.example\.com\/\.well-known\/oauth-protected-resource\/mcp, /,
    );
    assert.match(
      e.message,
      /2025-03-26 rules were used.*publishes no metadata either \(tried https:\/\/mcp\.example\.com\/\.well-known\/oauth-authorization-server/,
    );
    return true;
  });
});

test('an Authorize whose caller already asked the server sends no second unauthenticated initialize', async () => {
  const { as, net, manager } = setup({ prm: false });
  const prmUrl = 'https://mcp.example.com/meta/prm';
  net.on(prmUrl, { resource: MCP, authorization_servers: [ISSUER] });
  net.on(MCP, () => new Response('unexpected', { status: 500 }));
  assert.equal(await manager.authorize(CFG, { wwwAuthenticate: `Bearer resource_metadata="${prmUrl}"` }), 'at-2');
  assert.equal(net.urls()[0], prmUrl);
  assert.ok(!net.urls().includes(MCP), 'the caller probed once; the flow does not probe again');
  assert.equal(as.authorizeUrls.length, 1);

  // The server answered without a challenge: still no second probe, discovery goes to the well-known URLs.
  const second = setup();
  second.net.on(MCP, () => new Response('unexpected', { status: 500 }));
  assert.equal(await second.manager.authorize({ ...CFG, id: 's2' }, { wwwAuthenticate: undefined }), 'at-2');
  assert.ok(!second.net.urls().includes(MCP));
});

test('a token near expiry is refreshed with resource, and the rotated refresh token replaces the old one', async () => {
  const { as, store, clock, manager, net } = setup({ expiresIn: 600 });
  await manager.getAccessToken(CFG, { interactive: true });
  clock.t += 599_000;
  assert.equal(await manager.getAccessToken(CFG), 'at-3');
  const refreshReq = net.requests.filter((r) => r.url.endsWith('/token')).at(-1)!;
  assert.equal(new URLSearchParams(refreshReq.body).get('resource'), MCP);
  assert.equal((await store.getRefreshToken(KEY))?.token, 'rt-3');
  assert.ok(!as.liveRefresh.has('rt-2'));
});

test('the resource parameter is the PRM resource exactly as published: a pathless root resource stays without "/" in authorize, code and refresh requests', async () => {
  const { as, clock, manager, net, store } = setup({ expiresIn: 600, prm: { resource: 'https://mcp.example.com' } });
  await manager.getAccessToken(CFG, { interactive: true });
  assert.equal(new URL(as.authorizeUrls[0]!).searchParams.get('resource'), 'https://mcp.example.com');
  clock.t += 599_000;
  await manager.getAccessToken(CFG);
  const tokenBodies = net.requests.filter((r) => r.url.endsWith('/token')).map((r) => new URLSearchParams(r.body));
  assert.deepEqual(
    tokenBodies.map((b) => [b.get('grant_type'), b.get('resource')]),
    [
      ['authorization_code', 'https://mcp.example.com'],
      ['refresh_token', 'https://mcp.example.com'],
    ],
  );
  // Credentials stay bound to the MCP URL itself (E10).
  assert.deepEqual(await store.getBinding('s1'), { resource: MCP, issuer: ISSUER });
});

test('concurrent refreshes of one binding share a single token request', async () => {
  const { as, clock, manager } = setup({ expiresIn: 60 });
  await manager.getAccessToken(CFG, { interactive: true });
  const calls = as.tokenCalls;
  clock.t += 3_600_000;
  const tokens = await Promise.all([manager.getAccessToken(CFG), manager.getAccessToken(CFG), manager.getAccessToken(CFG)]);
  assert.deepEqual(new Set(tokens).size, 1);
  assert.equal(as.tokenCalls, calls + 1);
});

test('a dead refresh token leads to needs-auth with the reason, and is dropped', async () => {
  const { as, store, clock, manager } = setup({ expiresIn: 60 });
  await manager.getAccessToken(CFG, { interactive: true });
  as.liveRefresh.clear();
  clock.t += 3_600_000;
  await assert.rejects(manager.getAccessToken(CFG), (e: unknown) => {
    assert.ok(e instanceof AuthorizationRequiredError);
    assert.match(e.message, /refreshing the token failed: .*invalid_grant/);
    return true;
  });
  assert.equal(await store.getRefreshToken(KEY), undefined);
});

test('a 401 refreshes once; a second 401 in the same request is not retried', async () => {
  const { as, manager } = setup();
  const first = await manager.getAccessToken(CFG, { interactive: true });
  manager.tokenAccepted('s1', first);
  const state = newRequestAuthState();
  const second = await manager.handleUnauthorized(CFG, 'Bearer error="invalid_token"', { state, rejectedToken: first });
  assert.notEqual(second, first);
  const calls = as.tokenCalls;
  await assert.rejects(
    manager.handleUnauthorized(CFG, 'Bearer error="invalid_token"', { state, rejectedToken: second }),
    (e: unknown) => e instanceof FreshTokenRefusedError && /refused the token its own authorization server had just issued/.test(e.message),
  );
  assert.equal(as.tokenCalls, calls);
});

test('a 401 for a token that was already replaced returns the new token without refreshing', async () => {
  const { as, manager } = setup();
  const first = await manager.getAccessToken(CFG, { interactive: true });
  manager.tokenAccepted('s1', first);
  const second = await manager.handleUnauthorized(CFG, null, { rejectedToken: first });
  const calls = as.tokenCalls;
  assert.equal(await manager.handleUnauthorized(CFG, null, { rejectedToken: first }), second);
  assert.equal(as.tokenCalls, calls);
});

test('a 401 for a bearer server asks the user to update the token and never starts OAuth', async () => {
  const { net, as, manager } = setup();
  const cfg: AuthServerConfig = { id: 'b', url: MCP, auth: { kind: 'bearer', token: 'tok' } };
  assert.deepEqual(await manager.getAuthHeaders(cfg), bearerHeaders('tok'));
  assert.deepEqual(bearerHeaders('tok'), { authorization: 'Bearer tok' });
  await assert.rejects(
    manager.handleUnauthorized(cfg, 'Bearer resource_metadata="https://mcp.example.com/x"', { interactive: true }),
    (e: unknown) => {
      assert.ok(e instanceof BearerRejectedError);
      assert.equal(e.message, 'The token was rejected — update it.');
      return true;
    },
  );
  assert.equal(net.requests.length + as.authorizeUrls.length, 0);
});

test('step-up asks for granted ∪ challenged scopes and stops after 3 authorizations however the challenge varies', async () => {
  const { as, manager } = setup({ prm: { scopes_supported: ['read'] } });
  await manager.getAccessToken(CFG, { interactive: true });
  const state = newRequestAuthState();
  for (let i = 1; i <= 3; i++) {
    await manager.handleForbidden(CFG, `Bearer error="insufficient_scope", scope="extra${i}"`, { state, interactive: true });
  }
  assert.equal(as.authorizeUrls.length, 4);
  assert.equal(new URL(as.authorizeUrls[1]!).searchParams.get('scope'), 'read extra1');
  assert.equal(new URL(as.authorizeUrls[2]!).searchParams.get('scope'), 'read extra1 extra2');
  await assert.rejects(
    manager.handleForbidden(CFG, 'Bearer error="insufficient_scope", scope="extra4 again"', { state, interactive: true }),
    StepUpLimitError,
  );
  assert.equal(as.authorizeUrls.length, 4);
});

test('Re-authorize after a step-up keeps every granted scope: a stale challenge never narrows them (E7)', async () => {
  const { as, manager } = setup({ prm: { scopes_supported: ['read'] } });
  await manager.getAccessToken(CFG, { interactive: true });
  await manager.handleForbidden(CFG, 'Bearer error="insufficient_scope", scope="admin"', {
    state: newRequestAuthState(),
    interactive: true,
  });
  await manager.authorize(CFG);
  assert.deepEqual(
    as.authorizeUrls.map((u) => new URL(u).searchParams.get('scope')),
    ['read', 'read admin', 'read admin'],
  );
});

test('a 403 that is not insufficient_scope does not start authorization', async () => {
  const { as, manager } = setup();
  await manager.getAccessToken(CFG, { interactive: true });
  await assert.rejects(
    manager.handleForbidden(CFG, 'Bearer error="invalid_request"', { state: newRequestAuthState(), interactive: true }),
    ForbiddenError,
  );
  assert.equal(as.authorizeUrls.length, 1);
});

test('when the PRM names another issuer, the old refresh token and client id never reach it', async () => {
  const { net, as, clock, store, manager } = setup({ expiresIn: 60 });
  await manager.getAccessToken(CFG, { interactive: true });
  const NEW = 'https://as2.example.com';
  const manager2 = new AuthManager({ fetch: net.fetch, now: () => clock.t, authorize: as.authorize, store, redirectUri: REDIRECT });
  const as2 = new FakeAs(net, { issuer: NEW }); // re-registers the PRM, now naming as2
  clock.t += 3_600_000;
  await assert.rejects(manager2.getAccessToken(CFG), /now protected by https:\/\/as2\.example\.com/);
  assert.ok(!net.requests.some((r) => r.url.startsWith(NEW) && r.url.endsWith('/token')));
  assert.equal(await store.getRefreshToken(KEY), undefined);
  const m3 = new AuthManager({ fetch: net.fetch, now: () => clock.t, authorize: as2.authorize, store, redirectUri: REDIRECT });
  await m3.getAccessToken(CFG, { interactive: true });
  assert.equal(new URL(as2.authorizeUrls[0]!).searchParams.get('client_id'), 'client-1');
  assert.equal(as2.registrations, 1, 'the new AS got its own registration');
  assert.deepEqual(await store.getBinding('s1'), { resource: MCP, issuer: NEW });
});

test('a changed server URL never reuses credentials of the old resource', async () => {
  const { store, manager } = setup();
  await manager.getAccessToken(CFG, { interactive: true });
  const moved: AuthServerConfig = { ...CFG, url: 'https://mcp.example.com/v2/mcp' };
  await assert.rejects(manager.getAccessToken(moved), AuthorizationRequiredError);
  assert.equal(await store.getBinding('s1'), undefined);
  assert.equal(store.refreshTokens.size + store.accessTokens.size + store.clients.size, 0);
});

test('forget revokes at the revocation endpoint and clears every credential', async () => {
  const { as, store, manager } = setup();
  await manager.getAccessToken(CFG, { interactive: true });
  const result = await manager.forget(CFG);
  assert.deepEqual(result, { revoked: true });
  assert.deepEqual(as.revoked, ['rt-2', 'at-2']);
  assert.equal(await store.getBinding('s1'), undefined);
  assert.equal(store.refreshTokens.size + store.accessTokens.size + store.clients.size, 0);
});

test("a refused revocation reports the AS's error and error_description, bounded, and still deletes locally", async () => {
  const { net, store, manager } = setup();
  await manager.getAccessToken(CFG, { interactive: true });
  net.on(`${ISSUER}/revoke`, () => json({ error: 'invalid_client', error_description: 'x'.repeat(1000) }, 401));
  const r = await manager.forget(CFG);
  assert.match(r.revokeError ?? '', /HTTP 401: invalid_client — x+/);
  assert.ok(r.revokeError!.length <= 301, 'bounded');
  assert.equal(await store.getBinding('s1'), undefined);
});

test('a closed window is a cancellation and stores nothing', async () => {
  const { store, manager } = setup({}, async () => {
    throw new Error('The user did not approve access.');
  });
  await assert.rejects(manager.getAccessToken(CFG, { interactive: true }), AuthorizationCancelledError);
  assert.equal(await store.getBinding('s1'), undefined);
});

test('a callback from another issuer is refused before the code is exchanged', async () => {
  // The callback runs during getAccessToken, after setup() has returned `as`.
  const { as, manager } = setup({}, async (url) => {
    const cb = new URL(await as.authorize(url));
    cb.searchParams.set('iss', 'https://evil.example');
    return cb.href;
  });
  await assert.rejects(manager.getAccessToken(CFG, { interactive: true }), AuthorizationResponseError);
  assert.equal(as.tokenCalls, 0);
});

test('a preconfigured client id is used without registration', async () => {
  const { as, manager } = setup();
  await manager.getAccessToken({ ...CFG, auth: { kind: 'oauth', clientId: 'mine' } }, { interactive: true });
  assert.equal(as.registrations, 0);
  assert.equal(new URL(as.authorizeUrls[0]!).searchParams.get('client_id'), 'mine');
});

test('an unknown token lifetime with a refresh token is refreshed conservatively', async () => {
  const { store, manager, clock } = setup({ expiresIn: -1 });
  await manager.getAccessToken(CFG, { interactive: true });
  assert.equal((await store.getAccessToken(KEY))?.expiresAt, clock.t + UNKNOWN_LIFETIME_MS);
});

test('two simultaneous interactive requests open one authorization window', async () => {
  const { as, manager } = setup();
  const [a, b] = await Promise.all([manager.getAccessToken(CFG, { interactive: true }), manager.authorize(CFG)]);
  assert.equal(a, b);
  assert.equal(as.authorizeUrls.length, 1);
});

test('the authorization a 401 starts counts toward the 3 authorizations one request may make', async () => {
  const { as, manager } = setup();
  const state = newRequestAuthState();
  await manager.handleUnauthorized(CFG, 'Bearer error="invalid_token"', { state, interactive: true });
  for (let i = 1; i <= 2; i++) {
    await manager.handleForbidden(CFG, `Bearer error="insufficient_scope", scope="s${i}"`, { state, interactive: true });
  }
  assert.equal(as.authorizeUrls.length, 3);
  await assert.rejects(
    manager.handleForbidden(CFG, 'Bearer error="insufficient_scope", scope="s3"', { state, interactive: true }),
    StepUpLimitError,
  );
  assert.equal(as.authorizeUrls.length, 3);
});

test('a configured client is pinned to the issuer it was first used with', async () => {
  const { store, manager } = setup();
  await manager.getAccessToken({ ...CFG, auth: { kind: 'oauth', clientId: 'mine' } }, { interactive: true });
  assert.equal(store.clientIssuers.get('s1'), ISSUER);
});

test('a configured client id and secret never reach an authorization server other than the pinned one (E10)', async () => {
  const { net, store, clock } = setup();
  const NEW = 'https://as2.example.com';
  const as2 = new FakeAs(net, { issuer: NEW }); // the PRM now names as2
  const manager = new AuthManager({ fetch: net.fetch, now: () => clock.t, authorize: as2.authorize, store, redirectUri: REDIRECT });
  const pinned: AuthServerConfig = { ...CFG, auth: { kind: 'oauth', clientId: 'mine', clientSecret: 'sekrit', clientIssuer: ISSUER } };
  const err = await manager.getAccessToken(pinned, { interactive: true }).then(
    () => assert.fail('expected a refusal'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ConfiguredClientIssuerError);
  assert.equal(err.code, 'client-issuer-changed');
  assert.match(err.message, /as2\.example\.com/);
  assert.equal(as2.authorizeUrls.length, 0, 'no authorization request went to the new AS');
  const leaked = net.requests.filter(
    (r) => r.url.startsWith(NEW) && (JSON.stringify(r).includes('mine') || JSON.stringify(r).includes('sekrit')),
  );
  assert.deepEqual(leaked, [], 'neither the client id nor the secret was sent to the new AS');
  assert.equal(as2.registrations, 0);
});

test('Forget authorization unpins the configured client, so the user can choose to use it with the new issuer', async () => {
  const { store, manager } = setup();
  await manager.getAccessToken({ ...CFG, auth: { kind: 'oauth', clientId: 'mine' } }, { interactive: true });
  await manager.forget({ ...CFG, auth: { kind: 'oauth', clientId: 'mine', clientIssuer: ISSUER } });
  assert.equal(store.clientIssuers.has('s1'), false);
});

test('E9: when a new binding is written, its access token is already stored: a connect it starts finds the token', async () => {
  const seenWhenBound: (string | undefined)[] = [];
  class WatchingStore extends MemoryCredentialStore {
    override async putBinding(serverId: string, binding: Parameters<MemoryCredentialStore['putBinding']>[1]) {
      const fresh = binding && !this.bindings.has(serverId);
      await super.putBinding(serverId, binding);
      if (fresh) seenWhenBound.push((await this.getAccessToken({ serverId, ...binding }))?.token);
    }
  }
  const net = new FakeNet();
  const as = new FakeAs(net, {});
  const store = new WatchingStore();
  const manager = new AuthManager({ fetch: net.fetch, now: () => 1_000_000, authorize: as.authorize, store, redirectUri: REDIRECT });
  const token = await manager.getAccessToken({ ...CFG, auth: { kind: 'oauth', clientId: 'pre-registered' } }, { interactive: true });
  assert.deepEqual(seenWhenBound, [token]);
});

test('N5: a server that refuses the token its AS just issued gets one attempt: no refresh, a terminal error, no token request until the user asks', async () => {
  const { as, manager } = setup();
  const fresh = await manager.authorize(CFG);
  assert.equal(as.authorizeUrls.length, 1);
  const afterExchange = as.tokenCalls;
  await assert.rejects(
    manager.handleUnauthorized(CFG, 'Bearer error="invalid_token"', { rejectedToken: fresh }),
    (e: unknown) =>
      e instanceof FreshTokenRefusedError && e.code === 'auth' && e.action === 'retry' && e.wording?.code === 'reasonFreshTokenRefused',
  );
  assert.equal(as.tokenCalls, afterExchange, 'the seconds-old token is not refreshed');
  // Retry, a reconnect, a worker-side connect: the same error, without a token request.
  await assert.rejects(manager.getAccessToken(CFG), FreshTokenRefusedError);
  await assert.rejects(manager.handleUnauthorized(CFG, null, { rejectedToken: fresh }), FreshTokenRefusedError);
  assert.equal(as.tokenCalls, afterExchange);
  assert.equal(as.authorizeUrls.length, 1, 'no second authorization on its own');
  // A changed configuration tries again (here: a refresh with the stored refresh token).
  const edited: AuthServerConfig = { ...CFG, auth: { kind: 'oauth', scopes: ['mcp'] } };
  assert.notEqual(await manager.getAccessToken(edited), fresh);
  // The user's explicit "Re-authorize" is one more attempt.
  await manager.authorize(CFG);
  assert.equal(as.authorizeUrls.length, 2);
});

test('N5: a token a server accepted and later refuses is still refreshed once (not a fresh-token refusal)', async () => {
  const { as, manager } = setup();
  const token = await manager.authorize(CFG);
  manager.tokenAccepted('s1', token);
  const calls = as.tokenCalls;
  assert.notEqual(await manager.handleUnauthorized(CFG, null, { rejectedToken: token }), token);
  assert.equal(as.tokenCalls, calls + 1);
});
