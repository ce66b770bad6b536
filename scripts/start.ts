/**
 * `npm start`: builds the extension (only when its sources changed, scripts/start-build.ts),
 * starts two demo MCP servers on 127.0.0.1 — one that shows every feature the panel offers
 * (test/support/demo-everything.ts) and one behind a real OAuth authorization server (the
 * oidc-provider AS of the tests), both on fixed ports so the URLs it prints stay valid across
 * runs — plus a server of the stateless 2026-07-28 era on the official SDK v2 server package
 * (test/support/modern-mcp.ts), so both eras are there to try; launches Chromium with the extension
 * loaded and the servers added, and opens the side
 * panel page. Headed when a display is available; headless otherwise, with a DevTools port to
 * attach to. Ctrl+C stops everything it started.
 */
import { launchExtension, type ExtensionBrowser } from '../test/support/browser.js';
import { startDemoServer, type DemoServer } from '../test/support/demo-server.js';
import { startOAuthServers, type OAuthServers } from '../test/support/oauth-servers.js';
import { startModernServer, type ModernServer } from '../test/support/modern-mcp.js';
import { buildIfChanged, stopBuild } from './start-build.js';
import { setUpChatProvider, summary } from './start-summary.js';

const ports = {
  demo: Number(process.env.DEMO_PORT ?? 3939),
  oauthMcp: Number(process.env.DEMO_OAUTH_PORT ?? 3940),
  oauthIssuer: Number(process.env.DEMO_AS_PORT ?? 3941),
  modern: Number(process.env.DEMO_MODERN_PORT ?? 3942),
  devtools: Number(process.env.DEVTOOLS_PORT ?? 9222),
};

const started = Date.now();
const running: { ext?: ExtensionBrowser; server?: DemoServer; oauth?: OAuthServers; modern?: ModernServer } = {};
let stopping = false;
/** Ctrl+C at any moment, start-up included, stops what has started so far. */
const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  stopBuild();
  await running.ext?.close();
  await running.server?.close();
  await running.oauth?.close();
  await running.modern?.close();
  process.exit(code);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

async function addDemos(ext: ExtensionBrowser, server: DemoServer, oauth: OAuthServers, modern: ModernServer) {
  const worker = await ext.serviceWorker();
  const demos = [
    { id: 'demo', name: 'Demo server', url: server.url, auth: { kind: 'none' } },
    { id: 'demo-oauth', name: 'Demo with sign-in', url: oauth.mcpUrl, auth: { kind: 'oauth' } },
    { id: 'demo-2026', name: 'Demo 2026-07-28', url: modern.url, auth: { kind: 'none' } },
  ];
  // Added the way a saved configuration looks; the loopback host permission comes with the test build.
  await worker.evaluate(async (entries: typeof demos) => {
    const got = await chrome.storage.local.get('mcp_servers');
    const list = Array.isArray(got.mcp_servers) ? got.mcp_servers : [];
    for (const entry of entries) {
      if (list.some((s: { url?: string }) => s.url === entry.url)) continue;
      list.push({ ...entry, enabled: true, disabledTools: [], connectOnStartup: true });
    }
    await chrome.storage.local.set({ mcp_servers: list });
  }, demos);
}

try {
  const build = await buildIfChanged(process.env.OUT_DIR || 'dist');
  running.server = await startDemoServer({ port: ports.demo, everything: true, name: 'Remote MCP demo' });
  running.oauth = await startOAuthServers({ approval: 'button', ports: { mcp: ports.oauthMcp, as: ports.oauthIssuer } });
  running.modern = await startModernServer({ legacy: 'reject', port: ports.modern });
  const headless = !process.env.DISPLAY;
  running.ext = await launchExtension({ headless, ...(headless ? { extraArgs: [`--remote-debugging-port=${ports.devtools}`] } : {}) });
  await addDemos(running.ext, running.server, running.oauth, running.modern);
  const panel = await running.ext.openPanel();
  const chat = await setUpChatProvider(panel);
  console.log(
    summary({
      headless,
      extensionId: running.ext.extensionId,
      panelUrl: panel.url(),
      demoUrl: running.server.url,
      oauthUrl: running.oauth.mcpUrl,
      modernUrl: running.modern.url,
      issuer: running.oauth.issuer,
      devtoolsPort: ports.devtools,
      chat,
      build,
      seconds: Math.round((Date.now() - started) / 1000),
    }),
  );
} catch (error) {
  const inUse = error instanceof Error && 'code' in error && error.code === 'EADDRINUSE';
  console.error(
    inUse
      ? `A port npm start uses is taken (${String((error as { port?: number }).port ?? '')}): stop the other program or choose others with DEMO_PORT, DEMO_OAUTH_PORT, DEMO_AS_PORT, DEMO_MODERN_PORT.`
      : error,
  );
  await stop(1);
}
