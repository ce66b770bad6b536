/**
 * What a live session depends on (SPEC C3, C6, E9): the credentials an authorization writes into
 * the entry — its binding, registered client, refresh token, pinned issuer — are not part of it,
 * so writing them never closes the session or replaces the reason a failed authorization left.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bindingFingerprint, sameBinding } from '../../../../src/sw/manager/binding.js';
import { RemoteError } from '../../../../src/protocol/result.js';
import { cfg, flush, harness, routine } from './harness.js';
import type { McpServerConfig } from '../../../../src/storage/config-schema.js';

const sealed = { v: 1, iv: 'aa', ct: 'bb' } as never;
const oauth = (auth: Partial<Extract<McpServerConfig['auth'], { kind: 'oauth' }>> = {}) =>
  cfg('a', { url: 'https://mcp.example.com/mcp', auth: { kind: 'oauth', clientId: 'c1', ...auth } });

test('E9: the binding, client, refresh token and pinned issuer an authorization writes are not part of the session binding', () => {
  const before = oauth();
  const after = oauth({
    binding: { resource: 'https://mcp.example.com/mcp', issuer: 'https://as.example.com' },
    registration: { clientId: 'dyn' },
    tokens: { refresh: sealed },
    clientIssuer: 'https://as.example.com',
  });
  assert.equal(sameBinding(before, after), true);
  assert.equal(bindingFingerprint(before), bindingFingerprint(after), 'an adopted session stays adoptable');
  assert.equal(sameBinding(before, oauth({ clientId: 'other' })), false, 'a different client is a new session');
  assert.equal(sameBinding(before, oauth({ scopes: ['admin'] })), false, 'different scopes are a new session');
  assert.equal(sameBinding(before, { ...before, url: 'https://mcp.example.com/other' }), false);
});

test('E9: the specific reason of a failed authorization survives the credential writes the attempt made', async () => {
  // No token yet: every connect ends in needs-auth with the generic reason.
  const h = harness(
    routine,
    { refreshIntervalMs: 0 },
    {
      headersFor: async () => {
        throw new RemoteError({ code: 'needs-auth', message: 'https://mcp.example.com/mcp needs authorization.' });
      },
    },
  );
  const first = oauth();
  h.manager.reconcile([{ ...first, connectOnStartup: true }]);
  await flush();
  assert.equal(h.manager.state('a')?.status, 'needs-auth');
  const reason = { kind: 'auth-denied' as const, message: 'Authorization cancelled: the window was closed.', action: 'authorize' as const };
  h.manager.authFailed('a', reason);
  // The attempt registered a client and wrote its binding before the user closed the window.
  h.manager.reconcile([
    {
      ...first,
      connectOnStartup: true,
      auth: {
        kind: 'oauth',
        clientId: 'c1',
        binding: { resource: first.url, issuer: 'https://as.example.com' },
        registration: { clientId: 'dyn' },
      },
    },
  ]);
  await flush();
  const state = h.manager.state('a');
  assert.equal(state?.status, 'needs-auth');
  assert.equal(state?.status === 'needs-auth' && state.reason.message, reason.message, 'the stored reason is still the specific one');
  assert.equal(h.opened().length, 0, 'no session was opened for a credential write');
});
