/**
 * The Chrome Web Store screenshots (1280×800, `npm run package -- --screenshots`): the built
 * `dist/` against the local demo servers, shot as the side panel (420 px wide) and set on a
 * 1280×800 card with a one-line caption, in English and Simplified Chinese: the server list, a
 * tool's result, and an MCP App view.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, until, waitFor } from '../test/support/browser.js';
import { startAppServer } from '../test/support/app-servers.js';
import { startDemoServer } from '../test/support/demo-server.js';
import { openTool, openView, row } from '../test/support/panel-views.js';

type Locale = 'en' | 'zh_CN';

const CAPTIONS: Record<Locale, Record<string, string>> = {
  en: {
    servers: 'Your remote MCP servers, and how each one is doing',
    tool: 'Run any tool from a form made from its schema',
    app: 'MCP App views, sandboxed, right in the side panel',
  },
  zh_CN: {
    servers: '你的远程 MCP 服务器及其状态一目了然',
    tool: '用根据架构生成的表单运行任何工具',
    app: '在侧边栏中以沙盒方式呈现 MCP App 视图',
  },
};

async function panelShot(panel: Page): Promise<string> {
  await panel.setViewport({ width: 420, height: 760 });
  await new Promise((r) => setTimeout(r, 300));
  return Buffer.from(await panel.screenshot({ type: 'png' })).toString('base64');
}

/** The panel shot on a 1280×800 card, the caption to its left. */
async function compose(card: Page, shot: string, caption: string, path: string) {
  await card.setViewport({ width: 1280, height: 800 });
  await card.setContent(
    `<!doctype html><meta charset="utf-8"><style>
      body { margin: 0; width: 1280px; height: 800px; display: flex; align-items: center; gap: 64px; padding: 0 96px;
        box-sizing: border-box; background: linear-gradient(135deg, #eef2ff, #f8fafc); font: 600 40px/1.3 system-ui, 'Noto Sans CJK SC', sans-serif; color: #1e293b; }
      p { flex: 1; margin: 0; }
      img { width: 420px; height: 760px; border-radius: 12px; box-shadow: 0 12px 40px rgb(15 23 42 / 0.25); }
    </style><p></p><img alt="">`,
  );
  await card.$eval('p', (p, text) => (p.textContent = text), caption);
  await card.$eval('img', (img, src) => (img.src = `data:image/png;base64,${src}`), shot);
  await card.screenshot({ path, type: 'png' });
}

async function shootLocale(locale: Locale, dir: string): Promise<string[]> {
  const demo = await startDemoServer({ name: 'demo', everything: true });
  const basic = await startAppServer('basic-vanillajs');
  const ext = await launchExtension({ locale });
  const written: string[] = [];
  try {
    const panel = await ext.openPanel();
    const card = await ext.browser.newPage();
    const save = async (name: string) => {
      const path = join(dir, `${locale}-${name}.png`);
      await compose(card, await panelShot(panel), CAPTIONS[locale][name] ?? name, path);
      written.push(path);
    };
    await addServerInPanel(panel, { name: 'Demo', url: demo.url });
    await addServerInPanel(panel, { name: 'Clock app', url: basic.url });
    for (const id of ['demo', 'clock-app']) await waitFor(panel, `${row(id)} >>> mcp-status-badge[status="ready"]`, 20_000);
    await openView(panel, 'servers');
    await panel.bringToFront();
    await save('servers');
    await openTool(panel, 'demo', 'weather');
    await panel.click('mcp-tool-runner >>> button[type="submit"]');
    await waitFor(panel, 'mcp-tool-runner >>> mcp-result-view', 20_000);
    await save('tool');
    await openTool(panel, 'clock-app', 'get-time');
    await panel.click('mcp-tool-runner >>> button[type="submit"]');
    const frame = await until('the view', async () => panel.frames().find((f) => f.url() === 'about:srcdoc'));
    await until('the time in the view', async () =>
      /^\d{4}-/.test(await frame.$eval('#server-time', (e) => e.textContent ?? '').catch(() => '')),
    );
    await save('app');
  } finally {
    await ext.close();
    await demo.close();
    await basic.close();
  }
  return written;
}

export async function storeScreenshots(dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  return [...(await shootLocale('en', dir)), ...(await shootLocale('zh_CN', dir))];
}
