/**
 * zh_CN is complete (section K): with servers in several states (ready with catalog
 * warnings, unreachable, refused for want of a token, disabled), an import preview with skipped
 * entries, an elicitation card whose form failed validation, the test walks every text node and
 * every `aria-label`/`title`/`placeholder` of the panel, open shadow roots included, in every view
 * (each `[role=tab]` in turn, a server's detail when a row opens one, every `<details>` opened),
 * and fails on English words. Strings the servers provided (names, URLs, tool names and
 * descriptions, the server's own error text) and terms kept in English are allowed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { launchExtension, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { openServer, openTool, openView } from '../support/panel-views.js';
import { panelRequest } from '../support/panel-request.js';

/** Words kept in English in the zh_CN catalog: names of protocols, formats and products. */
const KEPT = [
  'MCP',
  // Product names of model providers and the Markdown format.
  'OpenAI',
  'OpenRouter',
  'Ollama',
  'Anthropic',
  'Markdown',
  'OAuth',
  'URL',
  'JSON',
  'JSONC',
  'HTTP',
  'HTTPS',
  'https',
  'http',
  'Bearer',
  'API',
  'SSE',
  'stdio',
  'Streamable',
  'Remote',
  'for',
  'Chrome',
  'Claude',
  'Code',
  'Cursor',
  'VS',
  'Windsurf',
  'Gemini',
  'CLI',
  'mcp-remote',
  'KiB',
  'true',
  'false',
  'localhost',
  'taskSupport',
  'required',
  'well-known',
  'OpenID',
];

let ext: ExtensionBrowser;
let panel: Page;
let ready: DemoServer;
let guarded: DemoServer;

/** Server-provided strings the panel may show as they came. */
const fixtureStrings = new Set<string>();

before(async () => {
  ready = await startDemoServer({
    name: 'Demo',
    elicitation: true,
    rawTools: [
      { name: 'bad name!', inputSchema: { type: 'object' } },
      { name: 'echo', inputSchema: { type: 'object' } },
    ],
  });
  guarded = await startDemoServer({ name: 'Guarded', bearerToken: 'secret-token' });
  ext = await launchExtension({ locale: 'zh_CN' });
  panel = await ext.openPanel();
});

after(async () => {
  await ext?.close();
  await ready?.close();
  await guarded?.close();
});

/** Sends a panel request the way the panel does, on a panel Port. */
const request = (type: string, params: Record<string, unknown>) =>
  panelRequest<{ ok: boolean; value?: Record<string, unknown> }>(panel, type, params);

async function addServer(name: string, url: string): Promise<string> {
  const r = await request('panel:add-server', { name, url, auth: { kind: 'none' } });
  assert.ok(r.ok, `added ${name}: ${JSON.stringify(r)}`);
  return String(r.value!.serverId);
}

interface StateReason {
  message: string;
  wording?: { params?: Record<string, string> };
}

/** Every server-provided string of the panel state: everything but the reasons and warnings we word ourselves. */
async function serverStrings(): Promise<void> {
  const r = await request('panel:get-state', {});
  const walk = (v: unknown, key = ''): void => {
    if (typeof v === 'string') {
      if (v.length > 0) fixtureStrings.add(v);
    } else if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'reason' || k === 'warnings') {
          // Only the parameters of our own wording are server strings (origins, names, the server's text).
          const items = (Array.isArray(x) ? x : [x]) as StateReason[];
          for (const item of items) for (const p of Object.values(item?.wording?.params ?? {})) walk(p);
        } else {
          fixtureStrings.add(k);
          walk(x, k);
        }
      }
    }
  };
  walk(r.value);
}

/** Collects every visible text and named attribute of the document, open shadow roots included. */
const COLLECT = `(() => {
  const out = [];
  const visit = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = walker.currentNode; n; n = walker.nextNode()) {
      if (n.nodeType === Node.TEXT_NODE) {
        const parent = n.parentElement;
        if (parent && (parent.closest('style, script, textarea') || parent.closest('[hidden]'))) continue;
        // Request log rows: method names and the stored error text of each request. Their wording
        // is the Activity view's work (section K); the column headers are still checked.
        if (parent && parent.closest('td.method, td.err')) continue;
        const text = n.textContent.trim();
        if (text) out.push(text);
        continue;
      }
      if (n.nodeType !== Node.ELEMENT_NODE) continue;
      if (n.localName === 'style' || n.localName === 'script') continue;
      for (const a of ['aria-label', 'title', 'placeholder']) {
        const v = n.getAttribute(a);
        if (v && v.trim()) out.push(v.trim());
      }
      if (n.localName === 'option' && n.textContent.trim()) out.push(n.textContent.trim());
      if (n.shadowRoot) visit(n.shadowRoot);
    }
  };
  visit(document.body);
  return out;
})()`;

/** Opens every <details>, including those inside shadow roots. */
const OPEN_DETAILS = `(() => {
  const visit = (root) => {
    for (const d of root.querySelectorAll('details')) d.open = true;
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) visit(el.shadowRoot);
  };
  visit(document);
})()`;

