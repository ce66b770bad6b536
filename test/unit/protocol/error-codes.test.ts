/**
 * The one error vocabulary at the boundaries: a code or action this build does not know, sent by
 * another context (an older or newer worker, a hostile page), must not make the envelope invalid;
 * it becomes a defined code and keeps its message.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WIRE_ERROR_CODES, ERROR_ACTIONS } from '../../../src/protocol/error-codes.js';
import { RemoteError, WireErrorSchema, resultSchema, toWireError } from '../../../src/protocol/result.js';
import { panelResultSchema, PanelStateSchema } from '../../../src/protocol/panel.js';
import { AuthorizationRequiredError, BearerRejectedError, ClientIdRequiredError } from '../../../src/sw/auth/errors.js';
import * as z from 'zod/mini';

test('an unknown code over the wire maps to `unknown` and keeps its message', () => {
  const parsed = panelResultSchema('panel:connect').safeParse({ ok: false, error: { code: 'flux-capacitor', message: 'It broke.' } });
  assert.ok(parsed.success);
  assert.deepEqual(parsed.data, { ok: false, error: { code: 'unknown', message: 'It broke.' } });
});

test('a known code and action pass unchanged; an unknown action is dropped, not fatal', () => {
  const known = WireErrorSchema.parse({ code: 'timeout', message: 'Too slow.', action: 'edit' });
  assert.deepEqual(known, { code: 'timeout', message: 'Too slow.', action: 'edit' });
  const odd = resultSchema(z.object({})).safeParse({ ok: false, error: { code: 'auth', message: 'No.', action: 'dance' } });
  assert.ok(odd.success && !odd.data.ok);
  assert.equal(odd.data.error.code, 'auth');
  assert.equal(odd.data.error.action, undefined);
});

test('a server reason carries its action, and an unknown kind becomes `unknown`', () => {
  const state = PanelStateSchema.parse({
    configErrors: [],
    servers: [
      {
        id: 's1',
        name: 'S',
        url: 'https://x/mcp',
        authKind: 'oauth',
        enabled: true,
        connectOnStartup: false,
        status: 'needs-auth',
        reason: { kind: 'something-new', message: 'Sign in again.', action: 'reauthorize' },
        tools: [],
        prompts: [],
        resources: [],
        resourceTemplates: [],
        disabledTools: [],
      },
    ],
  });
  assert.deepEqual(state.servers[0]!.reason, { kind: 'unknown', message: 'Sign in again.', action: 'reauthorize' });
});

test('toWireError keeps a wire code and action, and gives a foreign code the fallback', () => {
  assert.deepEqual(toWireError(new RemoteError({ code: 'permission', message: 'm', action: 'grant-permission' })), {
    code: 'permission',
    message: 'm',
    action: 'grant-permission',
  });
  assert.deepEqual(toWireError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }), 'network'), {
    code: 'network',
    message: 'reset',
  });
});

test('the worker’s auth errors name their button', () => {
  assert.equal(toWireError(new BearerRejectedError('https://x')).action, 'edit');
  assert.equal(toWireError(new ClientIdRequiredError('needs a client id')).action, 'edit');
  assert.equal(toWireError(new AuthorizationRequiredError('needs auth')).action, 'authorize');
  assert.equal(toWireError(new AuthorizationRequiredError('lapsed', undefined, { action: 'reauthorize' })).action, 'reauthorize');
});

test('codes and actions are unique', () => {
  assert.equal(new Set(WIRE_ERROR_CODES).size, WIRE_ERROR_CODES.length);
  assert.equal(new Set(ERROR_ACTIONS).size, ERROR_ACTIONS.length);
});
