/**
 * Measures what an idle user's browser does to MCP sessions (not part of `npm test`): the built
 * extension with the side panel open, three demo servers, no DevTools on the service worker, and
 * nobody touching anything for IDLE_MINUTES (default 10). Prints per server the sessions opened
 * and closed and the `initialize` requests, and how often Chrome stopped and started the worker.
 *
 *   npm run build && IDLE_MINUTES=10 npx tsx scripts/idle-lifecycle.ts
 */
import { launchExtension, until } from '../test/support/browser.js';
import { startDemoServer } from '../test/support/demo-server.js';
import { panelRequest } from '../test/support/panel-request.js';
import { watchWorker } from '../test/support/worker-lifecycle.js';

const minutes = Number(process.env.IDLE_MINUTES ?? 10);
const servers = await Promise.all(['one', 'two', 'three'].map((name) => startDemoServer({ name })));
const ext = await launchExtension({ workerDevTools: false });
try {
  const panel = await ext.openPanel();
  const entries = servers.map((s, i) => ({
    id: `idle${i + 1}`,
    name: `Idle ${i + 1}`,
    url: s.url,
    auth: { kind: 'none' },
    enabled: true,
    disabledTools: [],
    connectOnStartup: true,
  }));
  await panel.evaluate(`chrome.storage.local.set({ mcp_servers: ${JSON.stringify(entries)} })`);
  await until(
    'all three servers ready',
    async () => {
      const answer = await panelRequest<{ value?: { servers: { status: string }[] } }>(panel, 'panel:get-state', {});
      return answer.value?.servers.filter((s) => s.status === 'ready').length === 3 ? true : undefined;
    },
    30_000,
  );
  const watch = await watchWorker(ext);
  const started = Date.now();
  console.log(`[idle] all ready; idling ${minutes} min with the panel open …`);
  await new Promise((r) => setTimeout(r, minutes * 60_000));
  await watch.close();
  console.log(`[idle] ${((Date.now() - started) / 60_000).toFixed(1)} min idle: worker stopped ${watch.stops}×, started ${watch.starts}×`);
  servers.forEach((s, i) =>
    console.log(
      `[idle] idle${i + 1}: sessions opened ${s.stats.sessionsOpened}, closed ${s.stats.sessionsClosed}, initialize ${s.stats.initializeRequests}`,
    ),
  );
} finally {
  await ext.close();
  await Promise.all(servers.map((s) => s.close()));
}
