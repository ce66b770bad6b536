/**
 * Conformance-suite client (`@modelcontextprotocol/conformance client --command ...`): the built
 * extension in Chromium, driven the way a user drives it.
 *
 * It launches a fresh profile with `dist/` (test/support/browser.ts grants the loopback origins
 * the suite's servers listen on), opens the side panel, adds the server through the panel's add
 * form — OAuth for `auth/*` scenarios, with the pre-registered client id and secret from
 * MCP_CONFORMANCE_CONTEXT and the suite's client metadata URL typed into the form's fields — clicks "Authorize" when the card asks
 * (the suite's authorization endpoint redirects straight to the extension's chromiumapp.org
 * redirect URI, which ends chrome.identity.launchWebAuthFlow without a window), waits for the
 * server to be ready, then runs every tool the extension offers from the panel's tool runner — or,
 * where the scenario says what a user would do, the calls its context names with their arguments,
 * the schema round trip it asks for, or nothing beyond the listing (LIST_ONLY, SCHEMA_ROUND_TRIP).
 * While a tool runs it answers the panel's elicitation card with "Accept" (fields untouched, so
 * the form's defaults are what the server receives) and takes the panel's "Grant more access"
 * offer when a call is refused for scope, then runs the tool again, as a user would.
 *
 * Usage: node extension-client.mjs <server-url>   (URL last; MCP_CONFORMANCE_SCENARIO and
 * MCP_CONFORMANCE_CONTEXT come from the suite). Exits 0 when every step succeeded and the card
 * is still `ready` at the end, 1 otherwise; SIGTERM closes the browser first. `npm run build`
 * must have written `dist/`. When CONFORMANCE_CLIENT_RESULT names a file (run.mjs sets it), the
 * client writes its outcome there as it exits — exit code, whether it reached the end of its
 * steps, the card's final status — so the runner judges the client too, not only the suite's checks.
 */
import { writeFileSync } from 'node:fs';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { DETAIL, openServer, openTool } from '../support/panel-views.js';

/** Whole-run watchdog, below the per-scenario timeout run.mjs gives the suite. */
const WATCHDOG_MS = 50_000;
/** How often the harness takes a "Grant more access" offer for one tool before giving up itself. */
const MAX_GRANTS_PER_TOOL = 5;
/** The server's row (its id), and the open server detail's header (status, reason, actions). */
const ROW = 'mcp-server-list >>> mcp-server-card';
const CARD = DETAIL;
/**
 * The client metadata document URL the suite expects as client id from a client that opts in to
 * CIMD (SEP-991); the user enters it in the add form, and the extension uses it only where the
 * authorization server says it supports such documents.
 */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/**
 * Scenarios whose server answers tools/list only (its tools/call is "Method not found"): the
 * check is what the client does with the listed schema (SEP-2106: a network `$ref` is never
 * fetched), so the user looks at the list and runs nothing.
 */
const LIST_ONLY = new Set(['json-schema-ref-no-deref']);
/**
 * json-schema-2020-12-preservation asks the user to pass the focal tool's input schema, as the
 * client lists it, verbatim as the `schema` argument of its echo tool: the server compares what
 * comes back with what it served, so what is measured is the schema the extension keeps.
 */
const SCHEMA_ROUND_TRIP = { scenario: 'json-schema-2020-12-preservation', focal: 'json_schema_2020_12_tool', echo: 'json_schema_echo' };

function log(...args: unknown[]): void {
  process.stderr.write(
    `[conformance-client ${(performance.now() / 1000).toFixed(1)}s] ${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}\n`,
  );
}

interface ScenarioContext {
  client_id?: string;
  client_secret?: string;
  /** The calls the scenario wants made, with their arguments (http-custom-headers): typed into the runner as given. */
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
}

