/**
 * ChannelLink, the worker ↔ offscreen data channel over a real MessageChannel and a fake Port
 * pair that, like Chrome's, passes JSON copies in order but more slowly than the channel: messages
 * keep their order across the switch-over, nothing goes on a channel the peer does not hold, and
 * the channel dies with its Port.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import {
  ChannelLink,
  nonceOfPortName,
  offscreenPortName,
  type LinkChannel,
  type LinkPort,
} from '../../../src/protocol/offscreen-channel.js';

type Listeners = { message: ((m: unknown) => void)[]; disconnect: (() => void)[] };

/** Two ends of a Port whose messages arrive in order after `delayMs`, as JSON. */
function portPair(delayMs: number) {
  const a: Listeners = { message: [], disconnect: [] };
  const b: Listeners = { message: [], disconnect: [] };
  // One FIFO queue drained by one timer: a timer per message could fire out of order, since Node
  // schedules a timer from its cached loop time while the delay was computed from Date.now().
  const queue: { due: number; deliver: () => void }[] = [];
  let armed = false;
  const drain = () => {
    armed = false;
    while (queue.length > 0 && queue[0]!.due <= Date.now()) queue.shift()!.deliver();
    if (queue.length > 0) arm();
  };
  const arm = () => {
    if (armed) return;
    armed = true;
    setTimeout(drain, Math.max(0, queue[0]!.due - Date.now()));
  };
  const end = (mine: Listeners, other: Listeners): LinkPort & { sent: unknown[]; disconnect(): void } => {
    const sent: unknown[] = [];
    return {
      sent,
      postMessage: (m) => {
        sent.push(m);
        const copy = JSON.parse(JSON.stringify(m)) as unknown;
        // Each message takes at least `delayMs` and never overtakes an earlier one.
        const due = Math.max(queue.at(-1)?.due ?? 0, Date.now() + delayMs);
        queue.push({ due, deliver: () => other.message.forEach((cb) => cb(copy)) });
        arm();
      },
      onMessage: { addListener: (cb) => void mine.message.push(cb) },
      onDisconnect: { addListener: (cb) => void mine.disconnect.push(cb) },
      // As in Chrome, only the other end hears the disconnect.
      disconnect: () => other.disconnect.forEach((cb) => cb()),
    };
  };
  return { worker: end(a, b), document: end(b, a) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits, bounded, for what the timers and the MessagePort deliver: their timing depends on the machine's load. */
async function until(check: () => boolean, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(5);
}

function collect(link: ChannelLink) {
  const got: unknown[] = [];
  link.onMessage.addListener((m) => got.push(m));
  return got;
}

test('before pairing, everything goes on the Port and arrives', async () => {
  const ports = portPair(1);
  const worker = new ChannelLink(ports.worker);
  const document = new ChannelLink(ports.document);
  const atDocument = collect(document);
  const atWorker = collect(worker);
  worker.postMessage({ kind: 'request', id: 1 });
  document.postMessage({ kind: 'response', id: 1 });
  await until(() => atDocument.length > 0 && atWorker.length > 0);
  assert.deepEqual(atDocument, [{ kind: 'request', id: 1 }]);
  assert.deepEqual(atWorker, [{ kind: 'response', id: 1 }]);
  assert.equal(worker.onChannel, false);
  assert.equal(worker.sentOnChannel + document.sentOnChannel, 0);
});

test('a channel the worker never received is never used: the document stays on the Port', async () => {
  const ports = portPair(1);
  const worker = new ChannelLink(ports.worker);
  const document = new ChannelLink(ports.document);
  const { port1 } = new MessageChannel();
  document.attach(port1 as unknown as LinkChannel);
  const atWorker = collect(worker);
  document.postMessage({ kind: 'event', n: 1 });
  await until(() => atWorker.length > 0);
  assert.equal(document.onChannel, false);
  assert.deepEqual(ports.document.sent, [{ kind: 'event', n: 1 }]);
  assert.deepEqual(atWorker, [{ kind: 'event', n: 1 }]);
  document.close();
});

test('across the switch-over each side sees the other’s messages in the order they were sent, and the marker is never delivered', async (t) => {
  // The Port is far slower than the channel, so without the marker later channel messages would overtake.
  const ports = portPair(15);
  const worker = new ChannelLink(ports.worker);
  const document = new ChannelLink(ports.document);
  const atWorker = collect(worker);
  const atDocument = collect(document);
  const channel = new MessageChannel();
  // Closed even when an assertion fails: an open MessagePort would keep the test process alive forever.
  t.after(() => {
    worker.close();
    document.close();
    channel.port1.close();
    channel.port2.close();
  });
  document.attach(channel.port1 as unknown as LinkChannel);
  document.postMessage({ n: 1 });
  document.postMessage({ n: 2 });
  worker.postMessage({ claim: true });
  // The worker pairs (its end arrived) and switches at once; its next request goes on the channel.
  assert.equal(worker.attach(channel.port2 as unknown as LinkChannel), true);
  worker.switchOutbound();
  worker.postMessage({ call: 1 });
  // The document keeps answering; it switches only when the worker's marker reaches it on the Port.
  // It keeps sending until a few of its messages went on the channel (however slow a loaded machine is), bounded.
  let n = 3;
  const deadline = Date.now() + 5_000;
  while ((!document.onChannel || document.sentOnChannel < 3) && Date.now() < deadline) {
    document.postMessage({ n: n++ });
    await sleep(2);
  }
  worker.postMessage({ call: 2 });
  await until(() => atDocument.length === 3 && atWorker.length === n - 1);
  assert.deepEqual(atDocument, [{ claim: true }, { call: 1 }, { call: 2 }]);
  assert.deepEqual(
    atWorker,
    Array.from({ length: n - 1 }, (_, i) => ({ n: i + 1 })),
  );
  assert.ok(ports.document.sent.length < n, 'some of the document’s messages went on the channel');
  assert.equal(document.onChannel, true);
  assert.ok(document.sentOnChannel > 0 && worker.receivedOnChannel === document.sentOnChannel);
  assert.equal(worker.sentOnChannel, 2);
  // Only one marker each way went on the Port.
  assert.equal(ports.worker.sent.filter((m) => (m as { kind?: string }).kind === 'channel-switch').length, 1);
  assert.equal(ports.document.sent.filter((m) => (m as { kind?: string }).kind === 'channel-switch').length, 1);
});

test('the channel closes with its Port: a later message on it reaches nobody', async () => {
  const ports = portPair(1);
  const worker = new ChannelLink(ports.worker);
  const document = new ChannelLink(ports.document);
  const atDocument = collect(document);
  const channel = new MessageChannel();
  document.attach(channel.port1 as unknown as LinkChannel);
  worker.attach(channel.port2 as unknown as LinkChannel);
  worker.switchOutbound();
  await until(() => document.onChannel);
  assert.equal(document.onChannel, true);
  // The worker goes away: the document hears the Port's disconnect and drops the channel.
  ports.worker.disconnect();
  worker.postMessage({ late: true });
  await sleep(20);
  assert.deepEqual(atDocument, []);
  worker.close();
});

test('a marker without a channel on this side switches nothing', async () => {
  const ports = portPair(1);
  const document = new ChannelLink(ports.document);
  const atDocument = collect(document);
  ports.worker.postMessage({ kind: 'channel-switch' });
  ports.worker.postMessage({ after: true });
  await until(() => atDocument.length > 0);
  assert.deepEqual(atDocument, [{ after: true }]);
  assert.equal(document.onChannel, false);
});

test('the nonce is read only from an offscreen Port name of the expected shape', () => {
  const nonce = 'a1B2c3D4e5F6a7B8c9D0e1F2a3B4c5D6';
  assert.equal(nonceOfPortName(offscreenPortName(nonce)), nonce);
  assert.equal(nonceOfPortName('mcp-offscreen'), undefined);
  assert.equal(nonceOfPortName('mcp-offscreen:short'), undefined);
  assert.equal(nonceOfPortName(`mcp-offscreen:${nonce}/x`), undefined);
  assert.equal(nonceOfPortName(`mcp-import:${nonce}`), undefined);
});
