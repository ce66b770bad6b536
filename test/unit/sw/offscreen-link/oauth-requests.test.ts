/**
 * The worker side of "requests carry the token" (SPEC E9, N5, H3): a 401 at connect or on a
 * live session gets one refreshed token and one resend; a second 401 or a failed refresh ends
 * in needs-auth; non-OAuth servers and other errors pass through untouched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RemoteError } from '../../../../src/protocol/result.js';
import type { OffscreenMethod, OffscreenParams } from '../../../../src/protocol/offscreen.js';
import type { McpServerConfig } from '../../../../src/storage/config-schema.js';
import { withOAuthRetry, type RequestFn } from '../../../../src/sw/offscreen-link/oauth-requests.js';
import type { UnauthorizedHandler } from '../../../../src/sw/offscreen-link/token-renewal.js';
import { AuthorizationRequiredError } from '../../../../src/sw/auth/errors.js';
import { AuthManager } from '../../../../src/sw/auth/auth-manager.js';
import { MemoryCredentialStore } from '../../../support/memory-credential-store.js';

const oauthServer = {
  id: 'srv',
  name: 'S',
  url: 'https://mcp.example.com/mcp',
  auth: { kind: 'oauth' },
  enabled: true,
  disabledTools: [],
  connectOnStartup: true,
} as McpServerConfig;
const unauthorized = () => new RemoteError({ code: 'auth', message: 'HTTP 401', httpStatus: 401 });
const connectParams = {
  serverId: 'srv',
  connectionId: 'c1',
  url: oauthServer.url,
  headers: { Authorization: 'Bearer OLD' },
  timeoutMs: 60_000,
  fingerprint: 'f'.repeat(64),
};

/** One request the fake offscreen received, its params typed by its method. */
type Sent = { [M in OffscreenMethod]: { method: M; params: OffscreenParams<M> } }[OffscreenMethod];

/** A fake offscreen whose server accepts only `valid` tokens; records what was sent. */
function harness(valid: Set<string>, refreshTo: string[] = ['NEW']) {
  const sent: Sent[] = [];
  let sessionToken = '';
  const request = (async (method: OffscreenMethod, params: unknown) => {
    const call = { method, params } as Sent;
    sent.push(call);
    if (call.method === 'offscreen:connect') {
      const token = /^Bearer (.+)$/.exec(call.params.headers.Authorization ?? '')?.[1] ?? '';
      if (!valid.has(token)) throw unauthorized();
      sessionToken = token;
      return { capabilities: {} };
    }
    if (call.method === 'offscreen:set-authorization') {
      sessionToken = call.params.authorization.slice('Bearer '.length);
      return { updated: true };
    }
    // A new worker's claim: the document holds one live session of `srv` (C7).
    if (method === 'offscreen:claim')
      return {
        sessions: [{ serverId: 'srv', connectionId: 'c1', fingerprint: 'f'.repeat(64), catalogGeneration: 1, catalog: {}, stale: [] }],
        lost: [],
      };
    if (method === 'offscreen:call-tool') {
      if (!valid.has(sessionToken)) throw unauthorized();
      return { content: [{ type: 'text', text: `ran with ${sessionToken}` }] };
    }
    return {};
  }) as RequestFn;
  const refreshes: (string | undefined)[] = [];
  const auth: UnauthorizedHandler = {
    async handleUnauthorized(_cfg, _challenge, options = {}) {
      refreshes.push(options.rejectedToken);
      const state = options.state!;
      state.unauthorizedRetries++;
      if (state.unauthorizedRetries > 1) throw new AuthorizationRequiredError('rejected a freshly issued token; authorize again.');
      const next = refreshTo.shift();
      if (!next) throw new AuthorizationRequiredError('needs authorization (refreshing the token failed: invalid_grant).');
      return next;
    },
  };
  const wrapped = withOAuthRetry({
    request,
    auth,
    configOf: async () => oauthServer,
    authConfigOf: async (c) => ({ id: c.id, url: c.url, auth: { kind: 'oauth' } }),
  });
  return { wrapped, sent, refreshes };
}

test('a 401 at connect refreshes once and connects with the new token', async () => {
  const h = harness(new Set(['NEW']));
  await h.wrapped('offscreen:connect', connectParams);
  assert.deepEqual(h.refreshes, ['OLD']);
  assert.deepEqual(
    h.sent.map((s) => (s.method === 'offscreen:connect' ? s.params.headers.Authorization : undefined)),
    ['Bearer OLD', 'Bearer NEW'],
  );
});

