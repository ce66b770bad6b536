/**
 * The chat's states and a chat app's actions in the view (T1, T5), plus the two chat edges of the
 * panel (a new approval card takes the focus unless the user is writing; a failed step is named by
 * its tool's title and server, never `mcp__server__tool`).
 */
import { expect, fixture, html } from '@open-wc/testing';
import './setup.js';
import { nextTask, pollUntil } from './wait.js';
import type { McpChatViewElement } from '../../src/components/mcp-chat-view.js';
import type { McpComposerElement } from '../../src/components/mcp-composer.js';
import { ChatActionEvent, type ChatAction } from '../../src/components/chat-events.js';
import type { ChatEntry, ChatView, ProviderSettingsView } from '../../src/protocol/panel-chat.js';
import type { ServerView } from '../../src/protocol/panel.js';
import type { ApprovalView } from '../../src/protocol/panel-use.js';

const provider: ProviderSettingsView = { kind: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'm1', hasKey: false, maxSteps: 20 };

const chat = (entries: ChatEntry[], over: Partial<ChatView> = {}): ChatView => ({
  id: 'c1',
  title: 'Demo chat',
  createdAt: 1,
  updatedAt: 2,
  disabledTools: [],
  status: 'idle',
  provider: { kind: 'openai', model: 'm1', host: '127.0.0.1:1' },
  entries,
  ...over,
});

const user: ChatEntry = { kind: 'user', id: 'u1', text: 'What **changed**?', blocks: [{ label: '@notes · Demo', text: 'x' }] };
const answer: ChatEntry = {
  kind: 'assistant',
  id: 'a1',
  text: 'The **notes**.',
  toolCalls: [],
  usage: { inputTokens: 800, outputTokens: 41 },
};

async function view(c?: ChatView) {
  const el = await fixture<McpChatViewElement>(html`<mcp-chat-view></mcp-chat-view>`);
  el.provider = provider;
  if (c) el.chat = c;
  await el.updateComplete;
  const actions: ChatAction[] = [];
  el.addEventListener(ChatActionEvent.type, (e) => actions.push((e as ChatActionEvent).detail));
  return { el, root: el.shadowRoot!, actions };
}

const text = (root: ShadowRoot, selector: string) => root.querySelector(selector)?.textContent ?? '';

describe('chat states (T1)', () => {
  it('says "Waiting for the model…" from Enter until the first words arrive', async () => {
    const streaming: ChatEntry = { kind: 'assistant', id: 'a1', text: '', toolCalls: [], streaming: true };
    const { el, root } = await view(chat([user, streaming], { status: 'running', phase: { kind: 'waiting-model', since: 1 } }));
    expect(text(root, '.phase[data-phase="waiting-model"]')).to.equal('Waiting for the model…');
    expect(root.querySelector('.phase-box')?.getAttribute('role')).to.equal('status');
    el.setText('c1', 'a1', 'Hel');
    expect(root.querySelector('.phase')).to.equal(null);
  });

  it('shows the model\'s reasoning collapsed under "Thinking", apart from the answer and as text (T3)', async () => {
    const reasoned: ChatEntry = { ...answer, reasoning: 'First <b>check</b> the notes.' };
    const { root } = await view(chat([user, reasoned]));
    const details = root.querySelector<HTMLDetailsElement>('li.assistant details.thinking')!;
    expect(details.open).to.equal(false);
    expect(details.querySelector('summary')!.textContent).to.equal('Thinking');
    expect(details.querySelector('.reasoning')!.textContent).to.equal('First <b>check</b> the notes.');
    expect(details.querySelector('b')).to.equal(null);
    expect(root.querySelector('li.assistant .markdown')!.textContent).to.not.include('check');
  });

  it('shows a retry with its countdown and a Cancel that stops the run', async () => {
    const until = Date.now() + 30_000;
    const { root, actions } = await view(chat([user], { status: 'running', phase: { kind: 'retrying', until, attempt: 2, status: 429 } }));
    expect(text(root, '.phase[data-phase="retrying"]')).to.match(/HTTP 429.*Trying again in (29|30) s \(attempt 2\)/);
    root.querySelector<HTMLButtonElement>('button.cancel-retry')!.click();
    expect(actions).to.deep.equal([{ action: 'stop', chatId: 'c1' }]);
  });

  it('names each step state, and a failed step by its tool title and server (never mcp__server__tool)', async () => {
    const step = (id: string, status: Extract<ChatEntry, { kind: 'tool' }>['status'], over = {}): ChatEntry => ({
      kind: 'tool',
      id,
      callId: id,
      name: 'mcp__demo__echo',
      serverId: 'demo',
      serverName: 'Demo',
      toolName: 'echo',
      arguments: '{}',
      status,
      startedAt: 1,
      ...over,
    });
    const { el, root } = await view(
      chat([user, step('t1', 'waiting-approval'), step('t2', 'running'), step('t3', 'done'), step('t4', 'denied')], { status: 'running' }),
    );
    const summaries = () => [...root.querySelectorAll('details.step summary')].map((s) => s.textContent);
    expect(summaries()).to.deep.equal([
      'echo · Demo · waiting for your approval',
      'echo · Demo · running',
      'echo · Demo · done',
      'echo · Demo · denied',
    ]);
    // A step whose tool was not found at call time carries only the model-facing name.
    el.servers = [
      {
        id: 'demo',
        name: 'Demo server',
        tools: [{ name: 'echo', title: 'Echo text', inputSchema: { type: 'object' } }],
      } as unknown as ServerView,
    ];
    el.chat = chat([
      user,
      { kind: 'tool', id: 't5', callId: 'k', name: 'mcp__demo__echo', arguments: '{}', status: 'error', startedAt: 1 },
    ]);
    await el.updateComplete;
    expect(summaries()).to.deep.equal(['Echo text · Demo server · failed']);
  });
});

