/**
 * Screenshots of the side panel's server cards for a person to look at (`npm run screenshots`):
 * the built `dist/` in Chromium against local demo servers, in English and Simplified Chinese, at
 * 320 and 420 px, light and dark. One card is ready with a catalog warning (a tool whose name is
 * not a valid MCP tool name is left out), one has a very long name, one cannot be reached.
 * A second set shows states that are hard to reach on demand, built from fixtures in the panel:
 * a card connecting for 12 s, a Connect click waiting for its state, and approval cards (waiting,
 * and one whose call ended with a worker restart). Writes PNGs to test-output/screenshots/cards/.
 */
import { mkdir } from 'node:fs/promises';
import { addServerInPanel, launchExtension, until, waitFor } from '../test/support/browser.js';
import { startDemoServer } from '../test/support/demo-server.js';

const OUT = 'test-output/screenshots/cards';
const CARD = 'mcp-server-list >>> mcp-server-card';

/** Fixture cards put at the top of the panel (a string: it runs in the page). Their events go nowhere. */
const STATES_FIXTURE = `(() => {
  const box = document.createElement('div');
  box.id = 'ux-states';
  box.addEventListener('mcp-server-action', (e) => e.stopPropagation());
  const view = (o) => ({ id: 'fixture', name: 'Slow server', url: 'https://slow.example/mcp', authKind: 'none', enabled: true,
    connectOnStartup: true, status: 'connecting', tools: [], prompts: [], resources: [], resourceTemplates: [], disabledTools: [], ...o });
  const connecting = document.createElement('mcp-server-card');
  connecting.server = view({ connectingSince: Date.now() - 12_000 });
  const clicked = document.createElement('mcp-server-card');
  clicked.server = view({ id: 'fixture2', name: 'Stopped server', status: 'disconnected' });
  const approval = (o) => Object.assign(document.createElement('mcp-approval-card'), { approval: { id: 'ap' + o.status, serverId: 'demo',
    serverName: 'Demo', tool: 'echo', toolTitle: 'Echo', agentName: 'Agent', argumentsJson: '{\\n  "text": "hello"\\n}',
    annotations: { readOnlyHint: true }, requestedAt: 0, ...o } });
  const challenged = document.createElement('mcp-server-card');
  challenged.server = view({ id: 'fixture3', name: 'Added without sign-in', status: 'needs-auth',
    reason: { kind: 'auth', message: 'https://slow.example asks for OAuth sign-in (HTTP 401 with a Bearer challenge).', action: 'authorize' } });
  const stale = document.createElement('mcp-server-card');
  stale.server = view({ id: 'fixture4', name: 'Lazy server', status: 'disconnected', connectOnStartup: false, staleSince: Date.now() - 3_600_000,
    tools: [{ name: 'echo', description: 'Returns the text it was given.', inputSchema: { type: 'object' } }] });
  box.append(connecting, clicked, challenged, stale, approval({ status: 'pending' }), approval({ status: 'gone' }));
  document.body.prepend(box);
  setTimeout(() => clicked.shadowRoot.querySelector('[data-action="connect"]').click(), 50);
  return new Promise((r) => setTimeout(r, 300));
})()`;

async function shoot(locale: 'en' | 'zh_CN'): Promise<string[]> {
  const good = await startDemoServer({ name: 'demo' });
  const ext = await launchExtension({ locale });
  const written: string[] = [];
  try {
    const panel = await ext.openPanel();
    await addServerInPanel(panel, { name: 'Demo', url: good.url });
    await waitFor(panel, `${CARD} >>> mcp-status-badge[status="ready"]`, 20_000);
    good.addTool('not a valid tool name!');
    await waitFor(panel, `${CARD} >>> details.warnings:not([hidden])`, 20_000);
    await panel.$eval(`${CARD} >>> details.warnings`, (d) => (d.open = true));
    await addServerInPanel(panel, {
      name: 'A server whose name is much longer than the side panel is wide, to see how it wraps',
      url: `${good.url}?long=${'x'.repeat(80)}`,
    });
    // Port 9 on loopback has no listener: the card shows an attributed network error.
    await addServerInPanel(panel, { name: 'Unreachable', url: 'http://127.0.0.1:9/mcp' });
    await until('three cards', async () => (await panel.$$(CARD)).length === 3);
    await until('the unreachable card settles', async () => panel.$(`${CARD} >>> mcp-status-badge[status="error"]`));
    for (const width of [320, 420]) {
      for (const scheme of ['light', 'dark'] as const) {
        await panel.setViewport({ width, height: 900 });
        await panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
        const path = `${OUT}/cards-${locale}-${width}-${scheme}.png`;
        // Tool rows use content-visibility: auto, so rows outside the viewport are not painted;
        // a viewport as tall as the page paints every row, as a user scrolling would see them.
        const height = await panel.evaluate('document.documentElement.scrollHeight');
        await panel.setViewport({ width, height: Number(height) });
        await new Promise((r) => setTimeout(r, 300));
        await panel.screenshot({ path, fullPage: true });
        written.push(path);
      }
    }
    await panel.evaluate(STATES_FIXTURE);
    for (const width of [320, 420]) {
      for (const scheme of ['light', 'dark'] as const) {
        await panel.setViewport({ width, height: 900 });
        await panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
        const path = `${OUT}/states-${locale}-${width}-${scheme}.png`;
        await (await panel.$('#ux-states'))!.screenshot({ path });
        written.push(path);
      }
    }
    if (ext.errors.length) console.warn(`console errors (${locale}):\n  ${ext.errors.join('\n  ')}`);
  } finally {
    await ext.close();
    await good.close();
  }
  return written;
}

await mkdir(OUT, { recursive: true });
for (const locale of ['en', 'zh_CN'] as const) console.log((await shoot(locale)).join('\n'));
