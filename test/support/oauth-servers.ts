/**
 * A real OAuth 2.1 authorization server (oidc-provider) and a real MCP resource server (the
 * SDK's McpServer behind requireBearerAuth) on 127.0.0.1, shared by the integration and
 * end-to-end tests. Login is either automatic (`approval: 'auto'`, for Node
 * harnesses that follow redirects by hand) or a real page with an "Approve" button
 * (`approval: 'button'`), which is what the browser's authorization window shows; that page
 * signs in as `alice` (`#approve`) or as a second user, `bob` (`#approve-bob`), so two accounts
 * on one server can be authorized separately.
 * Every access and refresh token the AS issues is recorded, so a test can look for them at rest;
 * every tool call, with the subject and token it carried; every authorization request's `prompt`.
 */
import { createPublicKey, generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import express from 'express';
import Provider from 'oidc-provider';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { mcpAuthMetadataRouter, getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { asText } from '../../src/common/as-text.js';
import { applyKnownGrant, type KnownGrant } from './oauth-known-grant.js';
import { listenOn } from './listen.js';

export const OAUTH_SCOPE = 'mcp:tools';
/** Needed only by the `admin-op` tool: calling it with less gets a 403 insufficient_scope challenge (E7). */
export const ADMIN_SCOPE = 'mcp:admin';

export interface OAuthServers {
  issuer: string;
  mcpUrl: string;
  /** Every access and refresh token the token endpoint handed out. */
  issued: { accessTokens: string[]; refreshTokens: string[] };
  stats: {
    toolCalls: number;
    unauthorized: number;
    revocations: number;
    forbidden: number;
    adminCalls: number;
    cookieRequests: number;
    authorizeRequests: number;
    /** POST /token requests (code exchanges and refreshes), refused ones included. */
    tokenRequests: number;
    /** Token requests with `grant_type=refresh_token` the provider handled, refused ones included. */
    refreshGrants: number;
  };
  /** Every call of a tool: which user (the token's `sub`) and which access token it carried. */
  calls: { tool: string; sub: string; token: string }[];
  /** The `prompt` parameter of every authorization request (`null`: none). */
  authorizePrompts: (string | null)[];
  /** `METHOD path` of every request that arrived with a `Cookie` header (refused with 403 outside the authorization window's pages). */
  cookieSightings: string[];
  /** The resource server refuses (401) every access token issued so far, as after a server-side revocation. */
  rejectIssuedAccessTokens(): void;
  /** While true the token endpoint answers every request with 400 invalid_grant (an expired sign-in). */
  refuseTokenRequests: boolean;
  close(): Promise<void>;
}

export interface OAuthServerOptions {
  approval?: 'auto' | 'button';
  /** Lifetime of access tokens in seconds. */
  accessTokenTtl?: number;
  /**
   * The PRM lives at a path no well-known probe finds, announced only in the 401 challenge, which
   * also names the scope (`mcp:tools`) while the PRM lists both scopes.
   */
  prmOnlyInChallenge?: boolean;
  /**
   * The resource server refuses (401 invalid_token) every token, also one its AS has just issued:
   * a server whose token audience or resource is misconfigured (SPEC N5).
   */
  rejectEveryToken?: boolean;
  /** `resource_name` of the protected resource metadata (the guided add proposes it as the name). */
  resourceName?: string;
  /** Fixed ports (`npm start` keeps its printed URLs valid across runs); 0 or absent: any free port. */
  ports?: { as?: number; mcp?: number };
  /** A client and refresh token that outlive this process (the upgrade fixture, oauth-known-grant.ts). */
  knownGrant?: KnownGrant;
}

async function listen(app: express.Express, port = 0): Promise<Server> {
  const server = createServer(app);
  await listenOn(server, port);
  return server;
}
const portOf = (s: Server) => (s.address() as AddressInfo).port;

/** RS256 JWT check: signature, audience = the MCP resource, expiry. */
function verifyJwt(token: string, publicKey: KeyObject, audience: string) {
  const [h, p, sig] = token.split('.');
  if (!h || !p || !sig) throw new InvalidTokenError('not a JWT');
  const ok = verify('sha256', Buffer.from(`${h}.${p}`), publicKey, Buffer.from(sig, 'base64url'));
  if (!ok) throw new InvalidTokenError('bad signature');
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
  const aud = Array.isArray(claims['aud']) ? claims['aud'] : [claims['aud']];
  if (!aud.includes(audience)) throw new InvalidTokenError('wrong audience');
  return claims;
}

/** The users the approval page can sign in as; anything else posted signs in as the first. */
export const OAUTH_USERS = ['alice', 'bob'] as const;

const APPROVE_PAGE = (uid: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Sign in</title></head>
<body><h1>Test authorization server</h1><p>Allow Remote MCP for Chrome to use the MCP server as alice?</p>
<form method="post" action="/interaction/${encodeURIComponent(uid)}/approve"><button id="approve" type="submit" name="account" value="alice">Approve</button>
<button id="approve-bob" type="submit" name="account" value="bob">Sign in as bob instead</button></form></body></html>`;

export async function startOAuthServers(options: OAuthServerOptions = {}): Promise<OAuthServers> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKey = createPublicKey(privateKey);
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'RS256' };
  const issued = { accessTokens: [] as string[], refreshTokens: [] as string[] };
  const stats = {
    toolCalls: 0,
    unauthorized: 0,
    revocations: 0,
    forbidden: 0,
    adminCalls: 0,
    cookieRequests: 0,
    authorizeRequests: 0,
    tokenRequests: 0,
    refreshGrants: 0,
  };
  const cookieSightings: string[] = [];
  const calls: OAuthServers['calls'] = [];
  const authorizePrompts: (string | null)[] = [];
  /**
   * The trap of widely used auth frameworks: a request carrying a cookie gets an `Origin` check,
   * which `chrome-extension://…` fails (403). The authorization window's pages (`/auth`,
   * `/interaction/…`, and `/session/end/…`, through which oidc-provider signs the previous user out when the user
   * signs in as another one) keep their cookies; every API request — discovery, registration, token, revocation,
   * MCP — must arrive without any.
   */
  const refuseCookies: express.RequestHandler = (req, res, next) => {
    if (!req.headers.cookie || /^\/(auth|interaction|session)(\/|$)/.test(req.path)) {
      next();
      return;
    }
    stats.cookieRequests++;
    cookieSightings.push(`${req.method} ${req.path}`);
    res
      .status(403)
      .json({ error: 'invalid_request', error_description: `cookie sent from Origin ${req.headers.origin ?? 'none'}: refused` });
  };
  const rejected = new Set<string>();
  const controls = { refuseTokenRequests: false };

  const asApp = express();
  asApp.use(refuseCookies);
  const asServer = await listen(asApp, options.ports?.as);
  const issuer = `http://127.0.0.1:${portOf(asServer)}`;
  const mcpApp = express();
  mcpApp.use(refuseCookies);
  const mcpServer = await listen(mcpApp, options.ports?.mcp);
  const mcpUrl = `http://127.0.0.1:${portOf(mcpServer)}/mcp`;

  const provider = new Provider(issuer, {
    jwks: { keys: [jwk as never] },
    scopes: ['openid', 'offline_access', OAUTH_SCOPE, ADMIN_SCOPE],
    pkce: { required: () => true },
    // The extension's token requests carry `Origin: chrome-extension://…` (oidc-provider refuses that Origin unless clientBasedCORS allows it).
    clientBasedCORS: () => true,
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, ...(options.knownGrant ? { idFactory: () => options.knownGrant!.clientId } : {}) },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => mcpUrl,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          if (resource !== mcpUrl) throw new Error(`unknown resource ${resource}`);
          return {
            scope: `${OAUTH_SCOPE} ${ADMIN_SCOPE}`,
            audience: mcpUrl,
            accessTokenFormat: 'jwt',
            accessTokenTTL: options.accessTokenTtl ?? 3600,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    issueRefreshToken: () => true,
    rotateRefreshToken: true,
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
  });

  if (options.knownGrant) await applyKnownGrant(provider, options.knownGrant, mcpUrl, OAUTH_SCOPE);
  for (const event of ['grant.success', 'grant.error'])
    provider.on(event, (ctx) => {
      if (ctx.oidc?.params?.['grant_type'] === 'refresh_token') stats.refreshGrants++;
    });

  const finishLogin = (req: express.Request, res: express.Response, account: string = OAUTH_USERS[0]) =>
    provider.interactionFinished(req, res, { login: { accountId: account } }, { mergeWithLastSubmission: false });

  asApp.get('/interaction/:uid', async (req, res, next) => {
    try {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        if (options.approval === 'button') {
          res.type('html').send(APPROVE_PAGE(details.uid));
          return;
        }
        await finishLogin(req, res);
        return;
      }
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId: details.session!.accountId, clientId: details.params['client_id'] as string });
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
      if (missing.missingOIDCScope) grant!.addOIDCScope(missing.missingOIDCScope.join(' '));
      for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
        grant!.addResourceScope(resource, scopes.join(' '));
      const grantId = await grant!.save();
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    } catch (e) {
      next(e);
    }
  });
  asApp.post('/interaction/:uid/approve', express.urlencoded({ extended: false, limit: '1kb' }), async (req, res, next) => {
    try {
      const chosen = (req.body as { account?: unknown } | undefined)?.account;
      await finishLogin(
        req,
        res,
        OAUTH_USERS.find((u) => u === chosen),
      );
    } catch (e) {
      next(e);
    }
  });
  // Record what the token endpoint issues (the response body is JSON with the tokens).
  asApp.use((req, res, next) => {
    if (req.method === 'POST' && req.path === '/token') stats.tokenRequests++;
    if (controls.refuseTokenRequests && req.method === 'POST' && req.path === '/token') {
      res.status(400).json({ error: 'invalid_grant', error_description: 'grant request is invalid' });
      return;
    }
    if (req.path.endsWith('/token/revocation') || req.path.endsWith('/revocation')) stats.revocations++;
    if (req.method === 'POST' && req.path === '/token') {
      const end = res.end.bind(res) as (...a: unknown[]) => express.Response;
      (res as unknown as { end: (...a: unknown[]) => express.Response }).end = (...args: unknown[]) => {
        const chunk = args[0];
        if (chunk && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) {
          try {
            const body = JSON.parse(chunk.toString()) as { access_token?: string; refresh_token?: string };
            if (body.access_token) issued.accessTokens.push(body.access_token);
            if (body.refresh_token) issued.refreshTokens.push(body.refresh_token);
          } catch {
            // Not JSON: nothing issued.
          }
        }
        return end(...args);
      };
    }
    next();
  });
  asApp.use((req, _res, next) => {
    if (req.method === 'GET' && req.path === '/auth') {
      stats.authorizeRequests++;
      authorizePrompts.push(typeof req.query['prompt'] === 'string' ? req.query['prompt'] : null);
    }
    next();
  });
  asApp.use(provider.callback());

  const oauthMetadata = (await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json()) as OAuthMetadata;
  const challengePrm = `${new URL(mcpUrl).origin}/meta/protected-resource`;
  if (options.prmOnlyInChallenge) {
    mcpApp.get(
      '/meta/protected-resource',
      (_req, res) => void res.json({ resource: mcpUrl, authorization_servers: [issuer], scopes_supported: [OAUTH_SCOPE, ADMIN_SCOPE] }),
    );
    mcpApp.post('/mcp', (req, res, next) => {
      if (req.headers.authorization) {
        next();
        return;
      }
      stats.unauthorized++;
      res.set('WWW-Authenticate', `Bearer resource_metadata="${challengePrm}", scope="${OAUTH_SCOPE}"`);
      res.status(401).json({ error: 'invalid_token', error_description: 'authorization needed' });
    });
  } else {
    mcpApp.use(
      mcpAuthMetadataRouter({
        oauthMetadata,
        resourceServerUrl: new URL(mcpUrl),
        scopesSupported: [OAUTH_SCOPE],
        ...(options.resourceName ? { resourceName: options.resourceName } : {}),
      }),
    );
  }
  const bearer = requireBearerAuth({
    resourceMetadataUrl: options.prmOnlyInChallenge ? challengePrm : getOAuthProtectedResourceMetadataUrl(new URL(mcpUrl)),
    verifier: {
      async verifyAccessToken(token) {
        try {
          if (rejected.has(token)) throw new InvalidTokenError('token revoked');
          if (options.rejectEveryToken) throw new InvalidTokenError('wrong audience');
          const c = verifyJwt(token, publicKey, mcpUrl);
          return {
            token,
            clientId: String(c['client_id']),
            scopes: asText(c['scope'] ?? '').split(' '),
            expiresAt: Number(c['exp']),
            extra: { sub: asText(c['sub'] ?? '') },
          };
        } catch (e) {
          stats.unauthorized++;
          throw e;
        }
      },
    },
  });
  mcpApp.post(
    '/mcp',
    (req, res, next) => {
      if (!req.headers.authorization) stats.unauthorized++;
      next();
    },
    express.json(),
    bearer,
    (req, res, next) => {
      // Step-up (E7): calling admin-op needs a scope the first authorization did not ask for.
      const body = req.body as { method?: string; params?: { name?: string } } | undefined;
      if (body?.method === 'tools/call' && body.params?.name === 'admin-op' && !req.auth?.scopes.includes(ADMIN_SCOPE)) {
        stats.forbidden++;
        const prm = getOAuthProtectedResourceMetadataUrl(new URL(mcpUrl));
        res.set(
          'WWW-Authenticate',
          `Bearer error="insufficient_scope", scope="${OAUTH_SCOPE} ${ADMIN_SCOPE}", resource_metadata="${prm}", error_description="admin-op needs ${ADMIN_SCOPE}"`,
        );
        res.status(403).json({ error: 'insufficient_scope', error_description: `admin-op needs ${ADMIN_SCOPE}` });
        return;
      }
      next();
    },
    async (req, res) => {
      const server = new McpServer({ name: 'real-rs', version: '1.0.0' });
      server.registerTool('whoami', { description: 'client id of the caller' }, async (extra) => {
        stats.toolCalls++;
        calls.push({ tool: 'whoami', sub: asText(extra.authInfo?.extra?.['sub'] ?? ''), token: extra.authInfo?.token ?? '' });
        return { content: [{ type: 'text', text: `client=${extra.authInfo?.clientId}` }] };
      });
      server.registerTool('admin-op', { description: `needs the ${ADMIN_SCOPE} scope` }, async (extra) => {
        stats.adminCalls++;
        return { content: [{ type: 'text', text: `admin ok, scopes=${extra.authInfo?.scopes.join(' ')}` }] };
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => void transport.close());
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    },
  );
  // Stateless server: no standalone SSE stream and no session to delete.
  mcpApp.get('/mcp', (_req, res) => void res.status(405).end());
  mcpApp.delete('/mcp', (_req, res) => void res.status(405).end());

  return {
    issuer,
    mcpUrl,
    issued,
    stats,
    calls,
    authorizePrompts,
    cookieSightings,
    rejectIssuedAccessTokens() {
      for (const t of issued.accessTokens) rejected.add(t);
    },
    get refuseTokenRequests() {
      return controls.refuseTokenRequests;
    },
    set refuseTokenRequests(value: boolean) {
      controls.refuseTokenRequests = value;
    },
    async close() {
      for (const s of [asServer, mcpServer]) {
        s.closeAllConnections();
        await new Promise((r) => s.close(() => r(undefined)));
      }
    },
  };
}
