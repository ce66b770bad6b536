/**
 * The test AS's known grant (test/support/oauth-known-grant.ts), which the upgrade fixture relies
 * on (B1, E10): the AS that writes the fixture registers the client under the known id and issues
 * the known refresh token first; a NEW AS process told it is stored accepts that refresh token
 * once (rotating it) and its access token opens the MCP resource, while a wrong refresh token and
 * the rotated-out one are still refused (invalid_grant), as by any real AS.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startOAuthServers } from '../support/oauth-servers.js';
import { AuthManager, bearerHeaders } from '../../src/sw/auth/auth-manager.js';
import { MemoryCredentialStore } from '../support/memory-credential-store.js';
import { TokenError } from '../../src/sw/auth/errors.js';
import { refreshTokens } from '../../src/sw/auth/token.js';
import type { AuthServerConfig } from '../../src/sw/auth/ports.js';

const KNOWN = {
  clientId: 'known-client-0d9e2b7a',
  redirectUri: 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/mcp-oauth',
  refreshToken: 'known-refresh-6b1f3c84',
};

/** The identity port outside a browser: follow redirects by hand, keeping cookies, until the redirect URI. */
async function followToRedirectUri(authorizationUrl: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 15 && !url.startsWith(KNOWN.redirectUri); hop++) {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    const location = res.headers.get('location');
    await res.body?.cancel();
    if (!location) throw new Error(`authorization stopped at ${url} with HTTP ${res.status}`);
    url = new URL(location, url).href;
  }
  return url;
}

/** The scope the writing AS granted, which the extension sends back with each refresh. */
let grantedScope: string | undefined;

const whoami = (mcpUrl: string, token: string) =>
  fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearerHeaders(token) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } }),
  });

test('the writing AS registers the known client and issues the known refresh token first', async () => {
  const servers = await startOAuthServers({ approval: 'auto', knownGrant: KNOWN });
  try {
    const store = new MemoryCredentialStore();
    const manager = new AuthManager({
      fetch,
      now: () => Date.now(),
      authorize: followToRedirectUri,
      store,
      redirectUri: KNOWN.redirectUri,
    });
    const cfg: AuthServerConfig = { id: 'known', url: servers.mcpUrl, auth: { kind: 'oauth' } };
    const challenge = (await fetch(servers.mcpUrl, { method: 'POST' })).headers.get('www-authenticate');
    await manager.getAccessToken(cfg, { interactive: true, wwwAuthenticate: challenge });
    const key = { serverId: 'known', resource: servers.mcpUrl, issuer: servers.issuer };
    assert.equal((await store.getClient(key))?.clientId, KNOWN.clientId);
    const stored = await store.getRefreshToken(key);
    assert.equal(stored?.token, KNOWN.refreshToken);
    grantedScope = stored?.scope;
    assert.ok(grantedScope, 'the token response named its scope');
    assert.deepEqual(servers.issued.refreshTokens, [KNOWN.refreshToken]);
  } finally {
    await servers.close();
  }
});

test('a new AS that stores the known grant refreshes it once, and refuses a wrong or rotated-out refresh token', async () => {
  const servers = await startOAuthServers({ approval: 'auto', knownGrant: { ...KNOWN, stored: true } });
  try {
    const tokenEndpoint = `${servers.issuer}/token`;
    const client = { clientId: KNOWN.clientId, tokenEndpointAuthMethod: 'none' as const };
    const resource = servers.mcpUrl;
    const refresh = (refreshToken: string) => refreshTokens(fetch, { tokenEndpoint, client, refreshToken, resource, scope: grantedScope });
    const refused = (e: unknown) => e instanceof TokenError && e.oauthError === 'invalid_grant';
    await assert.rejects(refresh('not-the-known-refresh-token'), refused);
    const set = await refresh(KNOWN.refreshToken);
    assert.ok(set.refreshToken && set.refreshToken !== KNOWN.refreshToken, 'rotated');
    const call = await whoami(servers.mcpUrl, set.accessToken);
    assert.equal(call.status, 200);
    assert.match(JSON.stringify(await call.json()), new RegExp(`client=${KNOWN.clientId}`));
    await assert.rejects(refresh(KNOWN.refreshToken), refused);
    assert.equal(servers.stats.refreshGrants, 3);
    assert.equal(servers.stats.authorizeRequests, 0);
  } finally {
    await servers.close();
  }
});
