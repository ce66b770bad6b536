/**
 * Step-up from a user action (SPEC E7, N5, H3), at the panel level: a panel-started tool call
 * refused with 403 insufficient_scope fails with `insufficient-scope` (no window, no resend);
 * "Grant more access" runs the real AuthManager's interactive step-up with granted ∪ challenged
 * scopes and hands the token to the live session; re-running then succeeds. However the
 * challenge text varies, one call gets at most 3 authorizations. Also the needs-auth text a
 * failed background refresh leaves on the card (E9 beyond) and the action that picks the card's button.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RemoteError, toWireError } from '../../../../src/protocol/result.js';
import type { OffscreenMethod, OffscreenParams } from '../../../../src/protocol/offscreen.js';
import type { McpServerConfig } from '../../../../src/storage/config-schema.js';
import { AuthManager, SIGN_IN_EXPIRED } from '../../../../src/sw/auth/auth-manager.js';
import { MemoryCredentialStore } from '../../../support/memory-credential-store.js';
import { AuthorizationRequiredError, StepUpLimitError } from '../../../../src/sw/auth/errors.js';
import type { AuthServerConfig } from '../../../../src/sw/auth/ports.js';
import { withOAuthRetry, type RequestFn } from '../../../../src/sw/offscreen-link/oauth-requests.js';
import { INSUFFICIENT_SCOPE_CODE, StepUpTracker } from '../../../../src/sw/auth/step-up.js';
import { FakeAs, FakeNet, MCP, REDIRECT } from './fake-net.js';

const CFG: AuthServerConfig = { id: 's1', url: MCP, auth: { kind: 'oauth' } };
const CONFIG = {
  id: 's1',
  name: 'S',
  url: MCP,
  auth: { kind: 'oauth' },
  enabled: true,
  disabledTools: [],
  connectOnStartup: true,
} as McpServerConfig;
const CALL = { connectionId: 'c1', operationId: 'op', name: 'admin', arguments: {}, timeoutMs: 60_000 };

/** One request the fake offscreen received, its params typed by its method. */
type Sent = { [M in OffscreenMethod]: { method: M; params: OffscreenParams<M> } }[OffscreenMethod];

/**
 * The real AuthManager over a fake AS; a fake offscreen whose server accepts the call only
 * with a token in `accepted`, and otherwise answers 403 with the next challenge of `challenges`.
 */
async function setup(challenges: (i: number) => string) {
  const net = new FakeNet();
  const as = new FakeAs(net, { prm: { scopes_supported: ['read'] } });
  const manager = new AuthManager({
    fetch: net.fetch,
    now: () => 1_000_000,
    authorize: as.authorize,
    store: new MemoryCredentialStore(),
    redirectUri: REDIRECT,
  });
  const accepted = new Set<string>();
  let sessionToken = '';
  let refused = 0;
  const sent: Sent[] = [];
  const request = (async (method: OffscreenMethod, params: unknown) => {
    const call = { method, params } as Sent;
    sent.push(call);
    if (call.method === 'offscreen:connect') {
      sessionToken = /^Bearer (.+)$/.exec(call.params.headers.Authorization ?? '')![1]!;
      return { capabilities: {} };
    }
    if (call.method === 'offscreen:set-authorization') {
      sessionToken = call.params.authorization.slice('Bearer '.length);
      return { updated: true };
    }
    if (method === 'offscreen:call-tool') {
      if (accepted.has(sessionToken)) return { content: [{ type: 'text', text: `ran with ${sessionToken}` }] };
      throw new RemoteError({ code: 'auth', message: 'HTTP 403', httpStatus: 403, wwwAuthenticate: challenges(++refused) });
    }
    return {};
  }) as RequestFn;
  const deps = { configOf: async () => CONFIG, authConfigOf: async () => CFG };
  const wrapped = withOAuthRetry({ request, auth: manager, ...deps });
  const stepUps = new StepUpTracker({ auth: manager, ...deps, handOver: wrapped.handTokenToLiveSessions });
  const first = await manager.getAccessToken(CFG, { interactive: true });
  await wrapped('offscreen:connect', {
    serverId: 's1',
    connectionId: 'c1',
    url: MCP,
    headers: { Authorization: `Bearer ${first}` },
    timeoutMs: 60_000,
    fingerprint: 'f'.repeat(64),
  });
  /** What panel:call-tool does. */
  const panelCall = () => stepUps.track('s1', 'admin', () => wrapped('offscreen:call-tool', CALL));
  return { as, first, accepted, sent, stepUps, panelCall, calls: () => sent.filter((s) => s.method === 'offscreen:call-tool').length };
}

const isInsufficientScope = (e: unknown) =>
  e instanceof RemoteError && e.code === INSUFFICIENT_SCOPE_CODE && /Grant more access/.test(e.message);

test('a 403 insufficient_scope on a panel call is offered as a step-up: no window, no resend', async () => {
  const h = await setup(() => 'Bearer error="insufficient_scope", scope="read admin"');
  await assert.rejects(h.panelCall(), isInsufficientScope);
  assert.equal(h.calls(), 1, 'the refused call was sent once');
  assert.equal(h.as.authorizeUrls.length, 1, 'only the first authorization: background work opens no window');
  assert.equal(h.stepUps.pending('s1', 'admin'), true);
});

