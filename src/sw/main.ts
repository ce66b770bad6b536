/**
 * Service-worker entry and its one composition root: every object of the worker is created and
 * wired here, and nothing else builds one at import time. Every listener is registered
 * synchronously at top level (MV3 wakes the worker for an event only if a listener exists at
 * once); handlers wait on one `ready` promise that rehydrates state from storage, because worker
 * memory can vanish at any time.
 */
// First: modules are evaluated in import order, and this one marks when the script starts running.
import './script-start.js';
import { APP_SANDBOX_PAGE } from '../protocol/mcp-apps.js';
import { PANEL_RECONNECT, type PanelState } from '../protocol/panel.js';
import { isPanelPortName } from '../protocol/panel-channel.js';
import { say } from '../protocol/wording.js';
import type { ActivityPanelPush } from '../protocol/panel-activity.js';
import { SERVERS_KEY, type McpServerConfig } from '../storage/config-schema.js';
import { ConfigStore, type InvalidEntry } from '../storage/config-store.js';
import { InteractionStore } from '../storage/interaction-store.js';
import { chromeArea } from '../storage/ports.js';
import { appendRequestLogs } from '../storage/request-log.js';
import { TokenStore } from '../storage/token-store.js';
import { outgoingFetch } from '../common/outgoing-fetch.js';
import { originPattern } from '../common/url-rules.js';
import { AuthManager } from './auth/auth-manager.js';
import { withOAuthTrafficLog } from './offscreen-link/oauth-traffic-log.js';
import { StepUpTracker } from './auth/step-up.js';
import { badgeApplier } from './chrome/badge.js';
import { ChromeCredentialStore } from './chrome/chrome-credential-store.js';
import { headersFor } from './chrome/credentials.js';
import { launchAuthFlow, oauthRedirectUri } from './chrome/identity.js';
import { KeepAlive } from './chrome/keep-alive.js';
import { TaskBoard } from './use/task-board.js';
import { SettledWrites } from './settled-writes.js';
import { authConfigOf, headersWithOAuth } from './chrome/oauth-runtime.js';
import { createPanelApi } from './handlers/panel.js';
import { answerPanelRequests, fromPanelPage } from './handlers/panel-port.js';
import { PanelChannels, type PanelChannelStats } from './handlers/panel-channels.js';
import { settleIncludeTools } from './manager/include-tools.js';
import { applyListing } from './manager/pins.js';
import { pinsPanelHandlers } from './handlers/panel-pins.js';
import { McpManager, type StartFindings } from './manager/mcp-manager.js';
import { ImportChannel } from './offscreen-link/import-channel.js';
import { withOAuthRetry } from './offscreen-link/oauth-requests.js';
import { OffscreenHost, type OffscreenChannelStats } from './offscreen-link/offscreen-host.js';
import type { ChannelOfferEvent } from '../protocol/offscreen-channel.js';
import { withRequestLogging } from './offscreen-link/request-logging.js';
import { RequestLogBatch } from './offscreen-link/request-log-batch.js';
import { McpWorkerClient } from './offscreen-link/worker-client.js';
import { APPROVALS_KEY, ApprovalStore } from './use/approval-store.js';
import type { AgentToolRegistry } from './use/tool-registry.js';
import { RunnerCalls } from './use/runner-calls.js';
import { setUpUseService } from './use/use-service.js';
import { startChatService } from './chat/chat-service.js';
import { languageModelOf } from './chat/providers/builtin.js';
import { ChatStore } from '../storage/chat-store.js';
import { randomId as newId } from '../common/random-id.js';
import { PROVIDER_KEY, ProviderSettingsStore } from '../storage/provider-settings.js';
import { diagnosticsPanelHandlers } from './handlers/panel-diagnostics.js';
import { directoryPanelHandlers } from './handlers/panel-directory.js';
import { DirectorySettingsStore } from '../storage/directory-settings.js';
import { recordWorkerStart } from './diagnostics/worker-starts.js';

/** storage.session key: start (epoch ms) of each connect attempt in progress, read by the next worker instance. */
const ATTEMPTS_KEY = 'mcp_connect_attempts';

/**
 * The worker's one ConfigStore over `chrome.storage.local` (SPEC B1): all writes from the worker
 * go through its queue, so two panel actions racing never lose one another; invalid entries are
 * reported and carried through writes untouched.
 */
