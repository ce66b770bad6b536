/**
 * A chat's own system prompt from the header's "More" menu (T5): the form opens prefilled with
 * focus in its textarea, Save and "Use the provider's" ask for the right prompt, a refusal stays
 * in the form with the text, Cancel and Escape ask for nothing, and focus goes back to "More".
 */
import { expect, fixture, html } from '@open-wc/testing';
import './setup.js';
import type { McpChatViewElement } from '../../src/components/mcp-chat-view.js';
import { ChatActionEvent, type ChatAction } from '../../src/components/chat-events.js';
import type { ChatView } from '../../src/protocol/panel-chat.js';

type PromptAction = Extract<ChatAction, { action: 'system-prompt' }>;

const chat = (over: Partial<ChatView> = {}): ChatView => ({
  id: 'c1',
  title: 'Demo chat',
  createdAt: 1,
  updatedAt: 2,
  disabledTools: [],
  status: 'idle',
  entries: [],
  ...over,
});

async function view(c: ChatView, refusal?: string) {
  const el = await fixture<McpChatViewElement>(html`<mcp-chat-view></mcp-chat-view>`);
  el.provider = {
    kind: 'openai',
    baseUrl: 'http://127.0.0.1:1/v1',
    model: 'm1',
    hasKey: false,
    maxSteps: 20,
    systemPrompt: 'Provider rules.',
  };
  el.chat = c;
  await el.updateComplete;
  const asked: PromptAction[] = [];
  el.addEventListener(ChatActionEvent.type, (e) => {
    const d = (e as ChatActionEvent).detail;
    if (d.action !== 'system-prompt') return;
    asked.push(d);
    d.answer(refusal);
  });
  const root = el.shadowRoot!;
  return { el, root, asked };
}

async function open(el: McpChatViewElement, root: ShadowRoot) {
  root.querySelector<HTMLElement>('.more > summary')!.click();
  root.querySelector<HTMLButtonElement>('button.system-prompt')!.click();
  await el.updateComplete;
  await new Promise((r) => setTimeout(r));
  return root.querySelector<HTMLFormElement>('form.system-prompt')!;
}

const settle = () => new Promise((r) => setTimeout(r));

describe('the chat’s own system prompt', () => {
  it('opens prefilled with focus in the labelled textarea, saves the text, and moves focus back to More', async () => {
    const { el, root, asked } = await view(chat({ systemPrompt: 'Be brief.' }));
    expect(root.querySelector('.own-prompt')?.textContent).to.equal('Own system prompt');
    const form = await open(el, root);
    const area = form.querySelector('textarea')!;
    expect(area.value).to.equal('Be brief.');
    expect(root.activeElement).to.equal(area);
    expect(form.querySelector(`label[for="${area.id}"]`)?.textContent).to.equal('System prompt for this chat');
    expect(area.placeholder).to.equal('Empty: the provider’s system prompt applies');
    expect(root.getElementById(area.getAttribute('aria-describedby')!)?.textContent).to.contain('the provider’s system prompt');

    expect([...form.querySelectorAll('button')].map((b) => b.textContent)).to.deep.equal(['Cancel', 'Use the provider’s', 'Save']);
    area.value = 'Answer in French.';
    form.querySelector<HTMLButtonElement>('button.save')!.click();
    await settle();
    expect(asked.map(({ chatId, systemPrompt }) => ({ chatId, systemPrompt }))).to.deep.equal([
      { chatId: 'c1', systemPrompt: 'Answer in French.' },
    ]);
    expect(root.querySelector('form.system-prompt')).to.equal(null);
    expect(root.activeElement).to.equal(root.querySelector('.more > summary'));

    // The worker's push rebuilds the header: the marker follows the chat, and the focus stays on More.
    el.chat = chat({ systemPrompt: 'Answer in French.', updatedAt: 3 });
    await el.updateComplete;
    expect(root.activeElement).to.equal(root.querySelector('.more > summary'));
  });

  it('"Use the provider’s" asks for an empty prompt; a chat without its own shows no marker', async () => {
    const { el, root, asked } = await view(chat({ systemPrompt: 'Be brief.' }));
    const form = await open(el, root);
    form.querySelector<HTMLButtonElement>('button.clear')!.click();
    await settle();
    expect(asked.map((a) => a.systemPrompt)).to.deep.equal(['']);
    el.chat = chat();
    await el.updateComplete;
    expect(root.querySelector('.own-prompt')).to.equal(null);
  });

  it('Cancel and Escape close the form, ask for nothing and give the focus back to More', async () => {
    const { el, root, asked } = await view(chat());
    let form = await open(el, root);
    expect(form.querySelector('textarea')!.value).to.equal('');
    form.querySelector<HTMLButtonElement>('button.cancel')!.click();
    expect(root.querySelector('form.system-prompt')).to.equal(null);
    expect(root.activeElement).to.equal(root.querySelector('.more > summary'));

    form = await open(el, root);
    form.querySelector('textarea')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(root.querySelector('form.system-prompt')).to.equal(null);
    expect(asked).to.deep.equal([]);
  });

  it('a refusal stays in the form beside the text; nothing typed is lost', async () => {
    const { el, root, asked } = await view(
      chat(),
      'This chat’s system prompt has 20001 characters; at most 20000 are allowed. Nothing was changed.',
    );
    const form = await open(el, root);
    const area = form.querySelector('textarea')!;
    area.value = 'Too long, say.';
    form.querySelector<HTMLButtonElement>('button.save')!.click();
    await settle();
    expect(asked.length).to.equal(1);
    expect(root.querySelector('form.system-prompt')).to.equal(form);
    expect(form.querySelector('[role="alert"]')?.textContent).to.match(/^This chat’s system prompt has 20001 characters/);
    expect(area.value).to.equal('Too long, say.');

    // A push of the same chat keeps the form and what is in it.
    el.chat = chat({ updatedAt: 9 });
    await el.updateComplete;
    expect(root.querySelector('form.system-prompt textarea')).to.equal(area);
  });
});