describe('chat actions (T5)', () => {
  it('copies any message as Markdown from a keyboard-reachable button, and says "Copied"', async () => {
    const copied: string[] = [];
    Object.defineProperty(navigator.clipboard, 'writeText', { configurable: true, value: async (s: string) => void copied.push(s) });
    const { root } = await view(chat([user, answer]));
    const buttons = [...root.querySelectorAll<HTMLButtonElement>('button.copy-message')];
    expect(buttons.map((b) => b.getAttribute('aria-label'))).to.deep.equal(['Copy as Markdown', 'Copy as Markdown']);
    expect(buttons.every((b) => b.tabIndex === 0 && !b.disabled)).to.equal(true);
    buttons[0]!.click();
    buttons[1]!.click();
    expect(await pollUntil(() => copied.length === 2, 50, 10)).to.equal(true);
    expect(copied).to.deep.equal(['What **changed**?\n\n> Attached: @notes · Demo', 'The **notes**.']);
    await nextTask();
    expect(buttons.map((b) => b.textContent)).to.deep.equal(['Copied', 'Copied']);
  });

  it('regenerates the last answer, only once the chat is idle', async () => {
    const { el, root, actions } = await view(chat([user, answer], { status: 'running' }));
    expect(root.querySelector('button.regenerate')).to.equal(null);
    el.chat = chat([user, answer, { kind: 'error', id: 'e1', errorKind: 'rate-limit', message: 'HTTP 429' }]);
    await el.updateComplete;
    expect(root.querySelectorAll('button.regenerate').length).to.equal(1);
    expect(root.querySelector('li.provider-error button.regenerate')).to.not.equal(null);
    root.querySelector<HTMLButtonElement>('button.regenerate')!.click();
    expect(actions).to.deep.equal([{ action: 'regenerate', chatId: 'c1' }]);
  });

  it('edits a message in place, says the later turns are replaced, resends, and marks it edited', async () => {
    const { el, root, actions } = await view(chat([user, answer]));
    root.querySelector<HTMLButtonElement>('li.user button.edit-message')!.click();
    await el.updateComplete;
    const area = root.querySelector<HTMLTextAreaElement>('form.edit textarea')!;
    expect(area.value).to.equal('What **changed**?');
    expect(text(root, 'form.edit .hint')).to.match(/replaces this message and everything after it; the old answers are not kept/);
    area.value = 'What changed this week?';
    el.servers = []; // a push while editing keeps the form and its draft
    await el.updateComplete;
    expect(root.querySelector('form.edit textarea')).to.equal(area);
    root.querySelector<HTMLButtonElement>('form.edit button.resend')!.click();
    expect(actions).to.deep.equal([{ action: 'edit', chatId: 'c1', entryId: 'u1', text: 'What changed this week?' }]);
    el.chat = chat([{ ...user, text: 'What changed this week?', edited: true }]);
    await el.updateComplete;
    expect(root.querySelector('form.edit')).to.equal(null);
    expect(text(root, 'li.user .edited')).to.equal('edited');
  });

  it("shows the chat's total tokens, or — where the provider gave no usage", async () => {
    const { el, root } = await view(chat([user, answer, { ...answer, id: 'a2', usage: { inputTokens: 100, outputTokens: 9 } }]));
    expect(text(root, '.tokens')).to.equal('This chat: 950 tokens');
    el.chat = chat([user, { ...answer, usage: undefined }]);
    await el.updateComplete;
    expect(text(root, '.tokens')).to.equal('This chat: — tokens');
  });

  it('after a provider switch the header names the provider of the next message', async () => {
    const { el, root } = await view(chat([user, answer]));
    expect(root.querySelector('.next-provider')).to.equal(null);
    el.provider = { ...provider, kind: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'claude-x' };
    await el.updateComplete;
    expect(text(root, '.model')).to.contain('m1');
    expect(text(root, '.next-provider')).to.equal('Next message: claude-x · Anthropic · api.anthropic.com');
  });

  it('lists the history with dates and provider/model, and searches it through the worker', async () => {
    const { el, root, actions } = await view(chat([user, answer]));
    el.chats = [
      {
        id: 'c1',
        title: 'Demo chat',
        createdAt: Date.UTC(2026, 0, 5),
        updatedAt: 2,
        status: 'idle',
        provider: { kind: 'openai', model: 'm1', host: 'h' },
      },
      { id: 'c2', title: 'Sprint plan', createdAt: Date.UTC(2026, 0, 6), updatedAt: 1, status: 'idle' },
    ];
    root.querySelector<HTMLButtonElement>('button.history')!.click();
    await el.updateComplete;
    expect(root.querySelector('button.history')?.getAttribute('aria-expanded')).to.equal('true');
    const rows = [...root.querySelectorAll('button.open-chat')];
    expect(rows.map((r) => r.querySelector('.chat-title')?.textContent)).to.deep.equal(['Demo chat', 'Sprint plan']);
    expect(rows[0]!.querySelector('.chat-meta')?.textContent).to.match(/2026.* · m1 · OpenAI-compatible · h$/);
    expect(rows[0]!.getAttribute('aria-current')).to.equal('true');
    const search = root.querySelector<HTMLInputElement>('input[name="chat-search"]')!;
    expect(root.activeElement).to.equal(search);
    search.value = 'release';
    search.dispatchEvent(new Event('input'));
    expect(await pollUntil(() => actions.length > 0, 50, 20)).to.equal(true);
    expect(actions).to.deep.equal([{ action: 'search', query: 'release' }]);
    el.searchResults = {
      query: 'release',
      chats: [{ id: 'c2', title: 'Sprint plan', createdAt: 1, updatedAt: 1, status: 'idle', snippet: '…the release notes…' }],
    };
    await el.updateComplete;
    expect(text(root, 'button.open-chat .chat-snippet')).to.equal('…the release notes…');
    expect(root.activeElement, 'the search keeps the focus while results arrive').to.equal(search);
    root.querySelector<HTMLButtonElement>('button.open-chat')!.click();
    expect(actions.at(-1)).to.deep.equal({ action: 'open', chatId: 'c2' });
    el.searchResults = { query: 'release', chats: [] };
    root.querySelector<HTMLButtonElement>('button.history')!.click();
    await el.updateComplete;
    expect(text(root, '.history-empty')).to.equal('No chat contains “release”.');
  });
});

