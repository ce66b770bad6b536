/**
 * Finishing "use the servers" end to end in Chromium with the built extension and the real SDK
 * demo server (with its elicitation tool): form-mode elicitation during a tool call answered from
 * a card — accept (the content reaches the tool), decline, cancel (SPEC I1, K3) — a question
 * left open across a worker restart failing with its reason and re-running only after the
 * "it is safe" confirmation (I3, H3), and the composer's `/server:prompt` and `@resource`
 * producing untrusted ContextBlocks (G2, G3, K4).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { launchExtension, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { nudgePanel, openTool, openView, storeServersFromPanel } from '../support/panel-views.js';
import { panelRequest } from '../support/panel-request.js';
import { stopWorker } from '../support/worker-lifecycle.js';

let server: DemoServer;
let ext: ExtensionBrowser;
let panel: Page;

const READY = 'mcp-server-list >>> mcp-server-card >>> mcp-status-badge[status="ready"]';
/** Anywhere: a question of the runner's own call is shown inside the runner, the others in #elicitations. */
const CARD = 'mcp-elicitation-card';

before(async () => {
  server = await startDemoServer({ elicitation: true });
  ext = await launchExtension();
  panel = await ext.openPanel();
  await storeServersFromPanel(panel, [{ id: 'demo', name: 'Demo', url: server.url }]);
});

after(async () => {
  await ext?.close();
  await server?.close();
});

/** Starts confirm_booking from the tool runner and waits for its question's card. */
async function startBooking() {
  await openTool(panel, 'demo', 'confirm_booking');
  await panel.$eval('mcp-tool-runner >>> .output', (el) => el.replaceChildren());
  await panel.click('mcp-tool-runner >>> button[type="submit"]');
  await waitFor(panel, `${CARD}[status="pending"] >>> button[data-action="accept"]`);
}

