/**
 * The worker's pairing of the offscreen data channel (OffscreenHost.accept / acceptChannel): a
 * channel is taken only from the exact offscreen document URL, shaped as an offer, with the nonce
 * of the current Port; before pairing (or without it) requests stay on the Port; a new Port drops
 * the old channel.
 */
import { afterEach, beforeEach, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { RemoteError } from '../../../../src/protocol/result.js';
import { OffscreenHost } from '../../../../src/sw/offscreen-link/offscreen-host.js';
import { offscreenPortName, OFFSCREEN_CHANNEL, type LinkChannel } from '../../../../src/protocol/offscreen-channel.js';

const ORIGIN = 'chrome-extension://ext/';
const OFFSCREEN_URL = `${ORIGIN}offscreen.html`;
const NONCE = 'a1B2c3D4e5F6a7B8c9D0e1F2a3B4c5D6';
const OTHER_NONCE = 'f1E2d3C4b5A6f7E8d9C0b1A2f3E4d5C6';

class FakePort {
  sent: unknown[] = [];
  disconnected = false;
  #disconnect: (() => void)[] = [];
  constructor(
    readonly name: string,
    readonly sender: { id?: string; url?: string } = { id: 'ext', url: OFFSCREEN_URL },
  ) {}
  postMessage(m: unknown) {
    this.sent.push(m);
  }
  onMessage = { addListener: () => undefined };
  onDisconnect = { addListener: (cb: () => void) => void this.#disconnect.push(cb) };
  disconnect() {
    this.disconnected = true;
  }
  /** The document went away: Chrome tells this end. */
  drop() {
    for (const cb of this.#disconnect) cb();
  }
}

const opened: MessagePort[] = [];
/** An offer as the worker's `message` event carries it; `other` is the document's end. */
function offer(nonce: string, url = OFFSCREEN_URL, data: unknown = { type: OFFSCREEN_CHANNEL, nonce }) {
  const { port1, port2 } = new MessageChannel();
  opened.push(port1, port2);
  const received: unknown[] = [];
  port1.on('message', (m) => received.push(m));
  return { event: { data, ports: [port2 as unknown as LinkChannel], source: { url, type: 'window' } }, other: port1, received };
}

const asPort = (p: FakePort) => p as unknown as chrome.runtime.Port;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits for what a MessagePort delivers (its timing depends on the machine's load), bounded. */
async function until(check: () => boolean, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(5);
}
let silence: typeof console.warn;

beforeEach(() => {
  (globalThis as unknown as { chrome: unknown }).chrome = { runtime: { id: 'ext', getURL: (p: string) => `${ORIGIN}${p}` } };
  silence = console.warn;
  console.warn = () => undefined;
});
afterEach(() => {
  console.warn = silence;
  for (const p of opened.splice(0)) p.close();
});

test('the matching offer from the offscreen document pairs: the marker goes on the Port, requests on the channel', async () => {
  const host = new OffscreenHost();
  const port = new FakePort(offscreenPortName(NONCE));
  assert.equal(host.accept(asPort(port)), true);
  const link = await host.ensure();
  const o = offer(NONCE);
  assert.equal(host.acceptChannel(o.event), true);
  link.postMessage({ kind: 'request', id: 1 });
  await until(() => o.received.length > 0);
  assert.deepEqual(port.sent, [{ kind: 'channel-switch' }]);
  assert.deepEqual(o.received, [{ kind: 'request', id: 1 }]);
  assert.deepEqual(host.channelStats(), { pairings: 1, onChannel: true, sent: 1, received: 0 });
});

test('before any offer, and after one with another nonce, requests stay on the Port', async () => {
  const host = new OffscreenHost();
  const port = new FakePort(offscreenPortName(NONCE));
  host.accept(asPort(port));
  const link = await host.ensure();
  link.postMessage({ kind: 'request', id: 1 });
  const wrong = offer(OTHER_NONCE);
  assert.equal(host.acceptChannel(wrong.event), true);
  link.postMessage({ kind: 'request', id: 2 });
  await sleep(10);
  assert.deepEqual(port.sent, [
    { kind: 'request', id: 1 },
    { kind: 'request', id: 2 },
  ]);
  assert.deepEqual(wrong.received, []);
  assert.equal(host.channelStats().pairings, 0);
});

test('an offer from any other page of the extension is refused and its port closed', async () => {
  const host = new OffscreenHost();
  const port = new FakePort(offscreenPortName(NONCE));
  host.accept(asPort(port));
  const link = await host.ensure();
  for (const url of [`${ORIGIN}sidepanel.html`, `${OFFSCREEN_URL}?x`, 'chrome-extension://other/offscreen.html']) {
    const o = offer(NONCE, url);
    let closed = false;
    o.other.on('close', () => (closed = true));
    assert.equal(host.acceptChannel(o.event), true);
    await until(() => closed);
    assert.equal(closed, true, `the channel from ${url} was closed`);
  }
  // A source without a URL (e.g. another worker) is refused too.
  const noUrl = offer(NONCE);
  host.acceptChannel({ ...noUrl.event, source: null });
  link.postMessage({ kind: 'request', id: 1 });
  await sleep(10);
  assert.deepEqual(port.sent, [{ kind: 'request', id: 1 }]);
  assert.equal(host.channelStats().pairings, 0);
});

test('a message that is not an offer is not taken, whatever it carries', async () => {
  const host = new OffscreenHost();
  host.accept(asPort(new FakePort(offscreenPortName(NONCE))));
  for (const data of [
    { type: OFFSCREEN_CHANNEL },
    { type: OFFSCREEN_CHANNEL, nonce: NONCE, extra: 1 },
    { type: 'other', nonce: NONCE },
    'x',
    null,
  ]) {
    assert.equal(host.acceptChannel(offer(NONCE, OFFSCREEN_URL, data).event), false, JSON.stringify(data));
  }
  assert.equal(host.channelStats().pairings, 0);
});

test('an offer that arrives before its Port is paired when that Port connects', async () => {
  const host = new OffscreenHost();
  const o = offer(NONCE);
  host.acceptChannel(o.event);
  const port = new FakePort(offscreenPortName(NONCE));
  host.accept(asPort(port));
  (await host.ensure()).postMessage({ kind: 'request', id: 7 });
  await until(() => o.received.length > 0);
  assert.deepEqual(o.received, [{ kind: 'request', id: 7 }]);
  assert.equal(host.channelStats().pairings, 1);
});

test('a new Port drops the old channel: the old one is closed and the new Port starts on the Port until its own offer', async () => {
  const host = new OffscreenHost();
  const first = new FakePort(offscreenPortName(NONCE));
  host.accept(asPort(first));
  const firstOffer = offer(NONCE);
  host.acceptChannel(firstOffer.event);
  let oldClosed = false;
  firstOffer.other.on('close', () => (oldClosed = true));

  const second = new FakePort(offscreenPortName(OTHER_NONCE));
  host.accept(asPort(second));
  const link = await host.ensure();
  link.postMessage({ kind: 'request', id: 1 });
  await until(() => oldClosed);
  assert.equal(first.disconnected, true);
  assert.equal(oldClosed, true, 'the old channel was closed');
  assert.deepEqual(second.sent, [{ kind: 'request', id: 1 }]);
  assert.deepEqual(firstOffer.received, [], 'nothing went on the old channel');
  // The old Port's nonce pairs nothing now.
  host.acceptChannel(offer(NONCE).event);
  assert.equal(host.channelStats().onChannel, false);
  const secondOffer = offer(OTHER_NONCE);
  host.acceptChannel(secondOffer.event);
  link.postMessage({ kind: 'request', id: 2 });
  await until(() => secondOffer.received.length > 0);
  assert.deepEqual(secondOffer.received, [{ kind: 'request', id: 2 }]);
  assert.equal(host.channelStats().pairings, 2);
});

test('a Port without a nonce in its name, or from another page, is not paired', async () => {
  const host = new OffscreenHost();
  assert.equal(host.accept(asPort(new FakePort('mcp-offscreen'))), false);
  const stranger = new FakePort(offscreenPortName(NONCE), { id: 'ext', url: `${ORIGIN}sidepanel.html` });
  assert.equal(host.accept(asPort(stranger)), true);
  assert.equal(stranger.disconnected, true);
  host.acceptChannel(offer(NONCE).event);
  assert.equal(host.channelStats().pairings, 0);
});

test('when the document’s Port drops, its channel is closed with it', async () => {
  const host = new OffscreenHost();
  const port = new FakePort(offscreenPortName(NONCE));
  host.accept(asPort(port));
  const o = offer(NONCE);
  host.acceptChannel(o.event);
  let closed = false;
  o.other.on('close', () => (closed = true));
  port.drop();
  await until(() => closed);
  assert.equal(closed, true);
});

/** `chrome` with a document that may exist: getContexts answers only when `answer` is called. */
function withDocument(exists: boolean) {
  const sent: unknown[] = [];
  let answer!: () => void;
  const asked = new Promise<void>((r) => (answer = r));
  const runtime = (globalThis as unknown as { chrome: { runtime: Record<string, unknown> } }).chrome.runtime;
  Object.assign(runtime, {
    ContextType: { OFFSCREEN_DOCUMENT: 'OFFSCREEN_DOCUMENT' },
    sendMessage: (m: unknown) => (sent.push(m), Promise.resolve()),
    getContexts: async () => (await asked, exists ? [{}] : []),
  });
  return { sent, answer };
}

test('findExisting asks a surviving document to connect before knowing it exists; ensure() then has its Port', async () => {
  const doc = withDocument(true);
  const host = new OffscreenHost();
  const found = host.findExisting();
  // The reconnect request left while the existence check is still on its way.
  assert.deepEqual(doc.sent, [{ type: 'offscreen:reconnect' }]);
  doc.answer();
  assert.equal(await found, true);
  const ensured = host.ensure();
  const port = new FakePort(offscreenPortName(NONCE));
  host.accept(asPort(port));
  const link = await ensured;
  link.postMessage({ kind: 'request', id: 1 });
  assert.deepEqual(port.sent, [{ kind: 'request', id: 1 }]);
  // One reconnect only: ensure() waited for the Port already asked for.
  assert.equal(doc.sent.length, 1);
});

test('findExisting with no document: false, and nothing is waited for', async () => {
  const doc = withDocument(false);
  const host = new OffscreenHost();
  const found = host.findExisting();
  doc.answer();
  assert.equal(await found, false);
  assert.equal(doc.sent.length, 1);
});

test('a created document that never opens its Port fails offscreen-lost, as a RemoteError', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    let created = 0;
    (globalThis as unknown as { chrome: unknown }).chrome = {
      runtime: {
        id: 'ext',
        getURL: (p: string) => `${ORIGIN}${p}`,
        getContexts: async () => [],
        ContextType: { OFFSCREEN_DOCUMENT: 'OFFSCREEN_DOCUMENT' },
      },
      offscreen: { Reason: { WORKERS: 'WORKERS' }, createDocument: async () => void created++ },
    };
    const ensured = new OffscreenHost().ensure();
    // Let the existence check and the creation run, then let the Port's wait run out.
    for (let i = 0; i < 5 && created === 0; i++) await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    mock.timers.tick(10_000);
    await assert.rejects(ensured, (e: unknown) => {
      assert.ok(e instanceof RemoteError);
      assert.equal(e.code, 'offscreen-lost');
      assert.equal(e.message, 'The MCP host document did not start.');
      return true;
    });
    assert.equal(created, 1);
  } finally {
    mock.timers.reset();
  }
});