const configStore = new ConfigStore(chromeArea(chrome.storage.local));
const configOf = async (id: string) => (await configStore.read()).servers.find((s) => s.id === id);
/** What the manager already settled in memory (an imported allow-list, pins), written in the background, a window at a time. */
const settledWrites = new SettledWrites({
  update: (fn) => configStore.updateIfChanged(fn),
  failed: (what, e) => console.warn(`[sw] ${what} could not be saved`, e),
});
const storeSettled = (serverId: string, settle: (entry: McpServerConfig) => McpServerConfig, what: string) =>
  settledWrites.add(serverId, settle, what);
/** With the list, so a step-up of one of several accounts on a URL asks for an account choice (S3). */
const authConfigWithAccounts = async (config: McpServerConfig) => authConfigOf(config, (await configStore.read()).servers);

/** Access tokens in the session area only; refresh tokens and clients sealed in the config (F1, F2). */
const panels = new Set<{ postMessage(message: unknown): void }>();
/** Each panel Port with its data channel once paired (panel-channels.ts). */
const panelChannels = new PanelChannels(chrome.runtime.getURL('sidepanel.html'));
/** The offscreen document's tasks, handed over with each claim (R6; task-board.ts). */
const taskBoard = new TaskBoard((message) => {
  for (const p of panels) p.postMessage(message);
});

/** Tells open panels that the request log or the grants changed; log changes at most once a second. */
let logPushQueued = false;
function pushActivity(what: ActivityPanelPush['what']) {
  const send = () => {
    for (const p of panels) p.postMessage({ type: 'panel:activity-changed', what } satisfies ActivityPanelPush);
  };
  if (what === 'grants') return send();
  if (logPushQueued) return;
  logPushQueued = true;
  setTimeout(() => {
    logPushQueued = false;
    send();
  }, 1000);
}
/**
 * Every request-log write of the worker: built after the answer has gone back, stored redacted
 * with the other writes of a short window in one transaction, then announced to the open panels.
 */
const requestLog = new RequestLogBatch({ store: appendRequestLogs, stored: () => pushActivity('log') });

const credentialStore = new ChromeCredentialStore(configStore, new TokenStore(chromeArea(chrome.storage.session)));
const authManager = new AuthManager({
  fetch: outgoingFetch,
  // Discovery, registration, token and revocation requests appear in the server's log, redacted (J2).
  fetchFor: (serverId) => withOAuthTrafficLog(outgoingFetch, (entry) => requestLog.append(serverId, entry), Date.now, requestLog.defer),
  now: () => Date.now(),
  // Counted: the worker stays alive while an authorization window is open.
  authorize: async (url) => {
    authorizing++;
    keepAlive.check();
    try {
      return await launchAuthFlow(url);
    } finally {
      authorizing--;
    }
  },
  store: credentialStore,
  // Read when a flow needs it: chrome.identity's bindings are built on first use, which every
  // wake would otherwise pay before its first call.
  get redirectUri() {
    return oauthRedirectUri();
  },
  clientName: 'Remote MCP for Chrome',
});

let authorizing = 0;
const workerStartedAt = Date.now();
const noteStartNotRecorded = (e: unknown) => console.warn('[sw] the worker start was not recorded', e);
/** This instance's start, recorded off the start-up path; the diagnostics report waits for it. */
let startRecorded: Promise<void> = Promise.resolve();
/** Recorded a task later: the storage calls would otherwise run in the middle of start-up, ahead of a woken call. */
const recordStart = (held: number) => {
  startRecorded = new Promise((settle) => setTimeout(settle))
    .then(() => recordWorkerStart(chrome.storage.session, { at: workerStartedAt, held }))
    .catch(noteStartNotRecorded);
};
const offscreen = new OffscreenHost();
const importChannel = new ImportChannel(() => offscreen.ensure());
const worker = new McpWorkerClient(() => offscreen.ensure());
// The log entry is built and stored with its window's batch, after the answer has been sent: its
// sizes, redaction and IndexedDB work stay off the call's critical path.
const loggedRequest = withRequestLogging((method, params) => worker.request(method, params), requestLog.append, Date.now, requestLog.defer);
/**
 * Every request to the offscreen host, from the manager and from the prompt/resource/elicitation
 * handlers alike: OAuth tokens ride in the connect headers and a 401 refreshes and resends once
 * (oauth-requests.ts); every request is recorded in the server's log, redacted (SPEC J2).
 */
