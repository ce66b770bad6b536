/**
 * The worker's pairing of the side panels' data channels (PanelChannels): a channel is taken only
 * from the side panel page, shaped as a panel offer, with the nonce of a panel Port it holds;
 * until then (or for a Port without a nonce) everything stays on the Port; an offer that
 * overtakes its Port waits for it; the channel closes with its Port.
 */
import { afterEach, beforeEach, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { PanelChannels } from '../../../../src/sw/handlers/panel-channels.js';
import { PANEL_CHANNEL, panelPortName } from '../../../../src/protocol/panel-channel.js';
import { OFFSCREEN_CHANNEL, type LinkChannel } from '../../../../src/protocol/offscreen-channel.js';

const PANEL_URL = 'chrome-extension://ext/sidepanel.html';
const NONCE = 'a1B2c3D4e5F6a7B8c9D0e1F2a3B4c5D6';
const OTHER = 'f1E2d3C4b5A6f7E8d9C0b1A2f3E4d5C6';

class FakePort {
  sent: unknown[] = [];
  #message: ((m: unknown) => void)[] = [];
  #disconnect: (() => void)[] = [];
  constructor(readonly name: string) {}
  postMessage(m: unknown) {
    this.sent.push(m);
  }
  onMessage = { addListener: (cb: (m: unknown) => void) => void this.#message.push(cb) };
  onDisconnect = { addListener: (cb: () => void) => void this.#disconnect.push(cb) };
  deliver(m: unknown) {
    for (const cb of this.#message) cb(m);
  }
  drop() {
    for (const cb of this.#disconnect) cb();
  }
}

const opened: MessagePort[] = [];
function offer(nonce: string, url = `${PANEL_URL}?tab=1`, data: unknown = { type: PANEL_CHANNEL, nonce }) {
  const { port1, port2 } = new MessageChannel();
  opened.push(port1, port2);
  const received: unknown[] = [];
  port1.on('message', (m) => received.push(m));
  let closed = false;
  port1.on('close', () => (closed = true));
  return {
    event: { data, ports: [port2 as unknown as LinkChannel], source: { url } },
    received,
    closed: () => closed,
    panelSends: (m: unknown) => port1.postMessage(m),
  };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(5);
}

beforeEach(() => void mock.method(console, 'warn', () => undefined));
afterEach(() => {
  mock.restoreAll();
  for (const p of opened.splice(0)) p.close();
});

test('the panel’s offer pairs with its Port: the marker goes on the Port, then answers and pushes go on the channel', async () => {
  const channels = new PanelChannels(PANEL_URL);
  const port = new FakePort(panelPortName(NONCE));
  const link = channels.link(port);
  const o = offer(NONCE);
  assert.equal(channels.accept(o.event), true);
  link.postMessage({ type: 'panel:state' });
  assert.deepEqual(port.sent, [{ kind: 'channel-switch' }]);
  await until(() => o.received.length > 0);
  assert.deepEqual(o.received, [{ type: 'panel:state' }]);
  // The panel's requests on the channel are delivered once its own marker has come on the Port.
  const got: unknown[] = [];
  link.onMessage.addListener((m) => got.push(m));
  o.panelSends({ kind: 'request', id: 1 });
  await sleep(20);
  assert.deepEqual(got, [], 'held until the panel’s marker');
  port.deliver({ kind: 'channel-switch' });
  await until(() => got.length > 0);
  assert.deepEqual(got, [{ kind: 'request', id: 1 }]);
  assert.deepEqual(channels.stats(), { pairings: 1, sent: 1, received: 1 });
});

test('an offer that overtakes its Port waits for it; a Port without a nonce never pairs', async () => {
  const channels = new PanelChannels(PANEL_URL);
  const o = offer(NONCE);
  channels.accept(o.event);
  const port = new FakePort(panelPortName(NONCE));
  channels.link(port).postMessage({ n: 1 });
  await until(() => o.received.length > 0);
  assert.deepEqual(o.received, [{ n: 1 }]);

  const plain = new FakePort('mcp-panel');
  channels.link(plain).postMessage({ n: 2 });
  assert.deepEqual(plain.sent, [{ n: 2 }], 'the tests’ plain Port keeps everything on the Port');
});

test('an offer from another page, with another nonce, or of another shape is not paired', async () => {
  const channels = new PanelChannels(PANEL_URL);
  const port = new FakePort(panelPortName(NONCE));
  const link = channels.link(port);
  const fromOffscreen = offer(NONCE, 'chrome-extension://ext/offscreen.html');
  assert.equal(channels.accept(fromOffscreen.event), true, 'taken, and refused');
  await until(() => fromOffscreen.closed());
  assert.equal(fromOffscreen.closed(), true, 'its port is closed');
  assert.equal(channels.accept({ ...offer(NONCE).event, source: null }), true);
  assert.equal(channels.accept(offer(NONCE, PANEL_URL, { type: OFFSCREEN_CHANNEL, nonce: NONCE }).event), false);
  assert.equal(channels.accept(offer(NONCE, PANEL_URL, { type: PANEL_CHANNEL, nonce: NONCE, extra: 1 }).event), false);
  channels.accept(offer(OTHER).event);
  link.postMessage({ n: 1 });
  assert.deepEqual(port.sent, [{ n: 1 }], 'still on the Port');
  assert.equal(channels.stats().pairings, 0);
});

test('the channel is closed with its Port, and a later offer for that nonce waits for a Port that never comes', async () => {
  const channels = new PanelChannels(PANEL_URL);
  const port = new FakePort(panelPortName(NONCE));
  channels.link(port);
  const o = offer(NONCE);
  channels.accept(o.event);
  port.drop();
  await until(() => o.closed());
  assert.equal(o.closed(), true);
  const late = offer(NONCE);
  channels.accept(late.event);
  assert.equal(channels.stats().pairings, 1);
});

test('at most a few offers wait for their Ports; older ones are closed', async () => {
  const channels = new PanelChannels(PANEL_URL);
  const offers = Array.from({ length: 6 }, (_, i) => offer(`${'a'.repeat(30)}${String(i).padStart(2, '0')}`));
  for (const o of offers) channels.accept(o.event);
  await until(() => offers[0]!.closed() && offers[1]!.closed());
  assert.deepEqual(
    offers.map((o) => o.closed()),
    [true, true, false, false, false, false],
  );
});
