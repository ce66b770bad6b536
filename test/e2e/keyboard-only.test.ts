/**
 * The panel with the keyboard alone (section K): a user who never touches the pointer adds
 * a server with the guided add, runs a tool from its view, answers the question that call raises,
 * and approves an agent's call. Every step moves with Tab, Shift+Tab, the arrow keys, Enter,
 * Space and typing; the test only reads where the focus is, never clicks.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, WebWorker } from 'puppeteer-core';
import { launchExtension, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { row } from '../support/panel-views.js';

let server: DemoServer;
let ext: ExtensionBrowser;
let panel: Page;
let worker: WebWorker;

before(async () => {
  server = await startDemoServer({ name: 'Keyboard', elicitation: true });
  ext = await launchExtension();
  worker = await ext.serviceWorker();
  panel = await ext.openPanel();
});

after(async () => {
  await ext?.close();
  await server?.close();
});

/**
 * What has the focus, through shadow roots: the element's tag, its identifying attributes and its
 * text or name, joined with `|` so a test can match it with a pattern.
 */
const FOCUSED = `(() => {
  let a = document.activeElement;
  const hosts = [];
  while (a && a.shadowRoot && a.shadowRoot.activeElement) { hosts.push(a.localName); a = a.shadowRoot.activeElement; }
  if (!a) return '';
  const attr = (n) => a.getAttribute(n) ?? '';
  return [hosts.join('>'), a.localName, attr('name'), attr('data-action'), attr('data-decision'), attr('data-view'), attr('data-tool'),
    attr('aria-label'), (a.textContent ?? '').replace(/\\s+/g, ' ').trim().slice(0, 60)].join('|');
})()`;

const focused = async () => (await panel.evaluate(FOCUSED)) as string;

/** Presses `key` until the focused element matches `pattern`; fails after `max` presses. */
async function moveTo(pattern: RegExp, key: 'Tab' | 'Shift+Tab' | 'ArrowRight' = 'Tab', max = 60): Promise<string> {
  const trail: string[] = [];
  for (let i = 0; i <= max; i++) {
    const now = await focused();
    if (pattern.test(now)) return now;
    trail.push(now.slice(0, 80));
    if (key === 'Shift+Tab') {
      await panel.keyboard.down('Shift');
      await panel.keyboard.press('Tab');
      await panel.keyboard.up('Shift');
    } else await panel.keyboard.press(key);
  }
  throw new Error(`the focus never reached ${pattern}; it went:\n${[...new Set(trail)].join('\n')}`);
}

/** Reaches a header tab from wherever the focus is (Shift+Tab back to the tab list, then arrows). */
async function goToTab(view: string) {
  await moveTo(/mcp-app-header\|button\|/, 'Shift+Tab');
  await moveTo(new RegExp(`mcp-app-header\\|button\\|\\|\\|\\|${view}\\|`), 'ArrowRight', 8);
  await panel.keyboard.press('Enter');
  await until(`the ${view} view`, () => panel.$eval(`section[data-view="${view}"]`, (s) => !s.hidden || undefined));
}

test('add a server with the guided add: Add, the URL, Continue, Add', async () => {
  // Focus enters the page from the top, as after opening the panel.
  await moveTo(/^mcp-server-list\|button\|.*Add server/);
  await panel.keyboard.press('Enter');
  const url = await moveTo(/mcp-add-server\|input\|url\|/);
  assert.ok(url);
  await panel.keyboard.type(server.url.replace(/^http:\/\//, ''));
  // Enter in the URL field continues, like the form's Continue button.
  await panel.keyboard.press('Enter');
  await waitFor(panel, 'mcp-add-server >>> .details-step:not([hidden])', 20_000);
  assert.equal(await panel.$eval('mcp-add-server >>> input[name="name"]', (el) => el.value), 'Keyboard');
  await moveTo(/mcp-add-server\|button\|add\|/);
  await panel.keyboard.press('Enter');
  await waitFor(panel, `${row('keyboard')} >>> mcp-status-badge[status="ready"]`, 20_000);
});

test('run a tool from its view: the Tools tab, the tool, its field, Run', async () => {
  await goToTab('tools');
  await moveTo(/^mcp-tools-view\|button\|\|\|\|\|echo\|/);
  await panel.keyboard.press('Enter');
  await until('the tool view', () => panel.$eval('section[data-view="tool"]', (s) => !s.hidden || undefined));
  await moveTo(/mcp-schema-form\|(input|textarea)\|/);
  await panel.keyboard.type('typed, not clicked');
  await moveTo(/mcp-tool-runner\|button\|.*Run/);
  await panel.keyboard.press('Enter');
  const text = await until('the result', () =>
    panel.$eval('mcp-tool-runner >>> .output', (el) => el.querySelector('pre.text')?.textContent ?? undefined),
  );
  assert.equal(text, 'echo: typed, not clicked');
});

test('answer the question a call raises: the card takes the focus; fill it and Send with the keyboard', async () => {
  // Back to the Tools view (Escape leaves a pushed view), then the booking tool.
  await panel.keyboard.press('Escape');
  await until('the tools view', () => panel.$eval('section[data-view="tools"]', (s) => !s.hidden || undefined));
  await moveTo(/^mcp-tools-view\|button\|\|\|\|\|confirm_booking\|/);
  await panel.keyboard.press('Enter');
  await until('the tool view', () => panel.$eval('section[data-view="tool"]', (s) => !s.hidden || undefined));
  await moveTo(/mcp-tool-runner\|button\|.*Run/);
  await panel.keyboard.press('Enter');
  // The card of the runner's own call is focused on its question.
  const first = await until('the question to take the focus', async () => {
    const f = await focused();
    return /mcp-elicitation-card/.test(f) ? f : undefined;
  });
  assert.match(first, /mcp-elicitation-card/);
  await moveTo(/mcp-elicitation-card.*\|input\|.*guests/i);
  await panel.keyboard.type('2');
  await moveTo(/mcp-elicitation-card.*\|button\|\|accept\|/);
  await panel.keyboard.press('Enter');
  const text = await until('the booking result', () =>
    panel.$eval('mcp-tool-runner >>> .output', (el) => el.querySelector('pre.text')?.textContent ?? undefined),
  );
  assert.match(text, /^booking accept: \{"guests":2/);
});

test("approve an agent's call: the card is reached with Shift+Tab and Allow once is pressed with Space", async () => {
  await worker.evaluate(`(() => {
    globalThis.__kb = undefined;
    void globalThis.remoteMcp.agentTools.call('mcp__keyboard__add', { a: 20, b: 22 }).then(
      (r) => (globalThis.__kb = { ok: true, text: r.result.content[0].text }),
      (e) => (globalThis.__kb = { ok: false, message: e.message }),
    );
  })()`);
  await waitFor(panel, '#approvals mcp-approval-card >>> button[data-decision="once"]', 20_000);
  assert.match(await textOf(panel, '#approvals mcp-approval-card >>> .from'), /Add numbers|add/);
  await moveTo(/mcp-approval-card\|button\|\|\|once\|/, 'Shift+Tab', 80);
  await panel.keyboard.press('Space');
  const outcome = (await until('the agent call outcome', () => worker.evaluate('globalThis.__kb'))) as { ok: boolean; text?: string };
  assert.equal(outcome.ok, true, JSON.stringify(outcome));
  assert.match(outcome.text ?? '', /\nsum=42\n/);
  assert.deepEqual(ext.errors, []);
});