function readContext(): ScenarioContext {
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

interface CardState {
  id: string;
  status: string;
  reason: string;
  authorize: boolean;
}

async function cardState(panel: Page): Promise<CardState | undefined> {
  const card = await panel.$(CARD);
  const row = await panel.$(ROW);
  if (!card || !row) return undefined;
  const id = await row.evaluate((el) => el.getAttribute('server-id') ?? '');
  return card.evaluate((el, id) => {
    const root = el.shadowRoot;
    return {
      id,
      status: root?.querySelector('mcp-status-badge')?.getAttribute('status') ?? '',
      reason: root?.querySelector('.reason')?.textContent?.trim() ?? '',
      authorize: !!root?.querySelector('button[data-action="authorize"]'),
    };
  }, id);
}

/** The card once its status is one of `statuses`. */
function cardIn(panel: Page, statuses: string[], timeoutMs = 20_000): Promise<CardState> {
  return until(
    `the server card to be ${statuses.join(' or ')}`,
    async () => {
      const s = await cardState(panel);
      return s && statuses.includes(s.status) ? s : undefined;
    },
    timeoutMs,
  );
}

/** The tools the extension offers for the server right now, as the agent tool registry lists them. */
async function listTools(ext: ExtensionBrowser, serverId: string): Promise<{ name: string; schema: unknown }[]> {
  const worker = await ext.serviceWorker();
  const tools = (await worker.evaluate(
    'globalThis.remoteMcp.agentTools.list().map((t) => ({ serverId: t.serverId, name: t.toolName, schema: t.jsonSchema }))',
  )) as { serverId: string; name: string; schema: unknown }[];
  return tools.filter((t) => t.serverId === serverId);
}

type RunOutcome = { text: string } | { error: string; stepUp: boolean };

/** One run from the panel's tool runner; accepts every elicitation card that appears meanwhile. */
async function runTool(panel: Page, serverId: string, tool: string, args: unknown): Promise<RunOutcome> {
  await openTool(panel, serverId, tool);
  const select = await waitFor(panel, 'mcp-tool-runner >>> select');
  await select.select(JSON.stringify([serverId, tool]));
  await panel.$eval('mcp-tool-runner >>> textarea', (el, value) => (el.value = value), JSON.stringify(args));
  await panel.$eval('mcp-tool-runner >>> .output', (el) => el.replaceChildren());
  await panel.click('mcp-tool-runner >>> button[type="submit"]');
  return until(
    `the result of ${tool}`,
    async () => {
      const accept = await panel.$('mcp-elicitation-card[status="pending"] >>> button[data-action="accept"]');
      if (accept) {
        log('elicitation: accept with the form as shown');
        await accept.click();
      }
      const out = await panel.$eval('mcp-tool-runner >>> .output', (el) => ({
        text: el.querySelector('pre.text')?.textContent ?? null,
        error: el.querySelector('p.error')?.textContent ?? null,
      }));
      if (out.text != null) return { text: out.text };
      if (out.error == null) return undefined;
      const stepUp = await panel.$('#step-up:not([hidden]) button[data-action="grant-more-access"]:not([hidden])');
      return { error: out.error, stepUp: !!stepUp };
    },
    25_000,
  );
}

/** Clicks "Grant more access"; true once the panel says access was granted. */
async function grantMoreAccess(panel: Page): Promise<boolean> {
  await (await waitFor(panel, '#step-up button[data-action="grant-more-access"]')).click();
  const outcome = await until(
    'the step-up outcome',
    () =>
      panel.$eval('#step-up .step-up-text', (el) =>
        el.classList.contains('granted') ? 'granted' : el.classList.contains('error') ? `refused: ${el.textContent ?? ''}` : undefined,
      ),
    20_000,
  );
  log(`grant more access: ${outcome}`);
  return outcome === 'granted';
}

/** Clicks the card's Authorize and waits for the outcome, as a user does when the card asks. */
async function authorizeFromCard(panel: Page, card: CardState): Promise<CardState> {
  log('clicking Authorize');
  const asked = card.reason;
  await panel.click(`${CARD} >>> button[data-action="authorize"]`);
  // Ready, an error, or needs-auth with a new reason (a refused attempt); meanwhile the card
  // passes through connecting, and disconnected while the new binding is written.
  const after = await until('the authorization outcome', async () => {
    const s = await cardState(panel);
    const settled = s && (s.status === 'ready' || s.status === 'error' || (s.status === 'needs-auth' && s.reason !== asked));
    return settled ? s : undefined;
  }).catch(async () => (await cardState(panel)) ?? card);
  log(`after authorization: ${after.status}${after.reason ? ` (${after.reason})` : ''}`);
  return after;
}

/**
 * After a failed call, a card that asks for authorization again (the server moved to another
 * authorization server, its grant was revoked) is answered once, as a user would: true when the
 * server is ready again and the call is worth one more try.
 */
async function authorizeAgain(panel: Page, serverId: string): Promise<boolean> {
  await openServer(panel, serverId);
  const card = await cardIn(panel, ['ready', 'needs-auth', 'error', 'offline'], 5_000).catch(() => undefined);
  if (!card || card.status !== 'needs-auth' || !card.authorize) return false;
  log(`the card asks again: ${card.reason}`);
  return (await authorizeFromCard(panel, card)).status === 'ready';
}

/** What the client tells run.mjs about its own run (CONFORMANCE_CLIENT_RESULT). */
const clientOutcome: { finished: boolean; finalStatus: string; finalReason: string; detail: string } = {
  finished: false,
  finalStatus: '',
  finalReason: '',
  detail: '',
};

async function scenario(ext: ExtensionBrowser, serverUrl: string, name: string): Promise<number> {
  const context = readContext();
  const panel = await ext.openPanel();
  const oauth = name.startsWith('auth/');
  await addServerInPanel(panel, {
    name: 'Conformance',
    url: serverUrl,
    authKind: oauth ? 'oauth' : 'none',
    ...(oauth ? { clientMetadataUrl: CLIENT_METADATA_URL } : {}),
    ...(context.client_id ? { clientId: context.client_id } : {}),
    ...(context.client_secret ? { clientSecret: context.client_secret } : {}),
  });
  // The server's detail shows its status, reason and actions, as a user would open it.
  const id = await (await waitFor(panel, ROW, 20_000)).evaluate((el) => el.getAttribute('server-id') ?? '');
  await openServer(panel, id);
  let card = await cardIn(panel, ['ready', 'needs-auth', 'error', 'offline', 'unsupported']);
  log(`added: ${card.status}${card.reason ? ` (${card.reason})` : ''}`);
  // A card that asks again after the first authorization (its listing wanted a wider scope, E7) gets
  // one more click, as a user would give it; the product bounds the attempts itself.
  for (let asked = 0; card.status === 'needs-auth' && card.authorize && asked < 2; asked++) card = await authorizeFromCard(panel, card);
  if (card.status !== 'ready') {
    clientOutcome.finished = true;
    clientOutcome.finalStatus = card.status;
    clientOutcome.finalReason = card.reason;
    clientOutcome.detail = 'the server never became ready';
    return 1;
  }

  const tools = await until(
    'the tool list',
    async () => {
      const list = await listTools(ext, card.id);
      return list.length ? list : undefined;
    },
    3_000,
  ).catch(() => []);
  const shown = await cardState(panel);
  log(
    `tools: ${tools.map((t) => t.name).join(', ') || '(none)'}; card: ${shown?.status ?? '?'}${shown?.reason ? ` (${shown.reason})` : ''}`,
  );
  let failures = 0;
  // The scenario's own calls when it names them (each as often as it lists it), else every tool once.
  const focal = tools.find((t) => t.name === SCHEMA_ROUND_TRIP.focal);
  const calls = LIST_ONLY.has(name)
    ? []
    : name === SCHEMA_ROUND_TRIP.scenario
      ? [{ name: SCHEMA_ROUND_TRIP.echo, args: { schema: focal?.schema ?? null } }]
      : context.toolCalls
        ? context.toolCalls.filter((c) => tools.some((t) => t.name === c.name)).map((c) => ({ name: c.name, args: c.arguments }))
        : tools.map((t) => ({ name: t.name, args: sampleArguments(t.schema) }));
  if (context.toolCalls && calls.length < context.toolCalls.length) {
    const offered = new Set(tools.map((t) => t.name));
    log(
      `not offered by the extension: ${context.toolCalls
        .filter((c) => !offered.has(c.name))
        .map((c) => c.name)
        .join(', ')}`,
    );
    failures++;
  }
  for (const { name: tool, args } of calls) {
    let outcome = await runTool(panel, card.id, tool, args);
    for (let grants = 0; 'error' in outcome && outcome.stepUp && grants < MAX_GRANTS_PER_TOOL; grants++) {
      log(`${tool} refused: ${outcome.error}`);
      if (!(await grantMoreAccess(panel))) break;
      outcome = await runTool(panel, card.id, tool, args);
    }
    if ('error' in outcome && (await authorizeAgain(panel, card.id))) outcome = await runTool(panel, card.id, tool, args);
    log(`called ${tool}`, args, '→', 'text' in outcome ? outcome.text.slice(0, 200) : `error: ${outcome.error}`);
    if ('error' in outcome) failures++;
  }
  // The run ends with the card as the user sees it: a token obtained and then lost shows here.
  const end = await cardState(panel);
  clientOutcome.finished = true;
  clientOutcome.finalStatus = end?.status ?? '';
  clientOutcome.finalReason = end?.reason ?? '';
  log(`final card: ${clientOutcome.finalStatus}${clientOutcome.finalReason ? ` (${clientOutcome.finalReason})` : ''}`);
  if (failures) clientOutcome.detail = `${failures} tool call(s) failed`;
  else if (clientOutcome.finalStatus !== 'ready') clientOutcome.detail = 'the card did not stay ready';
  return failures || clientOutcome.finalStatus !== 'ready' ? 1 : 0;
}

function writeOutcome(exitCode: number): void {
  const path = process.env['CONFORMANCE_CLIENT_RESULT'];
  if (!path) return;
  try {
    writeFileSync(path, JSON.stringify({ exitCode, ...clientOutcome }));
  } catch (e) {
    log('could not write the client result:', String(e));
  }
}

let ext: ExtensionBrowser | undefined;
let exiting = false;

function shutdown(code: number): void {
  if (exiting) return;
  exiting = true;
  writeOutcome(code);
  setTimeout(() => process.exit(code), 5_000).unref();
  void (ext?.close() ?? Promise.resolve()).finally(() => process.exit(code));
}

process.on('SIGTERM', () => shutdown(143));
process.on('SIGINT', () => shutdown(130));
setTimeout(() => {
  log('watchdog: giving up');
  clientOutcome.detail = 'the watchdog stopped the run';
  shutdown(1);
}, WATCHDOG_MS).unref();

async function main(): Promise<number> {
  const serverUrl = process.argv[process.argv.length - 1];
  if (!serverUrl || !/^https?:\/\//.test(serverUrl)) {
    log('usage: extension-client.mjs <server-url>');
    return 2;
  }
  const name = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '(none)';
  log(`scenario ${name} against ${serverUrl}`);
  ext = await launchExtension();
  const code = await scenario(ext, serverUrl, name);
  for (const e of ext.errors) log(`extension error: ${e}`);
  return code;
}

main().then(
  (code) => shutdown(code),
  (e: unknown) => {
    log('failed:', e instanceof Error ? `${e.name}: ${e.message}` : String(e));
    shutdown(1);
  },
);
