/**
 * McpWorkerClient against a fake Port fed hostile or broken messages (SPEC D1, N6, N8): every
 * one is dropped or rejected, and none is ever delivered to a request it does not belong to.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpWorkerClient, type PortLike } from '../../../../src/sw/offscreen-link/worker-client.js';
import type { OffscreenEvent } from '../../../../src/protocol/offscreen.js';
import { flush, settledState } from '../manager/harness.js';

class FakePort implements PortLike {
  sent: { id: number; method: string }[] = [];
  #message: ((m: unknown) => void)[] = [];
  #disconnect: (() => void)[] = [];
  postMessage(message: unknown) {
    this.sent.push(message as { id: number; method: string });
  }
  onMessage = { addListener: (cb: (m: unknown) => void) => void this.#message.push(cb) };
  onDisconnect = { addListener: (cb: () => void) => void this.#disconnect.push(cb) };
  deliver(m: unknown) {
    for (const l of this.#message) l(m);
  }
  disconnect() {
    for (const l of this.#disconnect) l();
  }
}

const CONN = 'c1';
const ok = (value: unknown) => ({ ok: true, value });

async function setup() {
  const port = new FakePort();
  const client = new McpWorkerClient(async () => port);
  const events: OffscreenEvent[] = [];
  client.onEvent((e) => events.push(e));
  const silence = console.warn;
  console.warn = () => undefined;
  return { port, client, events, restore: () => (console.warn = silence) };
}

/** Sends a ping (id 1) and a list-category (id 2); both stay pending until answered. */
async function twoPending(client: McpWorkerClient) {
  const ping = client.request('offscreen:ping', { connectionId: CONN });
  const list = client.request('offscreen:list-category', { connectionId: CONN, category: 'tools' });
  ping.catch(() => undefined);
  list.catch(() => undefined);
  await flush();
  return { ping, list };
}

const dropped: [string, unknown][] = [
  ['not an object', 'hello'],
  ['null', null],
  ['wrong envelope kind', { kind: 'reply', id: 1, result: ok({ latencyMs: 1 }) }],
  ['missing kind', { id: 1, result: ok({ latencyMs: 1 }) }],
  ['unknown id', { kind: 'response', id: 99, result: ok({ latencyMs: 1 }) }],
  ['id as a string', { kind: 'response', id: '1', result: ok({ latencyMs: 1 }) }],
  ['fractional id', { kind: 'response', id: 1.5, result: ok({ latencyMs: 1 }) }],
  ['array envelope', [{ kind: 'response', id: 1, result: ok({ latencyMs: 1 }) }]],
];

for (const [name, message] of dropped) {
  test(`N6: drops a message with ${name} and delivers it to no request`, async () => {
    const { port, client, restore } = await setup();
    try {
      const { ping, list } = await twoPending(client);
      const before = client.dropped;
      port.deliver(message);
      assert.equal(client.dropped, before + 1);
      assert.equal(await settledState(ping), 'pending');
      assert.equal(await settledState(list), 'pending');
      port.deliver({ kind: 'response', id: 1, result: ok({ latencyMs: 7 }) });
      assert.deepEqual(await ping, { latencyMs: 7 }, 'the real answer still gets through');
    } finally {
      restore();
    }
  });
}

test('N6: a duplicate response is dropped after the first one was delivered', async () => {
  const { port, client, restore } = await setup();
  try {
    const { ping, list } = await twoPending(client);
    port.deliver({ kind: 'response', id: 1, result: ok({ latencyMs: 1 }) });
    port.deliver({ kind: 'response', id: 1, result: ok({ latencyMs: 2 }) });
    assert.deepEqual(await ping, { latencyMs: 1 });
    assert.equal(client.dropped, 1);
    assert.equal(await settledState(list), 'pending');
  } finally {
    restore();
  }
});

const rejected: [string, unknown][] = [
  ['a malformed catalog (items not an array)', { category: 'tools', items: 'lots' }],
  ['a list without a category', { items: [] }],
  ['items that are not a list', { category: 'prompts', items: { a: 1 } }],
  ['too many tools', { category: 'tools', items: Array.from({ length: 1001 }, (_, i) => ({ name: `t${i}`, inputSchema: {} })) }],
  ['an unknown category', { category: 'everything', items: [] }],
];