/** Every `[role=tab]` in the document (views of the panel), as their index. */
/** The English words left in one text once server strings and kept terms are taken out. */
function englishIn(text: string, allowed: readonly string[]): string[] {
  // A payload shown as JSON (a message an agent would receive, a tool result) is data, not words.
  if (/^[[{]/.test(text.trim())) {
    try {
      JSON.parse(text);
      return [];
    } catch {
      // Not JSON: checked as text.
    }
  }
  // A JSON-RPC method as the Activity log names it (`tools/list`, `initialize <url>`) is protocol, not words.
  if (/^(initialize|ping|[a-z]+(\/[a-z_]+)+)(\s|$)/.test(text.trim())) text = text.trim().replace(/^\S+/, ' ');
  // URLs and host names (placeholders of URL fields, origins) are not words to translate.
  let rest = text.replace(/\bhttps?:\/\/\S+/g, ' ').replace(/\b[a-z0-9-]+(\.[a-z0-9-]+)+(\/\S*)?/gi, ' ');
  for (const s of allowed) if (s.length >= 3 && rest.includes(s)) rest = rest.split(s).join(' ');
  const words = rest.match(/[A-Za-z][A-Za-z'-]{2,}/g) ?? [];
  return words.filter((w) => !KEPT.includes(w));
}

async function untranslated(view: string): Promise<string[]> {
  await panel.evaluate(OPEN_DETAILS);
  await new Promise((r) => setTimeout(r, 150));
  await serverStrings();
  const allowed = [...fixtureStrings].sort((a, b) => b.length - a.length);
  const texts = (await panel.evaluate(COLLECT)) as string[];
  const bad: string[] = [];
  for (const text of texts) {
    const words = englishIn(text, allowed);
    if (words.length > 0) bad.push(`[${view}] ${JSON.stringify(text.slice(0, 200))} → ${words.join(' ')}`);
  }
  return bad;
}

test('every text of every view is Chinese, apart from server strings and terms kept in English', { timeout: 120_000 }, async () => {
  for (const s of ['Demo', 'Guarded', 'Unreachable', 'Switched off', ready.url, guarded.url, 'bad name!', 'secret-token'])
    fixtureStrings.add(s);

  // Ready, with catalog warnings (an invalid name, a duplicate).
  const demo = await addServer('Demo', ready.url);
  await request('panel:connect', { serverId: demo });
  // A server that wants a token it was not given.
  const guard = await addServer('Guarded', guarded.url);
  await request('panel:connect', { serverId: guard });
  // Nothing listens on port 9.
  const down = await addServer('Unreachable', 'http://127.0.0.1:9/mcp');
  await request('panel:connect', { serverId: down });
  // Disabled.
  const off = await addServer('Switched off', 'http://127.0.0.1:8/mcp');
  await request('panel:set-enabled', { serverId: off, enabled: false });

  await until('the four states', async () => {
    const r = await request('panel:get-state', {});
    const servers = (r.value?.servers ?? []) as { id: string; status: string }[];
    const status = (id: string) => servers.find((s) => s.id === id)?.status;
    return status(demo) === 'ready' && status(guard) !== 'connecting' && status(down) === 'error';
  });

  // An import preview with skipped entries (stdio, legacy SSE, a duplicate name, an existing server's name) and another account on a saved URL (S3).
  await openView(panel, 'import');
  const importer = await waitFor(panel, 'mcp-import');
  await importer.evaluate(
    (el, value) => {
      const area = el.shadowRoot!.querySelector('textarea')!;
      area.value = value;
      area.dispatchEvent(new Event('input', { bubbles: true }));
    },
    JSON.stringify({
      mcpServers: {
        Local: { command: 'npx' },
        Legacy: { type: 'sse', url: 'https://legacy.example/sse' },
        Again: { url: ready.url },
        demo: { url: 'https://again.example/mcp' },
        Twice: { url: 'https://twice.example/mcp' },
        twice: { url: 'https://twice.example/other' },
        Broken: { url: 'example.com/mcp' },
      },
    }),
  );
  for (const s of [
    'Local',
    'Legacy',
    'Again',
    'demo',
    'Twice',
    'twice',
    'Broken',
    'https://legacy.example/sse',
    'https://twice.example/mcp',
    'https://twice.example/other',
    'https://again.example/mcp',
  ])
    fixtureStrings.add(s);
  fixtureStrings.add('example.com/mcp');
  await panel.click('mcp-import >>> button[data-action="preview"]');
  await waitFor(panel, 'mcp-import >>> tbody tr[data-entry="Local"]');

  // An elicitation card whose form failed validation (the required "Guests" left empty).
  await openTool(panel, demo, 'confirm_booking');
  await panel.click('mcp-tool-runner >>> button[type="submit"]');
  await waitFor(panel, 'mcp-elicitation-card >>> button[data-action="accept"]', 20_000);
  await panel.click('mcp-elicitation-card >>> button[data-action="accept"]');
  for (const s of ['Confirm your booking in Lisbon?', 'Guests', 'Seat', 'Newsletter', 'window', 'aisle', 'Lisbon', 'confirm_booking'])
    fixtureStrings.add(s);

  const bad: string[] = [...(await untranslated('tool'))];
  for (const view of ['servers', 'tools', 'chat', 'activity', 'add', 'import', 'directory'] as const) {
    await openView(panel, view);
    bad.push(...(await untranslated(view)));
  }
  for (const id of [demo, guard, down, off]) {
    await openServer(panel, id);
    bad.push(...(await untranslated(`detail of ${id}`)));
  }
  assert.deepEqual([...new Set(bad)], [], `English left in the zh_CN panel:\n${[...new Set(bad)].join('\n')}`);
});
