/**
 * Service-worker entry. Every listener is registered synchronously at top level (MV3 wakes the
 * worker for an event only if a listener exists at once); handlers wait on one `ready` promise
 * that rehydrates state from storage, because worker memory can vanish at any time.
 */
import { OFFSCREEN_PORT } from '../protocol/offscreen.js';
import { PANEL_PORT, type PanelState } from '../protocol/panel.js';
import { SERVERS_KEY } from '../storage/config-schema.js';
import { applyBadge } from './chrome/badge.js';
import { configStore } from './chrome/config-access.js';
import { headersFor } from './chrome/credentials.js';
import type { InvalidEntry } from '../storage/config-store.js';
import { McpManager } from './manager/mcp-manager.js';
import { acceptOffscreenPort, ensureOffscreen, onOffscreenLost } from './offscreen-link/offscreen-host.js';
import { createPanelApi } from './handlers/panel.js';
import { withRequestLogging } from './offscreen-link/request-logging.js';
import { acceptImportPort } from './offscreen-link/import-channel.js';
import { appendRequestLog } from '../storage/request-log.js';
import { authConfigOf, authManager, headersWithOAuth } from './chrome/oauth-runtime.js';
import { withOAuthRetry } from './offscreen-link/oauth-requests.js';
import { setUpUseServers } from './use/use-servers.js';
import { originPattern } from '../shared/url-rules.js';
import { McpWorkerClient } from './offscreen-link/worker-client.js';

const newId = () => crypto.randomUUID().replace(/-/g, '');

const worker = new McpWorkerClient(ensureOffscreen);
/**
 * Every request to the offscreen host, from the manager and from the prompt/resource/elicitation
 * handlers alike: OAuth tokens ride in the connect headers and a 401 refreshes and resends once
 * (oauth-requests.ts); every request is recorded in the server's log, redacted (SPEC J2).
 */
const request = withOAuthRetry({
  // The log entry is written one task later (setTimeout 0), after the answer has been sent: its
  // sizes, redaction and IndexedDB work (~0.5 ms per call) stay off the call's critical path.
  request: withRequestLogging(
    (method, params) => worker.request(method, params),
    appendRequestLog,
    Date.now,
    (write) => void setTimeout(write, 0),
  ),
  auth: authManager,
  configOf: async (id) => (await configStore.read()).servers.find((s) => s.id === id),
  authConfigOf,
});
const manager = new McpManager({
  request,
  hasHostPermission: (url) => chrome.permissions.contains({ origins: [originPattern(url)] }),
  headersFor: (config) => headersWithOAuth(config, headersFor),
  newId,
});
let configErrors: InvalidEntry[] = [];
const panels = new Set<chrome.runtime.Port>();

const state = (): PanelState => ({
  servers: manager.views(),
  configErrors: configErrors.map((c) => ({
    index: c.index,
    ...(c.id ? { id: c.id } : {}),
    message: `Stored server #${c.index + 1}${c.id ? ` ("${c.id}")` : ''}: ${c.error}`,
  })),
});

let pushQueued = false;
function pushState() {
  if (pushQueued) return;
  pushQueued = true;
  queueMicrotask(() => {
    pushQueued = false;
    const s = state();
    applyBadge(s.servers);
    for (const p of panels) p.postMessage({ type: 'panel:state', state: s });
  });
}
manager.onChange(pushState);
worker.onEvent((event) => manager.handleEvent(event));
onOffscreenLost(() => manager.handleOffscreenLost());

async function loadConfig(startup: boolean) {
  const read = await configStore.read();
  configErrors = read.invalid;
  manager.reconcile(read.servers, { startup });
}

const ready = loadConfig(true).catch((e) => console.error('[sw] could not load the configuration', e));
const use = setUpUseServers({
  manager,
  request,
  onWorkerEvent: (listener) => void worker.onEvent(listener),
  push: (message) => {
    for (const p of panels) p.postMessage(message);
  },
  newId,
});
const handlePanel = createPanelApi({ manager, state, newOperationId: newId, useHandlers: use.handlers });

chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  // Only this extension's own pages may drive the manager; the offscreen document uses its Port.
  if (sender.id !== chrome.runtime.id || !sender.url?.startsWith(chrome.runtime.getURL('sidepanel.html'))) return false;
  void ready.then(() => handlePanel(message)).then(sendResponse);
  return true;
});

chrome.runtime.onConnect.addListener((port) => {
  if (port.name === OFFSCREEN_PORT) {
    acceptOffscreenPort(port);
    return;
  }
  if (acceptImportPort(port)) return;
  if (port.name === PANEL_PORT && port.sender?.id === chrome.runtime.id) {
    panels.add(port);
    port.onDisconnect.addListener(() => panels.delete(port));
    void ready.then(() => port.postMessage({ type: 'panel:state', state: state() }));
    void ready.then(() => port.postMessage({ type: 'panel:approvals', approvals: use.pendingApprovals() }));
    void ready.then(() => use.panelOpened((m) => port.postMessage(m))).catch(() => undefined);
  }
});

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && SERVERS_KEY in changes) void ready.then(() => loadConfig(false));
});

chrome.runtime.onInstalled.addListener(() => {
  void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);
});
chrome.runtime.onStartup.addListener(() => {
  void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);
});