describe('chat approval cards (focus)', () => {
  const card = (id: string): ApprovalView => ({
    id,
    serverId: 'demo',
    serverName: 'Demo',
    tool: 'echo',
    agentName: 'Chat',
    runId: 'c1',
    argumentsJson: '{}',
    requestedAt: 1,
    status: 'pending',
  });
  const deepActive = () => {
    let a: Element | null = document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return a;
  };

  it('a new card is announced and takes the focus after a send (empty composer), not while the user writes a draft', async () => {
    const { el, root } = await view(chat([user], { status: 'running' }));
    const composer = root.querySelector('mcp-composer') as McpComposerElement;
    composer.shadowRoot!.querySelector('textarea')!.focus();
    el.approvals = [card('ap1')];
    const first = root.querySelector('mcp-approval-card')!;
    expect(await pollUntil(() => deepActive()?.getAttribute('role') === 'alertdialog', 50, 10)).to.equal(true);
    expect(first.shadowRoot!.contains(deepActive())).to.equal(true);
    expect(text(root, 'mcp-chat-approvals .sr-only')).to.equal('A tool call waits for your approval below.');

    const textarea = composer.shadowRoot!.querySelector('textarea')!;
    textarea.focus();
    composer.text = 'I am typing';
    el.approvals = [card('ap1'), card('ap2')];
    await nextTask(50);
    expect(deepActive()).to.equal(textarea);
    expect(root.querySelectorAll('mcp-approval-card').length).to.equal(2);
  });
});