for (const [name, value] of rejected) {
  test(`D1/N8: rejects ${name} as a protocol error, only for its own request`, async () => {
    const { port, client, restore } = await setup();
    try {
      const { ping, list } = await twoPending(client);
      port.deliver({ kind: 'response', id: 2, result: ok(value) });
      await assert.rejects(list, { code: 'protocol' });
      assert.equal(await settledState(ping), 'pending');
    } finally {
      restore();
    }
  });
}

test('N8: an error envelope with an oversized message is rejected, not shown', async () => {
  const { port, client, restore } = await setup();
  try {
    const { ping, list } = await twoPending(client);
    port.deliver({ kind: 'response', id: 1, result: { ok: false, error: { code: 'x', message: 'm'.repeat(5000) } } });
    await assert.rejects(ping, (e: Error & { code: string }) => e.code === 'protocol' && e.message.length < 200);
    assert.equal(await settledState(list), 'pending');
  } finally {
    restore();
  }
});

test('D1: a value of the wrong type for its method is rejected', async () => {
  const { port, client, restore } = await setup();
  try {
    const { ping } = await twoPending(client);
    port.deliver({ kind: 'response', id: 1, result: ok({ latencyMs: 'fast' }) });
    await assert.rejects(ping, { code: 'protocol' });
  } finally {
    restore();
  }
});

const badEvents: [string, unknown][] = [
  ['an unknown event type', { type: 'offscreen:take-over', connectionId: CONN }],
  ['a connectionId with forbidden characters', { type: 'offscreen:list-changed', connectionId: '../c1', category: 'tools' }],
  ['an unknown list category', { type: 'offscreen:list-changed', connectionId: CONN, category: 'secrets' }],
  ['a session-lost without an error', { type: 'offscreen:session-lost', connectionId: CONN }],
  [
    'an oversized progress message',
    { type: 'offscreen:progress', connectionId: CONN, operationId: 'op', progress: 1, message: 'x'.repeat(2000) },
  ],
];

for (const [name, event] of badEvents) {
  test(`D1: drops an event with ${name}`, async () => {
    const { port, client, events, restore } = await setup();
    try {
      await twoPending(client);
      port.deliver({ kind: 'event', event });
      assert.equal(client.dropped, 1);
      assert.deepEqual(events, []);
    } finally {
      restore();
    }
  });
}

test('D1: a valid event reaches every listener even if one of them throws', async () => {
  const { port, client, events, restore } = await setup();
  const silence = console.error;
  console.error = () => undefined;
  try {
    client.onEvent(() => {
      throw new Error('listener bug');
    });
    await twoPending(client);
    const event = { type: 'offscreen:list-changed', connectionId: CONN, category: 'tools' } as const;
    port.deliver({ kind: 'event', event });
    assert.deepEqual(events, [event]);
  } finally {
    console.error = silence;
    restore();
  }
});

test('D3: a closed Port fails every pending request, and late answers on it are ignored', async () => {
  const { port, client, restore } = await setup();
  try {
    const { ping, list } = await twoPending(client);
    port.disconnect();
    await assert.rejects(ping, { code: 'offscreen-lost' });
    await assert.rejects(list, { code: 'offscreen-lost' });
    port.deliver({ kind: 'response', id: 1, result: ok({ latencyMs: 1 }) });
    assert.equal(client.dropped, 0, 'messages from a detached Port are not even read');
  } finally {
    restore();
  }
});

test('a request pending on a replaced port fails offscreen-lost instead of waiting forever', async () => {
  const first = new FakePort();
  const second = new FakePort();
  let current: FakePort = first;
  const client = new McpWorkerClient(async () => current);
  const stuck = client.request('offscreen:ping', { connectionId: CONN });
  await flush();
  assert.equal(first.sent.length, 1);
  current = second; // the document was replaced; the old port's onDisconnect never fires here
  const next = client.request('offscreen:ping', { connectionId: CONN });
  await assert.rejects(stuck, (e: unknown) => (e as { code?: string }).code === 'offscreen-lost');
  await flush();
  second.deliver({ kind: 'response', id: second.sent[0]!.id, result: ok({ latencyMs: 1 }) });
  assert.deepEqual(await next, { latencyMs: 1 });
});