test('a fresh token refused again is needs-auth, not a loop (N5)', async () => {
  const h = harness(new Set(), ['NEW', 'NEWER']);
  await assert.rejects(h.wrapped('offscreen:connect', connectParams), (e: unknown) => e instanceof RemoteError && e.code === 'needs-auth');
  assert.equal(h.sent.filter((s) => s.method === 'offscreen:connect').length, 2);
});

test('a failed refresh at connect is needs-auth with the reason', async () => {
  const h = harness(new Set(), []);
  await assert.rejects(
    h.wrapped('offscreen:connect', connectParams),
    (e: unknown) => e instanceof RemoteError && e.code === 'needs-auth' && /invalid_grant/.test(e.message),
  );
});

test('a 401 on a live session hands it a refreshed token and resends the refused call once', async () => {
  const valid = new Set(['OLD']);
  const h = harness(valid);
  await h.wrapped('offscreen:connect', connectParams);
  valid.delete('OLD'); // the token expired
  valid.add('NEW');
  const result = await h.wrapped('offscreen:call-tool', {
    connectionId: 'c1',
    operationId: 'op1',
    name: 't',
    arguments: {},
    timeoutMs: 60_000,
  });
  assert.deepEqual(result.content, [{ type: 'text', text: 'ran with NEW' }]);
  assert.deepEqual(h.refreshes, ['OLD']);
  assert.deepEqual(
    h.sent.map((s) => s.method),
    ['offscreen:connect', 'offscreen:call-tool', 'offscreen:set-authorization', 'offscreen:call-tool'],
  );
});

test('other errors pass through without any refresh, and a closed connection is never re-authorized', async () => {
  const refreshes: string[] = [];
  const auth: UnauthorizedHandler = {
    async handleUnauthorized() {
      refreshes.push('called');
      return 'NEW';
    },
  };
  const failing = withOAuthRetry({
    request: async () => {
      throw new RemoteError({ code: 'http-status', message: 'HTTP 500', httpStatus: 500 });
    },
    auth,
    configOf: async () => oauthServer,
    authConfigOf: async (c) => ({ id: c.id, url: c.url, auth: { kind: 'oauth' } }),
  });
  await assert.rejects(failing('offscreen:connect', connectParams), /HTTP 500/);
  assert.deepEqual(refreshes, []);

  const h = harness(new Set(['OLD']));
  await h.wrapped('offscreen:connect', connectParams);
  await h.wrapped('offscreen:close', { connectionId: 'c1' });
  // The session is gone: a late 401 for it is not turned into a refresh.
  const late = withOAuthRetry({
    request: (async (method: OffscreenMethod) => {
      if (method === 'offscreen:connect') return { capabilities: {} };
      if (method === 'offscreen:close') return { closed: true };
      throw unauthorized();
    }) as RequestFn,
    auth,
    configOf: async () => oauthServer,
    authConfigOf: async (c) => ({ id: c.id, url: c.url, auth: { kind: 'oauth' } }),
  });
  await late('offscreen:connect', connectParams);
  await late('offscreen:close', { connectionId: 'c1' });
  await assert.rejects(late('offscreen:ping', { connectionId: 'c1' }), (e: unknown) => e instanceof RemoteError && e.httpStatus === 401);
  assert.deepEqual(refreshes, []);
});

test('a bearer or unauthenticated server is never refreshed: its 401 stays an auth error (E1)', async () => {
  const auth: UnauthorizedHandler = { handleUnauthorized: async () => assert.fail('no OAuth for a bearer server') };
  const wrapped = withOAuthRetry({
    request: async () => {
      throw unauthorized();
    },
    auth,
    configOf: async () => ({ ...oauthServer, auth: { kind: 'none' } }),
    authConfigOf: async (c) => ({ id: c.id, url: c.url, auth: { kind: 'none' } }),
  });
  await assert.rejects(
    wrapped('offscreen:connect', connectParams),
    (e: unknown) => e instanceof RemoteError && e.code === 'auth' && e.httpStatus === 401,
  );
});

test('a server set up without authorization that answers 401 Bearer becomes needs-auth with Authorize, not a token error (E3)', async () => {
  const manager = new AuthManager({
    fetch: () => Promise.reject(new Error('no network')),
    now: () => 0,
    authorize: () => Promise.reject(new Error('no window')),
    store: new MemoryCredentialStore(),
    redirectUri: 'https://x.chromiumapp.org/mcp-oauth',
  });
  const wrapped = withOAuthRetry({
    request: async () => {
      throw new RemoteError({ code: 'auth', message: 'HTTP 401', httpStatus: 401, wwwAuthenticate: 'Bearer realm="mcp"' });
    },
    auth: manager,
    configOf: async () => ({ ...oauthServer, auth: { kind: 'none' } }),
    authConfigOf: async (c) => ({ id: c.id, url: c.url, auth: { kind: 'none' } }),
  });
  await assert.rejects(wrapped('offscreen:connect', { ...connectParams, headers: {} }), (e: unknown) => {
    assert.ok(e instanceof RemoteError);
    assert.equal(e.code, 'needs-auth');
    assert.equal(e.action, 'authorize');
    assert.match(e.message, /Bearer challenge.*Switch it to OAuth/);
    return true;
  });
});

