/**
 * The worker's end of the panel's Port requests (src/sw/handlers/panel-port.ts): the sender check
 * (the side panel page of this extension only) and the answers on the same Port, by id.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';

const ID = 'pfeobelfcgjanfpdlgcphpfjpmbjcenn';
(globalThis as unknown as { chrome: unknown }).chrome = {
  runtime: { id: ID, getURL: (path: string) => `chrome-extension://${ID}/${path}` },
};
const { answerPanelRequests, fromPanelPage } = await import('../../../../src/sw/handlers/panel-port.js');

test('only this extension’s side panel page counts as the panel', () => {
  assert.equal(fromPanelPage({ id: ID, url: `chrome-extension://${ID}/sidepanel.html` }), true);
  assert.equal(fromPanelPage({ id: ID, url: `chrome-extension://${ID}/sidepanel.html?tab=1` }), true);
  assert.equal(fromPanelPage({ id: ID, url: `chrome-extension://${ID}/offscreen.html` }), false);
  assert.equal(fromPanelPage({ id: ID, url: `chrome-extension://${ID}/app-sandbox.html` }), false);
  assert.equal(fromPanelPage({ id: 'x'.repeat(32), url: `chrome-extension://${'x'.repeat(32)}/sidepanel.html` }), false);
  assert.equal(fromPanelPage({ id: ID }), false);
  assert.equal(fromPanelPage(undefined), false);
});

function fakePort() {
  const listeners: ((m: unknown) => void)[] = [];
  const drops: (() => void)[] = [];
  const posted: unknown[] = [];
  return {
    posted,
    postMessage: (m: unknown) => void posted.push(m),
    onMessage: { addListener: (l: (m: unknown) => void) => void listeners.push(l) },
    onDisconnect: { addListener: (l: () => void) => void drops.push(l) },
    deliver: (m: unknown) => listeners.forEach((l) => l(m)),
    drop: () => drops.forEach((l) => l()),
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

test('each request is handled as an envelope and answered on the same Port with its id', async () => {
  const port = fakePort();
  const seen: unknown[] = [];
  answerPanelRequests(port, async (envelope) => {
    seen.push(envelope);
    return { ok: true, value: envelope.type };
  });
  port.deliver({ kind: 'request', id: 3, type: 'panel:get-state', params: {} });
  port.deliver({ kind: 'request', id: 4, type: 'panel:nope', params: { a: 1 } });
  await tick();
  assert.deepEqual(seen, [
    { type: 'panel:get-state', params: {} },
    { type: 'panel:nope', params: { a: 1 } },
  ]);
  assert.deepEqual(port.posted, [
    { kind: 'response', id: 3, result: { ok: true, value: 'panel:get-state' } },
    { kind: 'response', id: 4, result: { ok: true, value: 'panel:nope' } },
  ]);
});

test('a message that is not a request (no id, a push echoed back) is not handled', async () => {
  const port = fakePort();
  let handled = 0;
  answerPanelRequests(port, async () => (handled++, { ok: true, value: null }));
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    port.deliver({ type: 'panel:get-state', params: {} });
    port.deliver({ kind: 'request', type: 'panel:get-state', params: {} });
    port.deliver({ kind: 'response', id: 1, result: {} });
  } finally {
    console.warn = warn;
  }
  await tick();
  assert.equal(handled, 0);
  assert.deepEqual(port.posted, []);
});

test('an answer whose Port dropped while it was worked on is not posted', async () => {
  const port = fakePort();
  let finish: (v: unknown) => void = () => undefined;
  answerPanelRequests(port, () => new Promise((r) => (finish = r)));
  port.deliver({ kind: 'request', id: 1, type: 'panel:call-tool', params: {} });
  port.drop();
  finish({ ok: true, value: 'late' });
  await tick();
  assert.deepEqual(port.posted, []);
});