const request = withOAuthRetry({
  request: loggedRequest,
  auth: authManager,
  configOf,
  authConfigOf: authConfigWithAccounts,
});
const manager = new McpManager(
  {
    request,
    hasHostPermission: (url) => chrome.permissions.contains({ origins: [originPattern(url)] }),
    headersFor: (config) => headersWithOAuth(authManager, config, headersFor),
    newId,
    saveAttempts: (attempts) => void chrome.storage.session.set({ [ATTEMPTS_KEY]: attempts }).catch(() => undefined),
    saveIncludeTools: (serverId, toolNames) =>
      storeSettled(serverId, (s) => settleIncludeTools(s, toolNames), 'the imported tool selection'),
    savePins: (serverId, category, items, now) =>
      storeSettled(serverId, (s) => applyListing(s, category, items, now), 'the pinned definitions'),
  },
  // Views are hosted only when the build carries the sandbox page they render in.
  { appViews: chrome.runtime.getManifest().sandbox?.pages.includes(APP_SANDBOX_PAGE) === true },
);
const stepUps = new StepUpTracker({
  auth: authManager,
  configOf,
  authConfigOf: authConfigWithAccounts,
  handOver: request.handTokenToLiveSessions,
});

let configErrors: InvalidEntry[] = [];
/** The stored configuration's version when a newer build wrote it (B1: kept, never written over). */
let newerConfigVersion: string | undefined;

const state = (): PanelState => ({
  servers: manager.views(),
  configErrors: [
    ...(newerConfigVersion === undefined
      ? []
      : [{ index: -1, scope: 'version' as const, ...say('reasonStoredVersionNewer', { version: newerConfigVersion }) }]),
    ...configErrors.map((c) => ({
      index: c.index,
      ...(c.id ? { id: c.id } : {}),
      ...(c.id
        ? say('reasonStoredServerInvalid', { number: c.index + 1, id: c.id, error: c.error })
        : say('reasonStoredServerInvalidNoId', { number: c.index + 1, error: c.error })),
    })),
  ],
});

const applyBadge = badgeApplier();
let badgeQueued = false;
/**
 * The badge follows a task after the state it shows: its chrome.action and chrome.i18n calls (and
 * their bindings, built on first use) then run after a woken worker's start-up and first call, not
 * in the middle of them.
 */
function queueBadge() {
  if (badgeQueued) return;
  badgeQueued = true;
  setTimeout(() => {
    badgeQueued = false;
    applyBadge(manager.views(), use.waiting());
  });
}
let pushQueued = false;
function pushState() {
  if (pushQueued) return;
  pushQueued = true;
  queueMicrotask(() => {
    pushQueued = false;
    const s = state();
    queueBadge();
    for (const p of panels) p.postMessage({ type: 'panel:state', state: s });
  });
}
manager.onChange(pushState);
worker.onEvent((event) => manager.handleEvent(event));
// Questions and list changes the server sent on its own appear in its log too.
worker.onEvent((event) => loggedRequest.observe(event));
offscreen.onLost(() => {
  manager.handleOffscreenLost();
  taskBoard.documentLost();
});

/**
 * What a previous worker instance left: the sessions of the offscreen document (which outlives
 * the worker) and the connect attempts it had in progress. No document is created just to ask.
 */
async function findings(): Promise<StartFindings> {
  // Independent round trips, asked at once: start-up is what a woken call waits for.
  const [stored, exists] = await Promise.all([
    chrome.storage.session.get(ATTEMPTS_KEY).catch((): Record<string, unknown> => ({})),
    offscreen.findExisting(),
  ]);
  const attempts = (stored[ATTEMPTS_KEY] ?? {}) as Record<string, number>;
  if (!exists) {
    recordStart(0);
    return { sessions: [], lost: [], attempts };
  }
  // Through the OAuth and logging wrappers: an adopted session is renewed and logged like a new one (E9, J2).
  const claimed = await request('offscreen:claim', {}).catch((e) => {
    console.warn('[sw] the MCP host document could not be claimed', e);
    return { sessions: [], lost: [], tasks: [] };
  });
  performance.mark('mcp:claimed');
  taskBoard.adopt(claimed.tasks ?? []);
  recordStart(claimed.sessions.length);
  return { ...claimed, attempts };
}

