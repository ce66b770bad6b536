/**
 * Every panel feature after the worker sleeps (C7, O3), the matrix's chat and OAuth half (the
 * rest is in worker-sleep-panel.test.ts): a chat turn against the scripted provider
 * (test/support/provider-server.ts) with a tool call approved in the conversation, and OAuth
 * Authorize / Re-authorize on real authorization servers (test/support/oauth-servers.ts). Each is
 * used, the worker is stopped without DevTools on it and waited for until gone while the panel
 * stays open, and the feature is used again with its outcome asserted. One browser launch.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, runToolInPanel, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { startProviderServer, type ProviderServer } from '../support/provider-server.js';
import { startOAuthServers, type OAuthServers } from '../support/oauth-servers.js';
import { CHAT, lastAssistantText, newChat, saveOpenAiProvider, sendChat } from '../support/chat-panel.js';
import { DETAIL, clickFresh, openServer, openView, row, storeServersFromPanel } from '../support/panel-views.js';
import { assertNewWorker, sleepWorker } from '../support/worker-sleep.js';

let demo: DemoServer;
let provider: ProviderServer;
let secure: OAuthServers;
let later: OAuthServers;
let ext: ExtensionBrowser;
let panel: Page;

before(async () => {
  [demo, provider, secure, later] = await Promise.all([
    startDemoServer(),
    startProviderServer(),
    startOAuthServers({ approval: 'auto' }),
    startOAuthServers({ approval: 'auto' }),
  ]);
  ext = await launchExtension({ workerDevTools: false });
  panel = await ext.openPanel();
  await storeServersFromPanel(panel, [{ id: 'demo', name: 'Demo', url: demo.url }]);
});

after(async () => {
  await ext?.close();
  await Promise.all([demo?.close(), provider?.close(), secure?.close(), later?.close()]);
});

const sleep = () => sleepWorker(ext, panel);

/** One chat turn: the model asks for echo, the user approves it in the conversation, the model answers with its result. */
async function chatTurn(text: string) {
  provider.script(
    { kind: 'stream', toolCalls: [{ id: `call_${text}`, name: 'mcp__demo__echo', arguments: JSON.stringify({ text }) }] },
    { kind: 'stream', text: [`The echo said ${text}.`] },
  );
  const sent = provider.requests.length;
  const echoes = demo.stats.toolCalls.filter((c) => c === 'echo').length;
  await openView(panel, 'chat');
  await sendChat(panel, `Please echo ${text}`);
  await clickFresh(panel, `${CHAT}mcp-approval-card >>> button[data-decision="once"]`);
  await until('the answer', async () => (await lastAssistantText(panel)).includes(`The echo said ${text}.`) || undefined);
  const [, second] = provider.requests.slice(sent);
  const messages = second!.body.messages as { role: string; content: string; tool_call_id?: string }[];
  assert.match(messages.find((m) => m.tool_call_id === `call_${text}`)!.content, new RegExp(`\\necho: ${text}\\n`));
  assert.equal(demo.stats.toolCalls.filter((c) => c === 'echo').length, echoes + 1, 'the approved call ran once');
  await until('the card to be settled', async () => (await panel.$(`${CHAT}mcp-approval-card >>> button[data-decision]`)) === null);
}

describe('chat', () => {
  it('runs a turn with a tool call approved in the conversation', async () => {
    await saveOpenAiProvider(panel, provider.openAiBase);
    await newChat(panel);
    await chatTurn('first');
  });

  it('runs the next turn of the same chat after the worker slept', async () => {
    await sleep();
    await chatTurn('second');
    const last = provider.requests.at(-1)!.body.messages as { role: string; content: string }[];
    assert.ok(
      last.some((m) => m.role === 'user' && m.content.includes('Please echo first')),
      'the conversation before the sleep went with it',
    );
    await assertNewWorker(ext);
  });
});

const ready = (id: string) => waitFor(panel, `${row(id)} >>> mcp-status-badge[status="ready"]`, 30_000);

async function authorize(id: string, label: 'Authorize' | 'Re-authorize') {
  await openServer(panel, id);
  const button = `${DETAIL} >>> button[data-action="authorize"]`;
  await waitFor(panel, button);
  assert.equal((await textOf(panel, button)).trim(), label);
  await clickFresh(panel, button);
}

async function whoami(id: string) {
  const r = await runToolInPanel(panel, id, 'whoami', {});
  assert.match(r.text ?? '', /^client=\S+/, r.error);
}

describe('OAuth authorize / re-authorize', () => {
  it('authorizes a server and runs its tool', async () => {
    await addServerInPanel(panel, { name: 'Secure', url: secure.mcpUrl, authKind: 'oauth' });
    await waitFor(panel, `${row('secure')} >>> mcp-status-badge[status="needs-auth"]`, 20_000);
    await authorize('secure', 'Authorize');
    await ready('secure');
    await whoami('secure');
    assert.equal(secure.stats.authorizeRequests, 1);
    await addServerInPanel(panel, { name: 'Later', url: later.mcpUrl, authKind: 'oauth' });
    await waitFor(panel, `${row('later')} >>> mcp-status-badge[status="needs-auth"]`, 20_000);
  });

  it('authorizes another server after the worker slept', async () => {
    await sleep();
    await authorize('later', 'Authorize');
    await ready('later');
    await whoami('later');
    assert.equal(later.stats.authorizeRequests, 1);
    await assertNewWorker(ext);
  });

  it('re-authorizes after the worker slept: the adopted session takes the new token, with no 401 and no refresh', async () => {
    await sleep();
    const tokens = secure.issued.accessTokens.length;
    const refreshes = secure.issued.refreshTokens.length;
    // The session the new worker adopts still sends the old token; the server stops accepting it.
    secure.rejectIssuedAccessTokens();
    await authorize('secure', 'Re-authorize');
    await until('a new token from the authorization', async () => secure.issued.accessTokens.length === tokens + 1);
    assert.equal(secure.stats.authorizeRequests, 2);
    await ready('secure');
    const unauthorized = secure.stats.unauthorized;
    const toolCalls = secure.stats.toolCalls;
    await whoami('secure');
    assert.equal(secure.stats.toolCalls, toolCalls + 1, 'the call ran once');
    assert.equal(secure.stats.unauthorized, unauthorized, 'the session sent the new token: no 401');
    assert.equal(secure.issued.refreshTokens.length, refreshes + 1, 'only the authorization issued a refresh token');
    await assertNewWorker(ext);
  });
});

describe('no errors', () => {
  it('no extension context logged an error or a CSP violation', () => {
    assert.deepEqual(
      ext.errors.filter((e) => !/Failed to load resource/.test(e)),
      [],
    );
  });
});
