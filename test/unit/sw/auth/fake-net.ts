/**
 * A scripted network for auth unit tests: a route table of exact URLs, a log of every request
 * (so tests can assert what was NOT sent), and a small fake AS that really checks PKCE,
 * `resource`, client authentication and refresh-token rotation.
 */
import type { FetchLike } from '../../../../src/sw/auth/ports.js';

export interface Recorded {
  url: string;
  method: string;
  headers: Headers;
  body: string;
  redirect: RequestRedirect | undefined;
}

type Handler = (req: Recorded) => Response | Promise<Response>;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export class FakeNet {
  readonly requests: Recorded[] = [];
  readonly routes = new Map<string, Handler>();

  on(url: string, handler: Handler | object): this {
    this.routes.set(url, typeof handler === 'function' ? (handler as Handler) : () => json(handler));
    return this;
  }

  urls(): string[] {
    return this.requests.map((r) => r.url);
  }

  fetch: FetchLike = async (url, init = {}) => {
    const req: Recorded = {
      url,
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? init.body : '',
      redirect: init.redirect,
    };
    this.requests.push(req);
    const handler = this.routes.get(url);
    if (!handler) return new Response('not found', { status: 404 });
    const res = await handler(req);
    if (res.status >= 300 && res.status < 400 && init.redirect === 'error') throw new TypeError('fetch failed: redirect');
    return res;
  };
}

export const MCP = 'https://mcp.example.com/mcp';
export const ISSUER = 'https://as.example.com';
export const REDIRECT = 'https://abcdefghijklmnop.chromiumapp.org/mcp-oauth';

export interface FakeAsOptions {
  issuer?: string;
  mcpUrl?: string;
  prm?: Record<string, unknown> | false;
  metadata?: Record<string, unknown>;
  expiresIn?: number;
  issueRefresh?: boolean;
  tokenScope?: string;
}

interface CodeGrant {
  challenge: string;
  clientId: string;
  resource: string | null;
  scope: string | null;
}

/** Wire PRM (path-aware), AS metadata, DCR, token and revocation endpoints for one AS. */
export class FakeAs {
  readonly issuer: string;
  readonly mcpUrl: string;
  readonly codes = new Map<string, CodeGrant>();
  readonly liveRefresh = new Set<string>();
  readonly revoked: string[] = [];
  readonly authorizeUrls: string[] = [];
  tokenCalls = 0;
  registrations = 0;
  #n = 0;

  constructor(
    readonly net: FakeNet,
    readonly opts: FakeAsOptions = {},
  ) {
    this.issuer = opts.issuer ?? ISSUER;
    this.mcpUrl = opts.mcpUrl ?? MCP;
    const mcp = new URL(this.mcpUrl);
    if (opts.prm !== false) {
      net.on(`${mcp.origin}/.well-known/oauth-protected-resource${mcp.pathname}`, {
        resource: this.mcpUrl,
        authorization_servers: [this.issuer],
        ...(opts.prm ?? {}),
      });
    }
    net.on(`${this.issuer}/.well-known/oauth-authorization-server`, () => json(this.metadata()));
    net.on(`${this.issuer}/register`, (req) => {
      this.registrations++;
      const body = JSON.parse(req.body) as { redirect_uris: string[] };
      return json({ client_id: `client-${this.registrations}`, redirect_uris: body.redirect_uris }, 201);
    });
    net.on(`${this.issuer}/token`, (req) => this.token(req));
    net.on(`${this.issuer}/revoke`, (req) => {
      this.revoked.push(new URLSearchParams(req.body).get('token') ?? '');
      return new Response(null, { status: 200 });
    });
  }

  metadata(): Record<string, unknown> {
    return {
      issuer: this.issuer,
      authorization_endpoint: `${this.issuer}/authorize`,
      token_endpoint: `${this.issuer}/token`,
      registration_endpoint: `${this.issuer}/register`,
      revocation_endpoint: `${this.issuer}/revoke`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      ...(this.opts.metadata ?? {}),
    };
  }

  /** The identity port: approve at once and redirect with code, state and iss. */
  authorize = async (authorizationUrl: string): Promise<string> => {
    this.authorizeUrls.push(authorizationUrl);
    const u = new URL(authorizationUrl);
    const p = u.searchParams;
    const code = `code-${++this.#n}`;
    this.codes.set(code, {
      challenge: p.get('code_challenge') ?? '',
      clientId: p.get('client_id') ?? '',
      resource: p.get('resource'),
      scope: p.get('scope'),
    });
    const cb = new URL(p.get('redirect_uri')!);
    cb.searchParams.set('code', code);
    cb.searchParams.set('state', p.get('state') ?? '');
    cb.searchParams.set('iss', this.issuer);
    return cb.href;
  };

  async token(req: Recorded): Promise<Response> {
    this.tokenCalls++;
    const p = new URLSearchParams(req.body);
    const n = ++this.#n;
    const refresh = this.opts.issueRefresh === false ? {} : { refresh_token: `rt-${n}` };
    if (p.get('grant_type') === 'authorization_code') {
      const grant = this.codes.get(p.get('code') ?? '');
      if (!grant) return json({ error: 'invalid_grant' }, 400);
      this.codes.delete(p.get('code')!);
      const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(p.get('code_verifier') ?? ''));
      const expected = Buffer.from(digest).toString('base64url');
      if (expected !== grant.challenge) return json({ error: 'invalid_grant', error_description: 'PKCE' }, 400);
      if (p.get('resource') !== grant.resource) return json({ error: 'invalid_target' }, 400);
    } else if (p.get('grant_type') === 'refresh_token') {
      const rt = p.get('refresh_token') ?? '';
      if (!this.liveRefresh.has(rt)) return json({ error: 'invalid_grant' }, 400);
      this.liveRefresh.delete(rt);
    } else return json({ error: 'unsupported_grant_type' }, 400);
    if (refresh.refresh_token) this.liveRefresh.add(refresh.refresh_token);
    return json({
      access_token: `at-${n}`,
      token_type: 'bearer',
      expires_in: this.opts.expiresIn ?? 3600,
      ...(this.opts.tokenScope ? { scope: this.opts.tokenScope } : {}),
      ...refresh,
    });
  }
}
