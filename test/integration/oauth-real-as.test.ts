/**
 * The auth core against a REAL authorization server (oidc-provider) and a REAL MCP resource
 * server (the SDK's McpServer behind requireBearerAuth) on 127.0.0.1: DCR → authorize →
 * token → tool call → refresh with rotation → reuse of the old refresh token kills the grant
 * → needs-auth. Only the browser window is replaced: the authorize port follows redirects
 * with fetch(redirect:'manual') and a cookie jar, and a route finishes login and consent.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import Provider from 'oidc-provider';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { mcpAuthMetadataRouter, getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { AuthManager, bearerHeaders, newRequestAuthState } from '../../src/sw/auth/auth-manager.js';
import { MemoryCredentialStore } from '../../src/sw/auth/memory-store.js';
import { AuthorizationRequiredError, TokenError } from '../../src/sw/auth/errors.js';
import { refreshTokens } from '../../src/sw/auth/token.js';
import type { AuthServerConfig } from '../../src/sw/auth/ports.js';

const REDIRECT = 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/mcp-oauth';
const SCOPE = 'mcp:tools';

let asServer: Server;
let mcpServer: Server;
let issuer: string;
let mcpUrl: string;
let publicKey: KeyObject;

function listen(app: express.Express): Promise<Server> {
  return new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
}
const portOf = (s: Server) => (s.address() as AddressInfo).port;

/** RS256 JWT check: signature, audience = the MCP resource, expiry. */
function verifyJwt(token: string) {
  const [h, p, sig] = token.split('.');
  if (!h || !p || !sig) throw new InvalidTokenError('not a JWT');
  const ok = verify('sha256', Buffer.from(`${h}.${p}`), publicKey, Buffer.from(sig, 'base64url'));
  if (!ok) throw new InvalidTokenError('bad signature');
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
  const aud = Array.isArray(claims['aud']) ? claims['aud'] : [claims['aud']];
  if (!aud.includes(mcpUrl)) throw new InvalidTokenError('wrong audience');
  return claims;
}

before(async () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  publicKey = createPublicKey(privateKey);
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'RS256' };

  // Authorization server.
  const asApp = express();
  asServer = await listen(asApp);
  issuer = `http://127.0.0.1:${portOf(asServer)}`;
  const mcpApp = express();
  mcpServer = await listen(mcpApp);
  mcpUrl = `http://127.0.0.1:${portOf(mcpServer)}/mcp`;

  const provider = new Provider(issuer, {
    jwks: { keys: [jwk as never] },
    scopes: ['openid', 'offline_access', SCOPE],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => mcpUrl,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          if (resource !== mcpUrl) throw new Error(`unknown resource ${resource}`);
          return { scope: SCOPE, audience: mcpUrl, accessTokenFormat: 'jwt', accessTokenTTL: 3600, jwt: { sign: { alg: 'RS256' } } };
        },
      },
    },
    issueRefreshToken: () => true,
    rotateRefreshToken: true,
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
  });
  // Login and consent without a person.
  asApp.get('/interaction/:uid', async (req, res, next) => {
    try {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        await provider.interactionFinished(req, res, { login: { accountId: 'alice' } }, { mergeWithLastSubmission: false });
        return;
      }
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId: details.session!.accountId, clientId: details.params['client_id'] as string });
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
      if (missing.missingOIDCScope) grant!.addOIDCScope(missing.missingOIDCScope.join(' '));
      for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant!.addResourceScope(resource, scopes.join(' '));
      const grantId = await grant!.save();
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    } catch (e) {
      next(e);
    }
  });
  asApp.use(provider.callback());

  // MCP resource server.
  const oauthMetadata = (await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json()) as OAuthMetadata;
  mcpApp.use(mcpAuthMetadataRouter({ oauthMetadata, resourceServerUrl: new URL(mcpUrl), scopesSupported: [SCOPE] }));
  const bearer = requireBearerAuth({
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(mcpUrl)),
    verifier: {
      async verifyAccessToken(token) {
        const c = verifyJwt(token);
        return { token, clientId: String(c['client_id']), scopes: String(c['scope'] ?? '').split(' '), expiresAt: Number(c['exp']) };
      },
    },
  });
  mcpApp.post('/mcp', express.json(), bearer, async (req, res) => {
    const server = new McpServer({ name: 'real-rs', version: '1.0.0' });
    server.registerTool('whoami', { description: 'client id of the caller' }, async (extra) => ({
      content: [{ type: 'text', text: `client=${extra.authInfo?.clientId}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close());
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
});

after(() => {
  asServer?.closeAllConnections();
  mcpServer?.closeAllConnections();
  asServer?.close();
  mcpServer?.close();
});

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
