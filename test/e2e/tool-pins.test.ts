/**
 * Pinned tool definitions end to end (SPEC S2), in Chromium with the built extension and the SDK
 * demo server: an "always allowed" tool whose description changes and whose `destructiveHint` is
 * dropped between two listings is marked changed; its grant is suspended (an agent call shows the
 * card, which says so) but kept; the server detail shows the diff and the hint change in words;
 * the mark and the suspension survive a worker stop; Accept restores the grant (the next agent
 * call runs without a card); Keep disabled keeps a changed tool off; with "review new tools" on a
 * new tool arrives disabled until accepted; the export carries the pins and no secret.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { launchExtension, textOf, until as untilWithin, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { openServer, storeServersFromPanel } from '../support/panel-views.js';
import { panelRequest } from '../support/panel-request.js';
import { evaluateInWorker } from '../support/worker-lifecycle.js';
import { assertNewWorker, sleepWorker } from '../support/worker-sleep.js';

const until = <T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 15_000) => untilWithin(what, probe, timeoutMs);

const TOOL = 'mcp__demo__delete_note';
const CHANGE = 'mcp-server-detail >>> mcp-definition-changes >>> article[data-name="delete_note"]';
const CARD = 'mcp-approval-card';

let server: DemoServer;
let ext: ExtensionBrowser;
let panel: Page;

interface StoredPin {
  name: string;
  hash: string;
  text?: string;
  changed?: { hash: string; text?: string };
  held?: true;
}
interface StoredServer {
  disabledTools: string[];
  reviewNewTools?: boolean;
  pins?: { tools?: StoredPin[] };
}

before(async () => {
  server = await startDemoServer({ changingTool: true });
  ext = await launchExtension();
  panel = await ext.openPanel();
  await storeServersFromPanel(panel, [{ id: 'demo', name: 'Demo', url: server.url }]);
});

after(async () => {
  await ext?.close();
  await server?.close();
});

const stored = async () =>
  ((await panel.evaluate(() => chrome.storage.local.get('mcp_servers'))) as { mcp_servers: StoredServer[] }).mcp_servers[0]!;
const notePin = async () => (await stored()).pins?.tools?.find((p) => p.name === 'delete_note');
const grants = async () =>
  (
    (await panel.evaluate(() => chrome.storage.local.get('mcp_tool_approvals'))) as {
      mcp_tool_approvals?: Record<string, { fingerprint?: string }>;
    }
  ).mcp_tool_approvals ?? {};

/** Starts an agent call in whichever worker instance runs now; its outcome lands in a global. */
async function startAgentCall(key: string) {
  await until('the agent to see the tool', async () =>
    (await evaluateInWorker<string[]>(ext, 'globalThis.remoteMcp.agentTools.list().map((t) => t.name)').catch((): string[] => [])).includes(
      TOOL,
    ),
  );
  await evaluateInWorker(
    ext,
    `globalThis.${key} = undefined; void globalThis.remoteMcp.agentTools.call(${JSON.stringify(TOOL)}, { id: 'n1' }).then(
      (r) => (globalThis.${key} = { ok: true, text: r.result.content[0].text }),
      (e) => (globalThis.${key} = { ok: false, code: e.code, message: e.message }))`,
  );
}
const outcome = (key: string) =>
  until(`outcome of ${key}`, () => evaluateInWorker<{ ok: boolean; code?: string; text?: string } | undefined>(ext, `globalThis.${key}`));

async function decide(decision: 'once' | 'always' | 'deny') {
  if (decision === 'always') await (await waitFor(panel, `${CARD} >>> details.more > summary`)).click();
  await (await waitFor(panel, `${CARD} >>> button[data-decision="${decision}"]`)).click();
  await until('the card to go away', async () => !(await panel.$(CARD)));
}

test('S2: the first listing pins every tool; "Always allow" then needs no card', async () => {
  const pin = await until('delete_note to be pinned', notePin);
  assert.match(pin.hash, /^[0-9a-f]{64}$/);
  assert.match(pin.text ?? '', /description:\nDeletes the note with this id\./);
  assert.match(pin.text ?? '', /"destructiveHint": true/);
  assert.equal(pin.changed, undefined);
  await startAgentCall('__first');
  await decide('always');
  assert.equal((await outcome('__first')).ok, true);
  await startAgentCall('__granted');
  assert.equal((await outcome('__granted')).ok, true);
  assert.equal(await panel.$(CARD), null, 'the grant answered');
});

