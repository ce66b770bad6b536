/** What `npm start` prints once everything runs: what is where, and the next steps for each demo server. */
import type { Page } from 'puppeteer-core';

export interface StartFacts {
  headless: boolean;
  extensionId: string;
  panelUrl: string;
  demoUrl: string;
  oauthUrl: string;
  modernUrl: string;
  issuer: string;
  devtoolsPort: number;
  chat: string | undefined;
  build: { built: boolean; seconds: number };
  seconds: number;
}

/** CHAT_BASE_URL (+ CHAT_MODEL, CHAT_KIND, CHAT_API_KEY) points the Chat view at a provider, e.g. Ollama on loopback. */
export async function setUpChatProvider(panel: Page): Promise<string | undefined> {
  const chatBase = process.env.CHAT_BASE_URL;
  if (!chatBase) return undefined;
  const model = process.env.CHAT_MODEL ?? 'llama3.1';
  if (process.env.CHAT_KIND === 'anthropic') await (await panel.$('mcp-chat-view >>> select[name="kind"]'))?.select('anthropic');
  await panel.type('mcp-chat-view >>> input[name="base-url"]', chatBase);
  await panel.type('mcp-chat-view >>> input[name="model"]', model);
  if (process.env.CHAT_API_KEY) await panel.type('mcp-chat-view >>> input[name="api-key"]', process.env.CHAT_API_KEY);
  await panel.click('mcp-chat-view >>> form.provider button[type="submit"]');
  return `${chatBase} (${model})`;
}

function browserLines(f: StartFacts): string[] {
  if (!f.headless) return [`  Chromium        : a window with the extension (id ${f.extensionId}); the toolbar icon opens the side panel`];
  return [
    `  Chromium        : headless (no DISPLAY), extension id ${f.extensionId}`,
    `    to see it: in your own Chrome open chrome://inspect, "Configure…" → add 127.0.0.1:${f.devtoolsPort}, then "inspect" the`,
    `    page ${f.panelUrl}`,
    `    (from another machine: ssh -L ${f.devtoolsPort}:127.0.0.1:${f.devtoolsPort} first) — or stop and run \`xvfb-run -a npm start\` / start from a desktop.`,
  ];
}

export function summary(f: StartFacts): string {
  const importPaste = JSON.stringify({
    mcpServers: { Demo: { url: f.demoUrl }, 'Demo with sign-in': { url: f.oauthUrl }, 'Demo 2026-07-28': { url: f.modernUrl } },
  });
  return [
    '',
    `Remote MCP for Chrome is running (ready in ${f.seconds} s; ${f.build.built ? `built dist/ in ${f.build.seconds} s` : 'dist/ was up to date, not rebuilt'}).`,
    ...browserLines(f),
    `  side panel page : ${f.panelUrl}`,
    '',
    `  Demo server       ${f.demoUrl}   added as "Demo server", no sign-in: ready now.`,
    '    Try: Tools → "Echo" → type a text → Run. Or Chat (with a provider) → ask it to use the demo tools.',
    '    tools: echo, add, slow (progress, Abort), order_sushi (asks you a question), show_image, find_note,',
    '           weather, delete_note (destructive: an agent asks first); prompts greet, summarize_notes,',
    '           review_code; resources demo://readme, demo://notes, demo://logo.png, demo://notes/{id}',
    `  Demo with sign-in ${f.oauthUrl}   added as "Demo with sign-in", OAuth: needs authorization.`,
    `    Try: Servers → "Demo with sign-in" → Authorize → "Approve" in the sign-in window (authorization server`,
    `    ${f.issuer}); then its tools whoami and admin-op (asks for more scope: step-up).`,
    `  Demo 2026-07-28   ${f.modernUrl}   added as "Demo 2026-07-28": MCP 2026-07-28, stateless (no initialize, no session).`,
    '    Try: its detail says "MCP 2026-07-28 · stateless"; tools echo, ask-name (a multi round-trip question),',
    '           regional (its argument travels as the Mcp-Param-Region header).',
    '',
    '  To add them yourself: remove them, then paste this under Import (the ports are fixed, so it stays valid):',
    `    ${importPaste}`,
    '  or use "Add server" with any of these URLs: it detects that the second needs OAuth.',
    `  Chat provider   : ${f.chat ?? 'none (set CHAT_BASE_URL, see README "Chat")'}`,
    'Press Ctrl+C to stop the browser and the servers.',
  ].join('\n');
}