async function loadConfig(startup: boolean) {
  // At start-up the configuration and what the previous instance left are read side by side.
  const [read, found] = await Promise.all([
    configStore.read().then((r) => (performance.mark('mcp:config'), r)),
    startup ? findings() : undefined,
  ]);
  configErrors = read.invalid;
  newerConfigVersion = read.newerVersion;
  if (found) await manager.start(read.servers, found);
  else manager.reconcile(read.servers);
  // No enabled server left: the document and its sessions are closed on purpose (never on a Port drop).
  if (!read.servers.some((s) => s.enabled)) {
    await manager.disconnectsSettled();
    if (!manager.hasPendingWork()) await offscreen.close();
  }
}

const ready = loadConfig(true).catch((e) => console.error('[sw] could not load the configuration', e));
// A task after start-up, so that the requests waiting on `ready` (the call that woke the worker) go
// first. No receiver (no panel open) rejects; that is the usual case.
void ready.then(() => setTimeout(() => void chrome.runtime.sendMessage({ type: PANEL_RECONNECT }).catch(() => undefined)));
// The bench splits a cold wake at this mark: worker start → start-up done (adopted) → first result.
void ready.then(() => performance.mark('mcp:ready'));
const approvals = new ApprovalStore(chrome.storage.local);
approvals.onChange(() => pushActivity('grants'));
const runnerCalls = new RunnerCalls();
const use = setUpUseService({
  manager,
  approvals,
  interactions: new InteractionStore(),
  session: chrome.storage.session,
  request,
  onWorkerEvent: (listener) => void worker.onEvent(listener),
  push: (message) => {
    for (const p of panels) p.postMessage(message);
  },
  newId,
  acceptDefinition: (serverId, name) =>
    pinsPanelHandlers({ manager, configStore, approvals })['panel:accept-definition']({ serverId, category: 'tools', name }),
  tasks: taskBoard,
  started: ready,
  shownProgress: (operationId) => runnerCalls.has(operationId),
});
/**
 * The chat engine runs here, beside the registry and the approval broker it uses (docs/architecture.md
 * "Chat"); a run keeps the worker alive and its chat is saved after every step.
 */
const chat = startChatService({
  store: new ChatStore(),
  providers: new ProviderSettingsStore(chromeArea(chrome.storage.local)),
  registry: use.registry,
  fetch: outgoingFetch,
  languageModel: () => languageModelOf(),
  hasHostPermission: (url) => chrome.permissions.contains({ origins: [originPattern(url)] }),
  onSettingsChange: (listener) => {
    chrome.storage.onChanged.addListener((changes, area) => area === 'local' && PROVIDER_KEY in changes && listener());
    chrome.permissions.onAdded.addListener(listener);
    chrome.permissions.onRemoved.addListener(listener);
  },
  push: (message) => {
    for (const p of panels) p.postMessage(message);
  },
  activityChanged: () => keepAlive.check(),
  newId,
  now: Date.now,
});
// Approvals and questions change the badge only; the panels get those from their own pushes.
use.onWaitingChange(queueBadge);
const handlePanel = createPanelApi({
  manager,
  configStore,
  auth: authManager,
  stepUps,
  handTokenToLiveSessions: request.handTokenToLiveSessions,
  asPermission: { fetch: outgoingFetch, contains: (origins) => chrome.permissions.contains({ origins }) },
  importChannel,
  approvals,
  probeFetch: outgoingFetch,
  state,
  newOperationId: newId,
  runnerCalls,
  useHandlers: use.handlers,
  chatHandlers: chat.handlers,
  grants: approvals,
  requestLog,
  diagnosticsHandlers: diagnosticsPanelHandlers({
    views: () => manager.views(),
    configErrors: () => configErrors.length,
    requestLog,
    offscreenHeap: async () => {
      if (!(await offscreen.findExisting())) return { open: false };
      const heap: { usedBytes?: number; totalBytes?: number } = await worker.request('offscreen:heap', {}).catch(() => ({}));
      return heap.usedBytes !== undefined && heap.totalBytes !== undefined
        ? { open: true, heap: { usedBytes: heap.usedBytes, totalBytes: heap.totalBytes } }
        : { open: true };
    },
    workerStartedAt,
    started: () => ready.then(() => startRecorded),
    session: chrome.storage.session,
  }),
  directoryHandlers: directoryPanelHandlers({
    settings: new DirectorySettingsStore(chromeArea(chrome.storage.local)),
    registry: { fetch: outgoingFetch, contains: (origins) => chrome.permissions.contains({ origins }) },
  }),
});