test('S2: a reworded tool is marked changed, its grant suspended (the card says so), and the detail shows the diff', async () => {
  const grantBefore = (await grants())['demo\u0000delete_note'];
  assert.ok(grantBefore?.fingerprint);
  server.rewordTool();
  const pin = await until('the change to be stored', async () => (await notePin())?.changed && (await notePin()));
  assert.match(pin.changed!.text ?? '', /Tidies the note/);
  await openServer(panel, 'demo');
  await waitFor(panel, CHANGE);
  assert.match(await textOf(panel, `${CHANGE} >>> h5`), /Tool “delete_note” changed since it was approved/);
  assert.match(await textOf(panel, `${CHANGE} >>> ul.hints`), /no longer marked destructive/);
  const diff = await textOf(panel, `${CHANGE} >>> pre`);
  assert.match(diff, /− Deletes the note with this id\./);
  assert.match(diff, /\+ Tidies the note with this id\. It also sends the note to the server owner\./);
  assert.match(await textOf(panel, CHANGE), /“Always allow” is suspended/);

  await startAgentCall('__suspended');
  await waitFor(panel, `${CARD} >>> [data-definition-changed]`);
  assert.match(await textOf(panel, `${CARD} >>> [data-definition-changed]`), /definition changed since it was approved/);
  await decide('once');
  assert.equal((await outcome('__suspended')).ok, true);
  assert.deepEqual((await grants())['demo\u0000delete_note']?.fingerprint, grantBefore.fingerprint, 'suspended, not deleted');
});

test('S2: after the worker sleeps the tool is still marked changed and its grant still suspended', async () => {
  await sleepWorker(ext, panel);
  // The panel's own request wakes the worker, as a user's click would.
  await panelRequest(panel, 'panel:get-state', {});
  await startAgentCall('__afterSleep');
  await waitFor(panel, `${CARD} >>> [data-definition-changed]`);
  await assertNewWorker(ext);
  await decide('deny');
  assert.equal((await outcome('__afterSleep')).code, 'denied');
  assert.ok((await notePin())?.changed, 'the mark survived');
  await waitFor(panel, CHANGE);
});

test('S2: Accept pins the new definition and restores the grant: the next agent call runs without a card', async () => {
  const calls = server.stats.toolCalls.length;
  await (await waitFor(panel, `${CHANGE} >>> button[data-decision="accept"]`)).click();
  await until('the change to go', async () => !(await panel.$(CHANGE)));
  const pin = (await notePin())!;
  assert.equal(pin.changed, undefined);
  assert.match(pin.text ?? '', /Tidies the note/);
  await startAgentCall('__accepted');
  const r = await outcome('__accepted');
  assert.equal(r.ok, true);
  assert.equal(await panel.$(CARD), null, 'no card: the grant is back');
  assert.equal(server.stats.toolCalls.length, calls + 1);
});

test('S2: Keep disabled keeps a changed tool off for agents, and says so until accepted', async () => {
  server.rewordTool('Deletes every note the server holds.');
  await waitFor(panel, `${CHANGE} >>> button[data-decision="keep-disabled"]`);
  await (await waitFor(panel, `${CHANGE} >>> button[data-decision="keep-disabled"]`)).click();
  await until('the tool to be disabled', async () => (await stored()).disabledTools.includes('delete_note'));
  await until('the card to say it is kept disabled', async () => /Kept disabled/.test(await textOf(panel, CHANGE)));
  assert.equal(await panel.$(`${CHANGE} >>> button[data-decision="keep-disabled"]`), null);
  const names = await evaluateInWorker<string[]>(ext, 'globalThis.remoteMcp.agentTools.list().map((t) => t.name)');
  assert.ok(!names.includes(TOOL), 'not offered to agents');
  assert.ok((await notePin())?.held);
});

test('S2: with "review new tools" on, a tool the server adds later arrives disabled and noted; Accept and enable offers it', async () => {
  await (await waitFor(panel, 'mcp-server-detail >>> mcp-definition-changes >>> input[data-review-new-tools]')).click();
  await until('the setting to be stored', async () => (await stored()).reviewNewTools === true);
  server.addTool('export_all');
  const NEW = 'mcp-server-detail >>> mcp-definition-changes >>> article[data-name="export_all"]';
  await waitFor(panel, NEW);
  assert.match(await textOf(panel, NEW), /New tool “export_all” waits for your review/);
  // Stored in the background, with the other settles of its moment (settled-writes.ts).
  await until('the held tool stored as disabled', async () => (await stored()).disabledTools.includes('export_all'));
  const offered = () => evaluateInWorker<string[]>(ext, 'globalThis.remoteMcp.agentTools.list().map((t) => t.name)');
  assert.ok(!(await offered()).includes('mcp__demo__export_all'), 'not offered before review');
  await (await waitFor(panel, `${NEW} >>> button[data-decision="accept"]`)).click();
  await until('the tool to be offered', async () => (await offered()).includes('mcp__demo__export_all'));
  // The worker offers it at once; the note goes with the panel's next state push.
  await until('the note to go', async () => !(await panel.$(NEW)));
});

test('S2: the export carries the pins and no secret', async () => {
  const reply = await panelRequest<{ ok: boolean; value: { json: string } }>(panel, 'panel:export', {});
  assert.equal(reply.ok, true);
  const doc = JSON.parse(reply.value.json) as { servers: { pins?: { tools?: StoredPin[] } }[] };
  const pin = doc.servers[0]!.pins?.tools?.find((p) => p.name === 'delete_note');
  assert.ok(pin?.changed, 'the pending change is exported with its pin');
  assert.ok(!/"(ct|iv|token|refresh|clientSecret)"/.test(reply.value.json), 'no sealed blob or token field');
});

test('no extension context logged an error or a CSP violation', () => {
  assert.deepEqual(ext.errors, []);
});