/** Fills the card's generated form (inside two shadow roots) and clicks one of its buttons. */
async function answer(action: 'accept' | 'decline' | 'cancel', fields: Record<string, string> = {}) {
  await panel.evaluate(
    (card, action, fields) => {
      const root = document.querySelector(card)!.shadowRoot!;
      const form = root.querySelector('mcp-schema-form')!.shadowRoot!;
      for (const [key, value] of Object.entries(fields)) {
        const input = form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name='${JSON.stringify([key])}']`)!;
        input.value = value;
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }
      root.querySelector<HTMLButtonElement>(`button[data-action="${action}"]`)!.click();
    },
    CARD,
    action,
    fields,
  );
}

const runnerText = () =>
  until('the tool result', () =>
    panel.$eval('mcp-tool-runner >>> .output', (el) => el.querySelector('pre.text, p.error')?.textContent ?? undefined),
  );

test('a form-mode question becomes a card; Send delivers its content and the call resumes', async () => {
  await startBooking();
  assert.equal(await textOf(panel, `${CARD} >>> .message`), 'Confirm your booking in Lisbon?');
  assert.match(await textOf(panel, `${CARD} >>> .from`), /Demo.*confirm_booking/);
  // The pending interaction is persisted before the card is shown (SPEC I3).
  const stored = await (
    await ext.serviceWorker()
  ).evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const open = indexedDB.open('remote-mcp');
        open.onsuccess = () => {
          const db = open.result;
          const names = [...db.objectStoreNames];
          const store = names.find((n) => /interaction/i.test(n));
          if (!store) return resolve(names);
          const all = db.transaction(store).objectStore(store).getAll();
          all.onsuccess = () => resolve(all.result.map((r: { status: string; kind: string }) => `${r.kind}:${r.status}`));
        };
        open.onerror = () => resolve(['open failed']);
      }),
  );
  assert.deepEqual(stored, ['mcp_elicitation:pending']);
  await answer('accept', { guests: '2', seat: 'aisle' });
  assert.equal(await runnerText(), 'booking accept: {"guests":2,"seat":"aisle","newsletter":false}');
  assert.deepEqual(server.stats.elicitations?.at(-1), { action: 'accept', content: { guests: 2, seat: 'aisle', newsletter: false } });
  await until('the card to go away', async () => !(await panel.$(CARD)));
});

test('an invalid answer is not sent; Decline is delivered as decline', async () => {
  await startBooking();
  await answer('accept', { guests: '0' });
  assert.equal(await textOf(panel, `${CARD} >>> mcp-schema-form >>> .field-error:not(:empty)`), 'must be at least 1');
  assert.equal(server.stats.elicitations?.length, 1, 'nothing was sent for the invalid form');
  await answer('decline');
  assert.equal(await runnerText(), 'booking decline: {}');
  assert.deepEqual(server.stats.elicitations?.at(-1), { action: 'decline' });
});

test('Cancel is delivered as cancel', async () => {
  await startBooking();
  await answer('cancel');
  assert.equal(await runnerText(), 'booking cancel: {}');
  assert.deepEqual(server.stats.elicitations?.at(-1), { action: 'cancel' });
});

test('a question open across a worker restart fails with its reason; re-run needs the "safe" confirmation', async () => {
  await startBooking();
  const callsBefore = server.stats.toolCalls.filter((c) => c === 'confirm_booking').length;
  await stopWorker(ext);
  // The panel's Port reconnects on the user's next action and wakes a fresh worker, which fails the open interaction.
  await nudgePanel(panel);
  await waitFor(panel, `${CARD}[status="failed"]`, 20_000);
  assert.match(await textOf(panel, `${CARD} >>> .reason`), /the extension restarted while this question was open/);
  // The call that was waiting is reported failed in the runner, not pretended to have completed.
  assert.ok(
    await until('the runner error', () =>
      panel.$eval('mcp-tool-runner >>> .output', (el) => el.querySelector('p.error')?.textContent ?? undefined),
    ),
  );
  await waitFor(panel, READY, 20_000);
  const rerun = `${CARD}[status="failed"] >>> button[data-action="rerun"]`;
  assert.equal(await panel.$eval(rerun, (b) => b.disabled), true);
  // Clicking the disabled button, or asking the worker without the confirmation, sends nothing.
  const interactionId = await panel.$eval(CARD, (el) => (el as HTMLElement & { interaction: { id: string } }).interaction.id);
  const refused = await panelRequest<{ ok: boolean }>(panel, 'panel:rerun-interaction', { interactionId });
  assert.equal(refused.ok, false);
  assert.equal(server.stats.toolCalls.filter((c) => c === 'confirm_booking').length, callsBefore);

  await panel.click(`${CARD}[status="failed"] >>> input.confirm-safe`);
  await panel.click(rerun);
  // The re-run asks again; answering it completes the re-run, whose outcome shows on the old card.
  await until('the re-run question', async () => (await panel.$$(CARD)).length === 2 && (await panel.$(`${CARD}[status="pending"]`)));
  await panel.evaluate((card) => {
    const root = document.querySelector(`${card}[status="pending"]`)!.shadowRoot!;
    const input = root
      .querySelector('mcp-schema-form')!
      .shadowRoot!.querySelector<HTMLInputElement>(`[name='${JSON.stringify(['guests'])}']`)!;
    input.value = '3';
    root.querySelector<HTMLButtonElement>('button[data-action="accept"]')!.click();
  }, CARD);
  assert.equal(
    await until('the re-run outcome', () => panel.$eval(`${CARD} >>> .rerun-outcome`, (el) => el.textContent || undefined)),
    'booking accept: {"guests":3,"newsletter":false}',
  );
  assert.equal(server.stats.toolCalls.filter((c) => c === 'confirm_booking').length, callsBefore + 1);
  await panel.click(`${CARD} >>> button[data-action="dismiss"]`);
  await until('the failed card to be dismissed', async () => !(await panel.$(CARD)));
});

/** The Chat view's input. */
const COMPOSER = 'mcp-chat-view >>> mcp-composer';

test('"/demo:greet" with its argument becomes an untrusted prompt block with provenance', async () => {
  await openView(panel, 'chat');
  await panel.click(`${COMPOSER} >>> textarea.text`);
  await panel.type(`${COMPOSER} >>> textarea.text`, 'Please help. /gre');
  await (await waitFor(panel, `${COMPOSER} >>> .suggestions button[data-kind="prompt"]`)).click();
  await panel.type(`${COMPOSER} >>> mcp-schema-form >>> input`, 'Ada');
  await panel.click(`${COMPOSER} >>> button.attach`);
  const text = await textOf(panel, `${COMPOSER} >>> .block.prompt pre`);
  assert.match(text, /<<mcp-untrusted-[0-9a-f]{32}>>/);
  assert.match(text, /Prompt "greet" from MCP server "Demo" \(id demo\)/);
  assert.match(text, /Please greet Ada warmly\./);
  assert.equal(await panel.$eval(`${COMPOSER} >>> textarea.text`, (el) => el.value), 'Please help. ');
});

test('"@readme" reads demo://readme into a fenced resource block beside the prompt block', async () => {
  await panel.type(`${COMPOSER} >>> textarea.text`, '@readme');
  await (await waitFor(panel, `${COMPOSER} >>> .suggestions button[data-kind="resource"]`)).click();
  const text = await textOf(panel, `${COMPOSER} >>> .block.resource pre`);
  assert.match(text, /Resource demo:\/\/readme from MCP server "Demo"/);
  assert.match(text, /This is the demo server of Remote MCP for Chrome\./);
  assert.equal(await panel.$$eval(`${COMPOSER} >>> .block`, (els) => els.length), 2);
});

test('no extension context logged an error or a CSP violation', () => {
  assert.deepEqual(ext.errors, []);
});
