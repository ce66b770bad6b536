/**
 * The worker's OAuth requests appear in the server's request log (SPEC J2): one row per
 * discovery, registration, token and revocation request, with the step, the HTTP method, the URL
 * without secret query values, the status, the duration and the AS's error code — and never a
 * token, a secret, a code or a verifier.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AuthManager } from '../../../../src/sw/auth/auth-manager.js';
import { redactedUrl, withOAuthTrafficLog } from '../../../../src/sw/offscreen-link/oauth-traffic-log.js';
import type { RequestLogEntry } from '../../../../src/storage/request-log.js';
import type { AuthServerConfig } from '../../../../src/sw/auth/ports.js';
import { MemoryCredentialStore } from '../../../support/memory-credential-store.js';
import { FakeAs, FakeNet, ISSUER, json, MCP, REDIRECT } from '../auth/fake-net.js';

const CFG: AuthServerConfig = { id: 's1', url: MCP, auth: { kind: 'oauth', clientId: 'pre', clientSecret: 'very-secret-value' } };

function setup() {
  const net = new FakeNet();
  const as = new FakeAs(net, { metadata: { revocation_endpoint: `${ISSUER}/revoke` } });
  const rows: { serverId: string; entry: RequestLogEntry }[] = [];
  const manager = new AuthManager({
    fetch: net.fetch,
    fetchFor: (serverId) =>
      withOAuthTrafficLog(net.fetch, async (entry) => {
        rows.push({ serverId, entry });
      }),
    now: () => 1_000,
    authorize: as.authorize,
    store: new MemoryCredentialStore(),
    redirectUri: REDIRECT,
  });
  return { net, as, rows, manager };
}

const settle = () => new Promise((r) => setTimeout(r, 10));

test('an authorization and a Forget are logged step by step, redacted: no token, secret, code or verifier in any row', async () => {
  const { as, net, rows, manager } = setup();
  await manager.authorize(CFG);
  await manager.forget(CFG);
  await settle();
  assert.ok(rows.every((r) => r.serverId === 's1'));
  const steps = rows.map((r) => r.entry.method);
  assert.ok(steps.includes('oauth:probe'), steps.join());
  assert.ok(steps.includes('oauth:discovery'), steps.join());
  assert.ok(steps.includes('oauth:token'), steps.join());
  assert.ok(steps.includes('oauth:revoke'), steps.join());
  const token = rows.find((r) => r.entry.method === 'oauth:token')!.entry;
  assert.deepEqual(token.request, { httpMethod: 'POST', url: `${ISSUER}/token` });
  assert.equal(token.status, 200);
  assert.equal(typeof token.durationMs, 'number');
  const text = JSON.stringify(rows);
  const secrets = ['very-secret-value', 'at-', 'rt-', 'code_verifier', ...as.codes.keys()];
  for (const body of net.requests.map((r) => new URLSearchParams(r.body)))
    for (const name of ['code', 'code_verifier', 'token', 'client_secret']) if (body.get(name)) secrets.push(body.get(name)!);
  for (const secret of secrets) assert.ok(!text.includes(secret), `"${secret}" must not be logged: ${text}`);
});

test("a refused token request is logged with its status and the AS's error code only", async () => {
  const net = new FakeNet();
  net.on(`${ISSUER}/token`, () => json({ error: 'invalid_grant', error_description: 'code abc123 was already used' }, 400));
  const rows: RequestLogEntry[] = [];
  const logged = withOAuthTrafficLog(net.fetch, async (e) => {
    rows.push(e);
  });
  const res = await logged(`${ISSUER}/token`, { method: 'POST', body: 'grant_type=authorization_code&code=abc123' });
  assert.deepEqual(
    await res.json(),
    { error: 'invalid_grant', error_description: 'code abc123 was already used' },
    'the caller still reads the body',
  );
  await settle();
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.method, 'oauth:token');
  assert.equal(rows[0]!.status, 400);
  assert.equal(rows[0]!.error, 'invalid_grant');
  assert.ok(!JSON.stringify(rows).includes('abc123'));
});

test('a network failure is logged as an error and still thrown', async () => {
  const rows: RequestLogEntry[] = [];
  const logged = withOAuthTrafficLog(
    () => Promise.reject(new TypeError('fetch failed')),
    async (e) => {
      rows.push(e);
    },
  );
  await assert.rejects(logged(`${ISSUER}/.well-known/oauth-authorization-server`), TypeError);
  await settle();
  assert.equal(rows[0]!.status, 'error');
  assert.equal(rows[0]!.method, 'oauth:discovery');
});

test('logged URLs lose user info, fragments and the values of secret-looking query parameters', () => {
  assert.equal(
    redactedUrl(
      'https://user:pw@as.example.com/cb?code=C&state=S&access_token=T&client_secret=X&api_key=K&resource=https%3A%2F%2Fmcp#frag',
    ),
    'https://as.example.com/cb?code=%5Bredacted%5D&state=%5Bredacted%5D&access_token=%5Bredacted%5D&client_secret=%5Bredacted%5D&api_key=%5Bredacted%5D&resource=https%3A%2F%2Fmcp',
  );
  assert.equal(redactedUrl('not a url'), '[unparseable URL]');
});
