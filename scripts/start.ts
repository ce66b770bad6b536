/**
 * `npm start`: builds the extension, starts two demo MCP servers on 127.0.0.1 — one that shows
 * every feature the panel offers (test/support/demo-everything.ts) and one behind a real OAuth
 * authorization server (the oidc-provider AS of the tests) — launches Chromium with the extension
 * loaded and both servers already added, and opens the side panel page. Headed when a display is
 * available, headless otherwise. Ctrl+C stops everything.
 */
import { execFileSync } from 'node:child_process';
import { launchExtension } from '../test/support/browser.js';
import { startDemoServer } from '../test/support/demo-server.js';
import { startOAuthServers } from '../test/support/oauth-servers.js';

const port = Number(process.env.DEMO_PORT ?? 3939);
execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { stdio: 'inherit' });

const server = await startDemoServer({ port, everything: true, name: 'Remote MCP demo' });
const oauth = await startOAuthServers({ approval: 'button' });
const headless = !process.env.DISPLAY;
const ext = await launchExtension({ headless });
const worker = await ext.serviceWorker();

const demos = [
  { id: 'demo', name: 'Demo server', url: server.url, auth: { kind: 'none' } },
  { id: 'demo-oauth', name: 'Demo with sign-in', url: oauth.mcpUrl, auth: { kind: 'oauth' } },
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
const panel = await ext.openPanel();

const importPaste = JSON.stringify({ mcpServers: { Demo: { url: server.url }, 'Demo with sign-in': { url: oauth.mcpUrl } } });
// CHAT_BASE_URL (+ CHAT_MODEL, CHAT_KIND, CHAT_API_KEY) points the Chat view at a provider, e.g. Ollama on loopback.
const chatBase = process.env.CHAT_BASE_URL;
if (chatBase) {
  if (process.env.CHAT_KIND === 'anthropic') await (await panel.$('mcp-chat-view >>> select[name="kind"]'))?.select('anthropic');
  await panel.type('mcp-chat-view >>> input[name="base-url"]', chatBase);
  await panel.type('mcp-chat-view >>> input[name="model"]', process.env.CHAT_MODEL ?? 'llama3.1');
  if (process.env.CHAT_API_KEY) await panel.type('mcp-chat-view >>> input[name="api-key"]', process.env.CHAT_API_KEY);
  await panel.click('mcp-chat-view >>> form.provider button[type="submit"]');
}

console.log(`
Remote MCP for Chrome is running.
  Chromium        : ${headless ? 'headless (no DISPLAY; run under xvfb-run or a desktop to see it)' : 'window open'}, extension id ${ext.extensionId}
  side panel page : ${panel.url()}  (the toolbar icon opens the real side panel)

  Demo server     : ${server.url}   (added as "Demo server", no sign-in)
    tools     echo, add (structured output), slow (progress, Abort), order_sushi (a question with a
              multi-select of titled options), show_image (an image), find_note (a resource link and an
              embedded resource), weather (structured output), delete_note (marked destructive: an agent asks first)
    prompts   greet(name), summarize_notes(style, maxWords?), review_code(language, code)
    resources demo://readme, demo://notes, demo://logo.png; template demo://notes/{id}
  Demo with sign-in: ${oauth.mcpUrl}   (added as "Demo with sign-in", OAuth)
    authorization server ${oauth.issuer} — click "Authorize" on its card, then "Approve" in the window.
    tools     whoami, admin-op (asks for more scope: step-up)

  Both are already added. To add them yourself instead, remove them and paste this under "Import":
    ${importPaste}
  or use "Add server" with either URL (choose OAuth for the second).
  Chat provider   : ${chatBase ? `${chatBase} (${process.env.CHAT_MODEL ?? 'llama3.1'})` : 'none (set CHAT_BASE_URL, see README "Chat")'}
Press Ctrl+C to stop the browser and the servers.`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await ext.close();
  await server.close();
  await oauth.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
ext.browser.on('disconnected', () => void stop());
