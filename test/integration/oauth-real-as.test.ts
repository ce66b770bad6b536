/**
 * The auth core against a REAL authorization server (oidc-provider) and a REAL MCP resource
 * server (the SDK's McpServer behind requireBearerAuth) on 127.0.0.1: DCR → authorize →
 * token → tool call → refresh with rotation → reuse of the old refresh token kills the grant
 * → needs-auth. Only the browser window is replaced: the authorize port follows redirects
 * with fetch(redirect:'manual') and a cookie jar, and a route finishes login and consent.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startOAuthServers, type OAuthServers } from '../support/oauth-servers.js';
import { AuthManager, bearerHeaders, newRequestAuthState } from '../../src/sw/auth/auth-manager.js';
import { MemoryCredentialStore } from '../support/memory-credential-store.js';
import { AuthorizationRequiredError, TokenError } from '../../src/sw/auth/errors.js';
import { refreshTokens } from '../../src/sw/auth/token.js';
import type { AuthServerConfig } from '../../src/sw/auth/ports.js';

const REDIRECT = 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/mcp-oauth';
let servers: OAuthServers;
let issuer: string;
let mcpUrl: string;

before(async () => {
  servers = await startOAuthServers({ approval: 'auto' });
  ({ issuer, mcpUrl } = servers);
});

after(() => servers?.close());

/** The identity port outside a browser: follow redirects by hand, keeping cookies, until our redirect URI. */
async function followToRedirectUri(authorizationUrl: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 15; hop++) {
    if (url.startsWith(REDIRECT)) return url;
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
  throw new Error('too many redirects');
}

async function callTool(token: string | undefined) {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? bearerHeaders(token) : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } }),
  });
}

test('DCR → authorize → token → tool call → refresh with rotation → old refresh token reuse → needs-auth', async () => {
  const store = new MemoryCredentialStore();
  const clock = { t: Date.now() };
  const manager = new AuthManager({ fetch, now: () => clock.t, authorize: followToRedirectUri, store, redirectUri: REDIRECT });
  const cfg: AuthServerConfig = { id: 'real', url: mcpUrl, auth: { kind: 'oauth' } };

  const unauth = await callTool(undefined);
  assert.equal(unauth.status, 401);
  const challenge = unauth.headers.get('www-authenticate');
  assert.match(challenge ?? '', /resource_metadata=/);

  const token = await manager.getAccessToken(cfg, { interactive: true, wwwAuthenticate: challenge });
  const key = { serverId: 'real', resource: mcpUrl, issuer };
  const client = await store.getClient(key);
  assert.ok(client?.clientId, 'a client was registered dynamically');
  const firstRefresh = (await store.getRefreshToken(key))?.token;
  assert.ok(firstRefresh, 'a refresh token was issued');

  const ok = await callTool(token);
  assert.equal(ok.status, 200);
  const body = (await ok.json()) as { result: { content: { text: string }[] } };
  assert.equal(body.result.content[0]!.text, `client=${client.clientId}`);

  // The token is "about to expire": the manager refreshes, and the AS rotates the refresh token.
  clock.t += 3_600_000;
  const refreshed = await manager.getAccessToken(cfg);
  assert.notEqual(refreshed, token);
  const secondRefresh = (await store.getRefreshToken(key))?.token;
  assert.ok(secondRefresh && secondRefresh !== firstRefresh, 'the refresh token was rotated');
  assert.equal((await callTool(refreshed)).status, 200);

  // Replaying the rotated-out refresh token fails, and oidc-provider revokes the whole grant.
  const metadata = (await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json()) as { token_endpoint: string };
  await assert.rejects(
    refreshTokens(fetch, { tokenEndpoint: metadata.token_endpoint, client, refreshToken: firstRefresh, resource: mcpUrl }),
    (e: unknown) => e instanceof TokenError && e.oauthError === 'invalid_grant',
  );

  // So the next refresh fails too and the server is in needs-auth, with the reason attached.
  await assert.rejects(
    manager.handleUnauthorized(cfg, challenge, { state: newRequestAuthState(), rejectedToken: refreshed }),
    (e: unknown) => e instanceof AuthorizationRequiredError && /invalid_grant/.test(e.message),
  );
  assert.equal(await store.getRefreshToken(key), undefined);
});
