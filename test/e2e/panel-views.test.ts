/**
 * The panel's views at 320 px and what assistive technology gets (docs/ui.md): every
 * view opens with a long server name, a long URL and long tool names without sideways scrolling
 * and without any element wider than the panel; controls are named with their server; status
 * badges are not live regions; every tool row, scrolled into view or not, is in the
 * accessibility tree; Back returns the focus to the row that opened the detail.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { DETAIL, DETAIL_TOOLS, SETTINGS, back, openServer, openTool, openView, row } from '../support/panel-views.js';

const NAME = 'Atlassian Confluence (work account) — production tenant';
const LONG_TOOL = 'confluence_search_pages_by_label_space_and_last_modified_date_with_full_text';
const EXTRA_TOOLS = Array.from({ length: 60 }, (_, i) => `bulk_tool_${String(i).padStart(2, '0')}`);

let server: DemoServer;
let ext: ExtensionBrowser;
let panel: Page;

before(async () => {
  server = await startDemoServer();
  server.addTool(LONG_TOOL);
  for (const name of EXTRA_TOOLS) server.addTool(name);
  ext = await launchExtension();
  panel = await ext.openPanel();
  await panel.setViewport({ width: 320, height: 700 });
  await addServerInPanel(panel, { name: NAME, url: `${server.url}?tenant=${'production-eu-west-1-'.repeat(6)}` });
  await waitFor(panel, `${row()} >>> mcp-status-badge[status="ready"]`, 20_000);
});

after(async () => {
  await ext?.close();
  await server?.close();
});

/** Elements (through shadow roots) whose right edge passes the panel's, unless a clipping ancestor inside the panel hides it. */
const OVERFLOW = `(() => {
  const cw = document.documentElement.clientWidth;
  const out = [];
  const clippedInside = (node) => {
    for (let a = node.parentNode; a; a = a.parentNode || a.host) {
      if (!(a instanceof Element)) continue;
      const s = getComputedStyle(a);
      if (s.overflowX !== 'visible') return a.getBoundingClientRect().right <= cw + 1;
    }
    return false;
  };
  const walk = (root) => {
    for (const e of root.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if (r.width > 0 && r.right > cw + 1 && !clippedInside(e)) out.push(e.tagName.toLowerCase() + '.' + e.className + ' ' + Math.round(r.right));
      if (e.shadowRoot) walk(e.shadowRoot);
    }
  };
  walk(document);
  return { scrollWidth: document.documentElement.scrollWidth, clientWidth: cw, out: out.slice(0, 10) };
})()`;

async function assertFits(view: string) {
  const r = (await panel.evaluate(OVERFLOW)) as { scrollWidth: number; clientWidth: number; out: string[] };
  assert.ok(r.scrollWidth <= r.clientWidth, `${view}: the page is ${r.scrollWidth} px wide in a ${r.clientWidth} px panel`);
  assert.deepEqual(r.out, [], `${view}: elements wider than the panel`);
}

test('every view fits a 320 px panel with a long server name, URL and tool names', async () => {
  await openView(panel, 'servers');
  await assertFits('servers');
  const id = (await panel.$eval(row(), (c) => c.getAttribute('server-id')))!;
  await openServer(panel, id);
  await assertFits('detail');
  for (const section of ['prompts', 'resources', 'settings', 'log'])
    await panel.$eval(`mcp-server-detail >>> details[data-section="${section}"]`, (d) => (d.open = true));
  await assertFits('detail, every section open');
  await openTool(panel, id, LONG_TOOL);
  await assertFits('tool');
  for (const view of ['add', 'import', 'directory', 'tools', 'chat', 'activity'] as const) {
    await openView(panel, view);
    await assertFits(view);
  }
  await panel.setViewport({ width: 420, height: 900 });
});

test('controls are named with their server, names carry no descriptions, badges are not live regions', async () => {
  const id = (await panel.$eval(row(), (c) => c.getAttribute('server-id')))!;
  await openView(panel, 'servers');
  assert.equal(await panel.$eval(`${row(id)} >>> [role="switch"]`, (b) => b.getAttribute('aria-label')), `${NAME} enabled`);
  assert.equal(await panel.$('mcp-status-badge >>> [role="status"], mcp-status-badge >>> [aria-live]'), null);
  await openServer(panel, id);
  assert.equal(
    await panel.$eval(`${DETAIL_TOOLS} >>> input[type="search"]`, (i) => i.getAttribute('aria-label')),
    `Search tools of ${NAME}`,
  );
  assert.equal(await panel.$eval(`${SETTINGS} >>> button[data-action="delete"]`, (b) => b.getAttribute('aria-label')), `Delete ${NAME}`);
  assert.equal(await panel.$eval(`${DETAIL_TOOLS} >>> input[data-tool="echo"]`, (b) => b.getAttribute('aria-label')), 'Echo enabled');
  assert.equal(await panel.$(`${DETAIL} >>> [aria-live]`), null);
});

test('every tool row is in the accessibility tree, scrolled into view or not', async () => {
  const snapshot = await panel.accessibility.snapshot({ interestingOnly: false });
  const names = new Set<string>();
  const walk = (node: { role?: string; name?: string; children?: unknown[] } | null) => {
    if (!node) return;
    if (node.role === 'checkbox' && node.name) names.add(node.name);
    for (const c of node.children ?? []) walk(c as typeof node);
  };
  walk(snapshot);
  for (const tool of ['Echo', LONG_TOOL, ...EXTRA_TOOLS]) assert.ok(names.has(`${tool} enabled`), `${tool} is missing from the tree`);
});

test('every row of the Tools view is in the accessibility tree, a group far out of view too (content-visibility: auto)', async () => {
  await addServerInPanel(panel, { name: 'Second', url: `${server.url}?second=1` });
  await waitFor(panel, `${row('second')} >>> mcp-status-badge[status="ready"]`, 20_000);
  await openView(panel, 'tools');
  const inTree = async () => {
    const snapshot = await panel.accessibility.snapshot({ interestingOnly: false });
    const names: string[] = [];
    const walk = (node: { name?: string; children?: unknown[] } | null) => {
      if (!node) return;
      if (node.name) names.push(node.name);
      for (const c of node.children ?? []) walk(c as typeof node);
    };
    walk(snapshot);
    return names.filter((n) => n.includes('bulk_tool_59')).length;
  };
  // Both groups' last rows: the second group starts some 60 rows below the fold.
  await until('both groups’ last rows in the tree', async () => ((await inTree()) >= 2 ? true : undefined));
  const skipped = await panel.$eval('mcp-tools-view', (v) => {
    const groups = [...v.shadowRoot!.querySelectorAll('ul')];
    return groups.map((g) => getComputedStyle(g).contentVisibility);
  });
  assert.deepEqual(skipped, ['auto', 'auto']);
});

test('Back from the detail returns the focus to the row that opened it', async () => {
  const id = (await panel.$eval(row(), (c) => c.getAttribute('server-id')))!;
  await openServer(panel, id);
  await back(panel);
  const focused = await panel.evaluate(`(() => {
    let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a ? a.className : '';
  })()`);
  assert.equal(focused, 'open');
  assert.deepEqual(ext.errors, []);
});
