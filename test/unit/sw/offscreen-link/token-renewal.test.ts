import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RemoteError } from '../../../../src/protocol/result.js';
import type { McpServerConfig } from '../../../../src/storage/config-schema.js';
import { newRequestAuthState } from '../../../../src/sw/auth/auth-manager.js';
import { AuthorizationRequiredError } from '../../../../src/sw/auth/errors.js';
import { isTokenRefusal, renewToken, type UnauthorizedHandler } from '../../../../src/sw/offscreen-link/token-renewal.js';

const refused = (httpStatus: number, wwwAuthenticate?: string) =>
  new RemoteError({ code: 'auth', message: `HTTP ${httpStatus}`, httpStatus, ...(wwwAuthenticate ? { wwwAuthenticate } : {}) });
const SCOPE = 'Bearer error="insufficient_scope", scope="mcp:admin"';

function deps(kind: 'oauth' | 'bearer' | 'none', auth: UnauthorizedHandler) {
  const config = { id: 'srv', name: 'S', url: 'https://mcp.example/mcp', auth: { kind } } as McpServerConfig;
  return {
    auth,
    configOf: async () => config,
    authConfigOf: async () => ({ id: 'srv', url: config.url, auth: { kind: 'oauth' as const } }),
  };
}

test('only a 401 or a 403 asking for more scope is a refusal a fresh token can answer', () => {
  assert.equal(isTokenRefusal(refused(401)), true);
  assert.equal(isTokenRefusal(refused(403, SCOPE)), true);
  assert.equal(isTokenRefusal(refused(403, 'Bearer error="invalid_token"')), false);
  assert.equal(isTokenRefusal(new RemoteError({ code: 'http-status', message: 'HTTP 401', httpStatus: 401 })), false);
});

test('a 401 asks for a refresh without a window, naming the token refused', async () => {
  const calls: unknown[] = [];
  const auth: UnauthorizedHandler = {
    handleUnauthorized: async (_cfg, challenge, options) => (calls.push([challenge, options?.rejectedToken, options?.interactive]), 'NEW'),
  };
  const token = await renewToken(deps('oauth', auth), 'srv', refused(401, 'Bearer'), 'OLD', newRequestAuthState());
  assert.equal(token, 'NEW');
  assert.deepEqual(calls, [['Bearer', 'OLD', false]]);
});

test('a bearer server is never refreshed, nor a server without authorization that did not answer 401 Bearer', async () => {
  const auth: UnauthorizedHandler = { handleUnauthorized: async () => assert.fail('no OAuth here') };
  assert.equal(await renewToken(deps('bearer', auth), 'srv', refused(401, 'Bearer'), 'T', newRequestAuthState()), undefined);
  assert.equal(await renewToken(deps('none', auth), 'srv', refused(401), undefined, newRequestAuthState()), undefined);
});

test('a server without authorization answering 401 Bearer goes to the AuthManager (needs-auth offers OAuth, E3)', async () => {
  let asked = 0;
  const auth: UnauthorizedHandler = {
    handleUnauthorized: async () => {
      asked++;
      throw new AuthorizationRequiredError('needs authorization');
    },
  };
  await assert.rejects(renewToken(deps('none', auth), 'srv', refused(401, 'Bearer'), undefined, newRequestAuthState()), {
    code: 'needs-auth',
  });
  assert.equal(asked, 1);
});

test('a scope challenge goes to handleForbidden when there is one, and its failure keeps the 403 and the challenge', async () => {
  const unauthorizedOnly: UnauthorizedHandler = { handleUnauthorized: async () => assert.fail('not a 401') };
  assert.equal(await renewToken(deps('oauth', unauthorizedOnly), 'srv', refused(403, SCOPE), 'T', newRequestAuthState()), undefined);
  const forbidding: UnauthorizedHandler = {
    ...unauthorizedOnly,
    handleForbidden: async () => {
      throw new AuthorizationRequiredError('needs more access: mcp:admin');
    },
  };
  await assert.rejects(renewToken(deps('oauth', forbidding), 'srv', refused(403, SCOPE), 'T', newRequestAuthState()), (e: unknown) => {
    assert.ok(e instanceof RemoteError);
    assert.deepEqual([e.code, e.httpStatus, e.wwwAuthenticate], ['needs-auth', 403, SCOPE]);
    return true;
  });
});

test('a removed server has no token to get', async () => {
  const auth: UnauthorizedHandler = { handleUnauthorized: async () => assert.fail('removed') };
  const gone = { ...deps('oauth', auth), configOf: async () => undefined };
  assert.equal(await renewToken(gone, 'srv', refused(401), 'T', newRequestAuthState()), undefined);
});