declare global {
  /** The worker's integration point for an agent engine (README; set below). */
  var remoteMcp:
    { agentTools: AgentToolRegistry; offscreenChannel(): OffscreenChannelStats; panelChannels(): PanelChannelStats } | undefined;
}
/**
 * The one global: an agent engine reaches the AgentTool registry here (README "AgentTool"), and
 * the e2e tests drive it through it (and read whether the offscreen data channel carries the
 * calls, `offscreenChannel()`, and the panels' requests, `panelChannels()`). A chat engine inside this worker will take the registry from
 * this composition root directly instead.
 */
globalThis.remoteMcp = {
  agentTools: use.registry,
  offscreenChannel: () => offscreen.channelStats(),
  panelChannels: () => panelChannels.stats(),
};

/**
 * Pending work keeps the worker alive (keep-alive.ts): calls and connect attempts (manager), open
 * approvals (broker), authorization windows, chat runs. Checked whenever any of them may have changed.
 */
const keepAlive = new KeepAlive({
  // Only approvals a call still waits for: a `gone` card waits for a reader, not for this worker.
  pending: () => manager.hasPendingWork() || use.broker.waiting() > 0 || authorizing > 0 || chat.active(),
  touch: () => chrome.runtime.getPlatformInfo(),
});
manager.onChange(() => keepAlive.check());
manager.observeCalls({ started: () => queueMicrotask(() => keepAlive.check()), settled: () => undefined });
use.broker.onChange(() => keepAlive.check());

chrome.runtime.onConnect.addListener((port) => {
  if (offscreen.accept(port)) return;
  if (importChannel.accept(port)) return;
  if (isPanelPortName(port.name)) {
    // The Port carries the panel's requests, the only way the worker takes them: only the side
    // panel page may open it (the offscreen document and any other page get it closed).
    if (!fromPanelPage(port.sender)) {
      port.disconnect();
      return;
    }
    // Requests and pushes go on the panel's data channel once it pairs, on the Port until then.
    const link = panelChannels.link(port);
    panels.add(link);
    port.onDisconnect.addListener(() => panels.delete(link));
    answerPanelRequests(link, (envelope) => {
      // A request on the panel's data channel resets none of Chrome's idle timers (keep-alive.ts).
      keepAlive.touchSoon();
      return ready.then(() => handlePanel(envelope));
    });
    void ready.then(() => link.postMessage({ type: 'panel:state', state: state() }));
    void ready.then(() => link.postMessage({ type: 'panel:approvals', approvals: use.pendingApprovals() }));
    void ready.then(() => use.panelOpened((m) => link.postMessage(m))).catch(() => undefined);
  }
});

// The offscreen document hands over the end of its data channel here (offscreen-channel.ts); the
// host checks the sender's URL and the nonce. Added at the top level, as every worker event must be.
// The side panels hand theirs over the same way (panel-channels.ts).
self.addEventListener('message', (event) => {
  const offer = event as unknown as ChannelOfferEvent;
  if (!offscreen.acceptChannel(offer)) panelChannels.accept(offer);
});

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && SERVERS_KEY in changes) void ready.then(() => loadConfig(false));
  // The store keeps the grants in memory; a write from anywhere makes it read them again.
  if (area === 'local' && APPROVALS_KEY in changes) approvals.forget();
});

chrome.runtime.onInstalled.addListener(() => {
  void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);
});
chrome.runtime.onStartup.addListener(() => {
  void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);
});
// The bench splits start-up at these marks: script running (script-start.ts), evaluated, configuration read, document claimed, ready.
performance.mark('mcp:evaluated');
