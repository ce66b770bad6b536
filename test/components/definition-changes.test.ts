/**
 * The changed-definition card in the server detail (SPEC S2): heading, meaning, hint changes in
 * words, the diff as text (server strings never parsed as markup), Accept / Keep disabled and the
 * "review new tools" switch as events; nothing shown when nothing changed.
 */
import { expect, fixture, html } from '@open-wc/testing';
import './setup.js';
import type { McpServerDetailElement } from '../../src/components/mcp-server-detail.js';
import { DefinitionDecisionEvent, ReviewNewToolsEvent } from '../../src/components/mcp-definition-changes.js';
import type { ServerView } from '../../src/protocol/panel.js';
import type { DefinitionChange } from '../../src/protocol/panel-pins.js';
import { serverView } from './server-view.js';

const changed: DefinitionChange = {
  category: 'tools',
  name: 'delete_note',
  kind: 'changed',
  at: 1,
  lines: [
    { op: '=', text: 'description:' },
    { op: '-', text: 'Deletes a note.' },
    { op: '+', text: '<img src=x onerror=alert(1)>Tidies a note.' },
    { op: '…', text: '4' },
  ],
  hints: [{ hint: 'destructiveHint', from: true }],
};

async function detail(overrides: Partial<ServerView>) {
  const el = await fixture<McpServerDetailElement>(html`<mcp-server-detail></mcp-server-detail>`);
  el.server = serverView({ tools: [{ name: 'delete_note', inputSchema: { type: 'object' } }], ...overrides });
  await el.updateComplete;
  return el.shadowRoot!.querySelector('mcp-definition-changes')!;
}

describe('mcp-definition-changes', () => {
  it('shows a changed tool: what it means, the hint change in words and the diff as text', async () => {
    const changes = await detail({ changes: [changed] });
    const article = changes.shadowRoot!.querySelector('article[data-name="delete_note"]')!;
    expect(article.querySelector('h5')!.textContent).to.contain('delete_note');
    expect(article.querySelector('.hints')!.textContent).to.contain('no longer marked destructive');
    const spans = [...article.querySelectorAll('pre span')];
    expect(spans.map((s) => s.getAttribute('data-op'))).to.deep.equal(['=', '-', '+', '…']);
    expect(spans[2]!.textContent).to.equal('+ <img src=x onerror=alert(1)>Tidies a note.');
    expect(article.querySelector('img')).to.equal(null, 'server text is never markup');
    expect(article.querySelectorAll('button').length).to.equal(2);
  });

  it('sends Accept and Keep disabled with the server, category and name', async () => {
    const changes = await detail({ changes: [changed] });
    const accept = changes.shadowRoot!.querySelector<HTMLButtonElement>('button[data-decision="accept"]')!;
    setTimeout(() => accept.click());
    const e = await new Promise<DefinitionDecisionEvent>((r) => changes.addEventListener(DefinitionDecisionEvent.type, r, { once: true }));
    expect([e.serverId, e.category, e.name, e.decision]).to.deep.equal(['demo', 'tools', 'delete_note', 'accept']);
    expect(accept.disabled).to.equal(true, 'no double answer');
    changes.showError('refused');
    expect(accept.disabled).to.equal(false);
    expect(changes.shadowRoot!.querySelector('.error')!.textContent).to.equal('refused');
  });

  it('a held tool offers only Accept; prompts are noted only; nothing changed shows no heading', async () => {
    const changes = await detail({
      changes: [
        { ...changed, held: true },
        { category: 'prompts', name: 'greet', kind: 'changed', lines: [], hints: [] },
      ],
    });
    const articles = changes.shadowRoot!.querySelectorAll('article');
    expect(articles[0]!.querySelectorAll('button').length).to.equal(1);
    expect(articles[1]!.querySelector('[data-meaning]')!.textContent).to.equal('Noted only: this does not block anything.');
    const none = await detail({});
    expect(none.shadowRoot!.querySelector<HTMLElement>('h4')!.hidden).to.equal(true);
    expect(none.shadowRoot!.querySelectorAll('article').length).to.equal(0);
  });

  it('the review switch shows the setting and sends a change', async () => {
    const changes = await detail({ reviewNewTools: true });
    const box = changes.shadowRoot!.querySelector<HTMLInputElement>('input[data-review-new-tools]')!;
    expect(box.checked).to.equal(true);
    setTimeout(() => box.click());
    const e = await new Promise<ReviewNewToolsEvent>((r) => changes.addEventListener(ReviewNewToolsEvent.type, r, { once: true }));
    expect([e.serverId, e.review]).to.deep.equal(['demo', false]);
  });
});
