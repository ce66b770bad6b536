/**
 * Conformance-suite client (`@modelcontextprotocol/conformance client --command ...`).
 *
 * It runs the extension's own client core — the AuthManager of src/sw/auth and the SDK session
 * of src/offscreen/session.ts — with its own authorizing fetch (auth-fetch.ts beside it), and
 * adapts the platform ports to Node:
 *   - storage: MemoryCredentialStore instead of chrome.storage;
 *   - identity: instead of chrome.identity.launchWebAuthFlow, GET the authorization URL with
 *     redirect:'manual' and hand the Location back as the callback URL (the suite's AS approves
 *     at once);
 *   - the "user": accepts every form elicitation without editing it (defaults are applied by
 *     the session), and calls the tools the server lists.
 *
 * Usage: node client.mjs <server-url>   (URL last; MCP_CONFORMANCE_SCENARIO and
 * MCP_CONFORMANCE_CONTEXT come from the suite). Exits 0 when the scenario's steps succeeded.
 */
import { AuthManager } from '../../src/sw/auth/auth-manager.js';
import { AuthorizationRequiredError } from '../../src/sw/auth/errors.js';
import { MemoryCredentialStore } from '../support/memory-credential-store.js';
import type { AuthServerConfig, OAuthAuth } from '../../src/sw/auth/ports.js';
import { authManagerTokenProvider, createAuthFetch } from './auth-fetch.js';
import { McpSession } from '../../src/offscreen/session.js';
import { sanitizeTools } from '../../src/sw/manager/catalog-limits.js';

/** Never contacted: the callback URL is read from the authorization server's Location header. */
const REDIRECT_URI = 'http://localhost:3000/callback';
/** The URL-based client id the suite expects from a CIMD-capable client (SEP-991). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const TIMEOUT_MS = 20_000;
/** Whole-run watchdog, below the suite's 30 s default, so the client always exits by itself. */
const WATCHDOG_MS = 25_000;

function log(...args: unknown[]): void {
  process.stderr.write(`[conformance-client] ${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}\n`);
}

interface ConformanceContext {
  client_id?: string;
  client_secret?: string;
}

function readContext(): ConformanceContext {
  const raw = process.env['MCP_CONFORMANCE_CONTEXT'];
  if (!raw) return {};
  try {
    const parsed = JSON.parse(raw) as unknown;
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    log('MCP_CONFORMANCE_CONTEXT is not JSON; ignored');
    return {};
  }
}

/** The identity port: the "browser" follows the authorization URL and returns the callback. */
async function followAuthorization(authorizationUrl: string): Promise<string> {
  const res = await fetch(authorizationUrl, { redirect: 'manual' });
  await res.body?.cancel().catch(() => undefined);
  const location = res.headers.get('location');
  if (res.status < 300 || res.status >= 400 || !location) {
    throw new Error(`The authorization endpoint answered HTTP ${res.status} without a redirect.`);
  }
  return new URL(location, authorizationUrl).href;
}

/** Arguments for a tool from its input schema: defaults, else a plain value of the declared type. */
function sampleArguments(schema: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!schema || typeof schema !== 'object') return out;
  const { properties, required } = schema as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  for (const name of required ?? []) {
    const prop = properties?.[name] ?? {};
    if ('default' in prop) out[name] = prop['default'];
    else if (Array.isArray(prop['enum']) && prop['enum'].length > 0) out[name] = prop['enum'][0];
    else if (prop['type'] === 'number' || prop['type'] === 'integer') out[name] = 1;
    else if (prop['type'] === 'boolean') out[name] = true;
    else if (prop['type'] === 'array') out[name] = [];
    else if (prop['type'] === 'object') out[name] = {};
    else out[name] = 'test';
  }
  return out;
}

async function main(): Promise<number> {
  const serverUrl = process.argv[process.argv.length - 1];
  if (!serverUrl || !/^https?:\/\//.test(serverUrl)) {
    log('usage: client.mjs <server-url>');
    return 2;
  }
  const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '(none)';
  const context = readContext();
  log(`scenario ${scenario} against ${serverUrl}`);

  const oauth: OAuthAuth = { kind: 'oauth', clientMetadataUrl: CLIENT_METADATA_URL };
  if (context.client_id) oauth.clientId = context.client_id;
  if (context.client_secret) oauth.clientSecret = context.client_secret;
  const cfg: AuthServerConfig = { id: 'conformance', url: serverUrl, auth: oauth };

  const manager = new AuthManager({
    fetch: (url, init) => fetch(url, init),
    now: () => Date.now(),
    authorize: followAuthorization,
    store: new MemoryCredentialStore(),
    redirectUri: REDIRECT_URI,
    clientName: 'Remote MCP for Chrome (conformance harness)',
  });
  const provider = authManagerTokenProvider(manager, cfg, {
    // A person is "present" in the harness: a 401 may open the (simulated) authorization window.
    interactive: true,
    isNeedsAuth: (e) => e instanceof AuthorizationRequiredError,
  });

  const session = new McpSession({
    url: serverUrl,
    headers: {},
    timeoutMs: TIMEOUT_MS,
    fetch: createAuthFetch(provider),
    onListChanged: () => undefined,
    onClosed: () => undefined,
    onElicitation: async (params) => {
      log('elicitation accepted unchanged:', params.message);
      return { action: 'accept', content: {} };
    },
  });
  closeOnExit = () => session.close();

  const info = await session.connect();
  log('connected to', info.serverInfo?.name ?? '(unnamed)');
  // The tools list as the worker takes it: one category from the session, then the catalog limits.
  const { tools } = sanitizeTools(await session.listCategory('tools'));
  log(`tools: ${tools.map((t) => t.name).join(', ') || '(none)'}`);
  for (const tool of tools) {
    const args = sampleArguments(tool.inputSchema);
    const result = await session.callTool(tool.name, args, new AbortController().signal, () => undefined);
    log(`called ${tool.name}`, args, '→', result.isError ? 'error result' : 'ok');
  }
  await session.close();
  closeOnExit = undefined;
  return 0;
}

let closeOnExit: (() => Promise<void>) | undefined;

function shutdown(code: number): void {
  const close = closeOnExit;
  closeOnExit = undefined;
  const done = () => process.exit(code);
  if (!close) return done();
  setTimeout(done, 1000).unref();
  close().then(done, done);
}

process.on('SIGTERM', () => shutdown(143));
process.on('SIGINT', () => shutdown(130));
setTimeout(() => {
  log('watchdog: giving up');
  shutdown(1);
}, WATCHDOG_MS).unref();

main().then(
  (code) => shutdown(code),
  (e: unknown) => {
    log('failed:', e instanceof Error ? `${e.name}: ${e.message}` : String(e));
    shutdown(1);
  },
);
