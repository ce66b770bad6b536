/**
 * Navigating the side panel's views as a user does (docs/ui.md): header tabs, a server's row,
 * a tool's row, the Add and Import buttons, Back. Each helper waits until the view shows.
 */
import type { Page } from 'puppeteer-core';
import { until, waitFor } from './browser.js';

export type TopView = 'servers' | 'tools' | 'chat' | 'activity';

/** The server list's row of one server (by id). */
export const row = (serverId?: string) => `mcp-server-list >>> mcp-server-card${serverId ? `[server-id="${serverId}"]` : ''}`;
/** The open server detail's header card. */
export const DETAIL = 'mcp-server-detail >>> mcp-server-card[mode="detail"]';
/** The open server detail's Settings card (Forget authorization, Delete). */
export const SETTINGS = 'mcp-server-detail >>> mcp-server-card[mode="settings"]';
/** The open server detail's tool list. */
export const DETAIL_TOOLS = 'mcp-server-detail >>> mcp-tool-list';

/**
 * Clicks what `selector` finds, again if a state push re-rendered the list between finding and
 * clicking (the element found is then detached: a real user's click would land on its twin).
 */
export async function clickFresh(page: Page, selector: string, timeoutMs = 20_000): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const handle = await waitFor(page, selector, timeoutMs);
    try {
      await handle.click();
      return;
    } catch (e) {
      if (attempt >= 3 || !/detached|not clickable/i.test(String(e))) throw e;
    }
  }
}

async function visibleView(page: Page): Promise<string | undefined> {
  return page.$$eval('section[data-view]', (els) => els.find((s) => !s.hidden)?.getAttribute('data-view') ?? undefined);
}

async function waitView(page: Page, view: string) {
  await until(`the ${view} view`, async () => (await visibleView(page)) === view, 10_000);
}

export async function openView(page: Page, view: TopView | 'add' | 'import' | 'directory'): Promise<void> {
  if (view === 'add' || view === 'import' || view === 'directory') {
    await openView(page, 'servers');
    // The bar's button, or the welcome's when the list is empty: whichever shows.
    const buttons = await page.$$(`mcp-server-list >>> button[data-open="${view}"]`);
    for (const b of buttons) {
      if (await b.boundingBox()) {
        await b.click();
        break;
      }
    }
  } else if ((await visibleView(page)) !== view) {
    await page.click(`mcp-app-header >>> [role="tab"][data-view="${view}"]`);
  }
  await waitView(page, view);
}

/** Opens a server's detail from its row on the Servers view. */
export async function openServer(page: Page, serverId: string): Promise<void> {
  await openView(page, 'servers');
  await clickFresh(page, `${row(serverId)} >>> button.open`);
  await waitView(page, 'detail');
  await waitFor(page, `${DETAIL}`);
}

/** Opens a tool's view from the Tools view (the server must be ready and the tool enabled). */
export async function openTool(page: Page, serverId: string, tool: string): Promise<void> {
  await openView(page, 'tools');
  await clickFresh(page, `mcp-tools-view >>> button.tool[data-server="${serverId}"][data-tool="${tool}"]`);
  await waitView(page, 'tool');
}

export async function back(page: Page): Promise<void> {
  const view = await visibleView(page);
  await page.click(`section[data-view="${view}"] > .view-bar button.back`);
  await until('another view', async () => (await visibleView(page)) !== view);
}

/**
 * A user action that does nothing but lets the panel's state Port reconnect (it reconnects lazily,
 * on the user's next action, so an idle panel lets the worker sleep).
 */
export async function nudgePanel(page: Page): Promise<void> {
  await page.keyboard.press('Shift');
}

/**
 * Writes servers (no auth, enabled, connect on start-up) to the stored configuration from the panel
 * page, as an import would, so the worker is only reached when it must be; then waits for each
 * row to be ready.
 */
export async function storeServersFromPanel(
  page: Page,
  servers: { id: string; name: string; url: string }[],
  timeoutMs = 20_000,
): Promise<void> {
  const entries = servers.map((s) => ({ ...s, auth: { kind: 'none' }, enabled: true, disabledTools: [], connectOnStartup: true }));
  await page.evaluate(`chrome.storage.local.set({ mcp_servers: ${JSON.stringify(entries)} }).then(() => true)`);
  for (const s of servers) await waitFor(page, `${row(s.id)} >>> mcp-status-badge[status="ready"]`, timeoutMs);
}