test('the server’s challenge reaches the AuthManager; a 403 insufficient_scope becomes needs-auth for a step-up (E3, E7)', async () => {
  const seen: { kind: string; challenge: string | null | undefined }[] = [];
  const challenge401 = 'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"';
  const challenge403 = 'Bearer error="insufficient_scope", scope="mcp:admin"';
  let connects = 0;
  const wrapped = withOAuthRetry({
    request: (async (method: OffscreenMethod) => {
      if (method !== 'offscreen:connect') return {};
      connects++;
      if (connects === 1) throw new RemoteError({ code: 'auth', message: 'HTTP 401', httpStatus: 401, wwwAuthenticate: challenge401 });
      throw new RemoteError({ code: 'auth', message: 'HTTP 403', httpStatus: 403, wwwAuthenticate: challenge403 });
    }) as RequestFn,
    auth: {
      async handleUnauthorized(_cfg, challenge) {
        seen.push({ kind: '401', challenge });
        return 'NEW';
      },
      async handleForbidden(_cfg, challenge, options) {
        seen.push({ kind: '403', challenge });
        assert.equal(options.interactive, false, 'background work never opens a window');
        throw new AuthorizationRequiredError('needs additional permissions (mcp:admin); authorize again.');
      },
    },
    configOf: async () => oauthServer,
    authConfigOf: async (c) => ({ id: c.id, url: c.url, auth: { kind: 'oauth' } }),
  });
  await assert.rejects(
    wrapped('offscreen:connect', connectParams),
    (e: unknown) => e instanceof RemoteError && e.code === 'needs-auth' && /mcp:admin/.test(e.message),
  );
  assert.deepEqual(seen, [
    { kind: '401', challenge: challenge401 },
    { kind: '403', challenge: challenge403 },
  ]);
});

test('a 403 that is not a scope challenge is not an authorization problem and is passed through', async () => {
  const wrapped = withOAuthRetry({
    request: async () => {
      throw new RemoteError({ code: 'auth', message: 'HTTP 403', httpStatus: 403, wwwAuthenticate: 'Bearer error="invalid_token"' });
    },
    auth: { handleUnauthorized: async () => assert.fail('no refresh'), handleForbidden: async () => assert.fail('no step-up') },
    configOf: async () => oauthServer,
    authConfigOf: async (c) => ({ id: c.id, url: c.url, auth: { kind: 'oauth' } }),
  });
  await assert.rejects(wrapped('offscreen:connect', connectParams), (e: unknown) => e instanceof RemoteError && e.httpStatus === 403);
});

test("a session a new worker adopted from the claim is handed the user's new token after Re-authorize (E9, C7)", async () => {
  const h = harness(new Set(['GRANTED']));
  // A new worker: it never saw the connect of the session the document still holds.
  await h.wrapped('offscreen:claim', {});
  assert.equal(await h.wrapped.handTokenToLiveSessions('srv', 'GRANTED'), 1, 'the adopted session took the new token');
  const result = await h.wrapped('offscreen:call-tool', {
    connectionId: 'c1',
    operationId: 'op1',
    name: 't',
    arguments: {},
    timeoutMs: 60_000,
  });
  assert.deepEqual(result.content, [{ type: 'text', text: 'ran with GRANTED' }]);
  assert.deepEqual(h.refreshes, [], 'no refresh was needed');
});

test('a 401 on an adopted session hands it a refreshed token and resends the refused call once (E9, C7)', async () => {
  const h = harness(new Set(['NEW']));
  await h.wrapped('offscreen:claim', {});
  const result = await h.wrapped('offscreen:call-tool', {
    connectionId: 'c1',
    operationId: 'op1',
    name: 't',
    arguments: {},
    timeoutMs: 60_000,
  });
  assert.deepEqual(result.content, [{ type: 'text', text: 'ran with NEW' }]);
  assert.deepEqual(h.refreshes, [undefined], 'one refresh; the refused token was never known to this worker');
  assert.deepEqual(
    h.sent.map((s) => s.method),
    ['offscreen:claim', 'offscreen:call-tool', 'offscreen:set-authorization', 'offscreen:call-tool'],
  );
});
