/**
 * `npm start`: builds the extension, starts the demo MCP server on 127.0.0.1, launches Chromium
 * with the extension loaded and the demo server already added, and opens the side panel page.
 * Headed when a display is available, headless otherwise. Ctrl+C stops everything.
 */
import { execFileSync } from 'node:child_process';
import { launchExtension } from '../test/support/browser.js';
import { startDemoServer } from '../test/support/demo-server.js';

const port = Number(process.env.DEMO_PORT ?? 3939);
execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { stdio: 'inherit' });

const server = await startDemoServer({ port });
const headless = !process.env.DISPLAY;
const ext = await launchExtension({ headless });
const worker = await ext.serviceWorker();
await worker.evaluate(async (url: string) => {
  const got = await chrome.storage.local.get('mcp_servers');
  const list = Array.isArray(got.mcp_servers) ? got.mcp_servers : [];
  if (!list.some((s: { url?: string }) => s.url === url)) {
    list.push({ id: 'demo', name: 'Demo server', url, auth: { kind: 'none' }, enabled: true, disabledTools: [], connectOnStartup: true });
    await chrome.storage.local.set({ mcp_servers: list });
  }
}, server.url);
const panel = await ext.openPanel();

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
  demo MCP server : ${server.url}  (tools: echo, add, slow; prompt: greet; resource: demo://readme)
  Chromium        : ${headless ? 'headless (no DISPLAY; run under xvfb-run or a desktop to see it)' : 'window open'}, extension id ${ext.extensionId}
  side panel page : ${panel.url()}  (the toolbar icon opens the real side panel)
  chat provider   : ${chatBase ? `${chatBase} (${process.env.CHAT_MODEL ?? 'llama3.1'})` : 'none (set CHAT_BASE_URL, see README "Chat")'}
Press Ctrl+C to stop the browser and the server.`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await ext.close();
  await server.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
ext.browser.on('disconnected', () => void stop());