test('"Grant more access" asks for granted ∪ challenged scope, hands the token to the session, and the re-run succeeds', async () => {
  const h = await setup(() => 'Bearer error="insufficient_scope", scope="admin"');
  await assert.rejects(h.panelCall(), isInsufficientScope);
  const granted = await h.stepUps.grant('s1', 'admin');
  assert.equal(granted.granted, true);
  assert.ok(granted.sessionsUpdated >= 1, 'the live session got the new token');
  assert.equal(new URL(h.as.authorizeUrls[1]!).searchParams.get('scope'), 'read admin');
  assert.equal(h.calls(), 1, 'granting does not re-send the call (H3)');
  const handed = h.sent.at(-1)!;
  assert.equal(handed.method, 'offscreen:set-authorization');
  const stepped = handed.params.authorization.slice('Bearer '.length);
  assert.notEqual(stepped, h.first, 'the session now carries the stepped-up token');
  h.accepted.add(stepped); // the server accepts the token with the new scope
  const result = (await h.panelCall()) as unknown as { content: { text: string }[] };
  assert.equal(result.content[0]!.text, `ran with ${stepped}`);
  assert.equal(h.stepUps.pending('s1', 'admin'), false, 'success ends the step-up');
});

test('one call gets at most 3 step-up authorizations however the challenge text varies (N5)', async () => {
  const h = await setup((i) => `Bearer error="insufficient_scope", scope="extra${i} read", error_description="try ${i}"`);
  for (let i = 1; i <= 3; i++) {
    await assert.rejects(h.panelCall(), isInsufficientScope);
    await h.stepUps.grant('s1', 'admin');
  }
  await assert.rejects(h.panelCall(), isInsufficientScope);
  await assert.rejects(
    h.stepUps.grant('s1', 'admin'),
    (e: unknown) => e instanceof RemoteError && e.code === new StepUpLimitError('').code,
  );
  assert.equal(h.as.authorizeUrls.length, 1 + 3, 'the first authorization and 3 step-ups, no more');
  assert.equal(h.calls(), 4, 'each call ran only when the user ran it');
  await assert.rejects(h.stepUps.grant('s1', 'admin'), (e: unknown) => e instanceof RemoteError && e.code === 'bad-request');
});

test('a grant without a refused call is refused and opens no window', async () => {
  const h = await setup(() => 'Bearer error="insufficient_scope", scope="x"');
  await assert.rejects(h.stepUps.grant('s1', 'admin'), (e: unknown) => e instanceof RemoteError && e.code === 'bad-request');
  assert.equal(h.as.authorizeUrls.length, 1);
});

test('a refresh the AS refuses with no user present says exactly what to do (E9 beyond)', async () => {
  const net = new FakeNet();
  const as = new FakeAs(net, { expiresIn: 60 });
  const clock = { t: 1_000_000 };
  const manager = new AuthManager({
    fetch: net.fetch,
    now: () => clock.t,
    authorize: as.authorize,
    store: new MemoryCredentialStore(),
    redirectUri: REDIRECT,
  });
  await manager.getAccessToken(CFG, { interactive: true });
  as.liveRefresh.clear();
  clock.t += 3_600_000;
  let message = '';
  await assert.rejects(manager.getAccessToken(CFG), (e: unknown) => {
    assert.ok(e instanceof AuthorizationRequiredError);
    message = e.message;
    // The card's button then carries the same word, from the action, not from the text.
    assert.equal(e.action, 'reauthorize');
    assert.equal(toWireError(e, 'auth').action, 'reauthorize');
    return true;
  });
  assert.ok(message.startsWith('Sign-in expired — click Re-authorize.'), message);
  assert.equal(SIGN_IN_EXPIRED, 'Sign-in expired — click Re-authorize.');
  assert.match(message, /invalid_grant/);
});

test('a server never authorized needs "Authorize": its needs-auth error asks for authorize', async () => {
  const manager = new AuthManager({
    fetch: new FakeNet().fetch,
    now: () => 0,
    authorize: () => Promise.reject(new Error('no window in this test')),
    store: new MemoryCredentialStore(),
    redirectUri: REDIRECT,
  });
  await assert.rejects(
    manager.getAccessToken(CFG),
    (e: unknown) => e instanceof AuthorizationRequiredError && e.action === 'authorize' && toWireError(e).action === 'authorize',
  );
});

test('an AS that holds a registered client to its first scope answers step-up with invalid_scope: one re-registration, then success', async () => {
  const net = new FakeNet();
  const as = new FakeAs(net, { prm: { scopes_supported: ['read'] } });
  const store = new MemoryCredentialStore();
  // client-1 was registered for "read" only; asking it for more is refused at once, without a window.
  const authorize = async (url: string) => {
    const p = new URL(url).searchParams;
    if (p.get('client_id') === 'client-1' && p.get('scope') !== 'read') {
      const cb = new URL(p.get('redirect_uri')!);
      cb.search = new URLSearchParams({ error: 'invalid_scope', state: p.get('state')!, iss: as.issuer }).toString();
      return cb.href;
    }
    return as.authorize(url);
  };
  const manager = new AuthManager({ fetch: net.fetch, now: () => 1_000_000, authorize, store, redirectUri: REDIRECT });
  await manager.getAccessToken(CFG, { interactive: true });
  const state = { unauthorizedRetries: 0, stepUps: 0, authorizations: 0 };
  await manager.handleForbidden(CFG, 'Bearer error="insufficient_scope", scope="admin"', { state, interactive: true });
  assert.equal(as.registrations, 2);
  assert.equal((await store.getClient({ serverId: 's1', resource: MCP, issuer: as.issuer }))?.clientId, 'client-2');
  assert.equal(state.authorizations, 1, 'one step-up, however many requests it took');
});
