/**
 * The worker's preview requests on the import Port (SPEC B3), on the shared request peer: the
 * offscreen side's reply is matched by id, a Port that drops or is replaced fails the request
 * once (never resent), and no reply within 20 s fails it as a timeout.
 */
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { IMPORT_PORT } from '../../../../src/protocol/import-channel.js';
import { answer } from '../../../../src/offscreen/import-channel.js';

const ID = 'pfeobelfcgjanfpdlgcphpfjpmbjcenn';
(globalThis as unknown as { chrome: unknown }).chrome = {
  runtime: { id: ID, getURL: (path: string) => `chrome-extension://${ID}/${path}` },
};
const { ImportChannel } = await import('../../../../src/sw/offscreen-link/import-channel.js');

type Sent = { kind: string; id: number; text: string; existing: { name: string; url: string }[]; inputDigest: string };

function offscreenPort() {
  const message: ((m: unknown) => void)[] = [];
  const dropped: (() => void)[] = [];
  const port = {
    name: IMPORT_PORT,
    sender: { id: ID, url: `chrome-extension://${ID}/offscreen.html` },
    sent: [] as Sent[],
    disconnected: false,
    postMessage: (m: unknown) => void port.sent.push(m as Sent),
    // As in Chrome, the end that disconnects is not told.
    disconnect: () => void (port.disconnected = true),
    onMessage: { addListener: (cb: (m: unknown) => void) => void message.push(cb) },
    onDisconnect: { addListener: (cb: () => void) => void dropped.push(cb) },
    deliver: (m: unknown) => message.forEach((l) => l(m)),
    drop: () => dropped.forEach((l) => l()),
  };
  return port;
}

const text = JSON.stringify({ mcpServers: { demo: { url: 'http://127.0.0.1:3939/mcp' } } });

async function sentOn(port: ReturnType<typeof offscreenPort>, count = 1): Promise<Sent> {
  while (port.sent.length < count) await new Promise((r) => setImmediate(r));
  return port.sent[count - 1]!;
}

function setup() {
  const channel = new ImportChannel(async () => undefined);
  const port = offscreenPort();
  assert.equal(channel.accept(port as never), true);
  return { channel, port };
}

describe('import preview requests (SPEC B3)', () => {
  it('sends the text with its digest and takes the reply to its own id', async () => {
    const { channel, port } = setup();
    const preview = channel.preview(text, [{ name: 'Other', url: 'https://other.example.com/mcp' }]);
    const sent = await sentOn(port);
    assert.equal(sent.kind, 'import:preview');
    assert.deepEqual(sent.existing, [{ name: 'Other', url: 'https://other.example.com/mcp' }]);
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      port.deliver({ kind: 'import:preview-result', id: sent.id + 1 });
    } finally {
      console.warn = warn;
    }
    port.deliver(await answer(sent.id, sent.text, sent.existing));
    const result = await preview;
    assert.deepEqual(
      result.entries.map((e) => `${e.name}:${e.status}`),
      ['demo:add'],
    );
  });

  it('a Port that drops fails the request once, as offscreen-lost, and sends nothing again', async () => {
    const { channel, port } = setup();
    const preview = channel.preview(text, []);
    const sent = await sentOn(port);
    port.drop();
    await assert.rejects(preview, { code: 'offscreen-lost', message: 'The import check stopped before it answered; try again.' });
    port.deliver(await answer(sent.id, sent.text, sent.existing));
    assert.equal(port.sent.length, 1);
  });

  it('a replaced Port fails the requests sent on it at once', async () => {
    const { channel, port } = setup();
    const preview = channel.preview(text, []);
    await sentOn(port);
    const next = offscreenPort();
    assert.equal(channel.accept(next as never), true);
    assert.equal(port.disconnected, true);
    await assert.rejects(preview, { code: 'offscreen-lost' });
    assert.equal(next.sent.length, 0);
  });

  it('no reply within 20 s fails the request as a timeout', async () => {
    const { channel, port } = setup();
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const preview = channel.preview(text, []);
      await sentOn(port);
      mock.timers.tick(19_999);
      const early = await Promise.race([
        preview.then(
          () => 'settled',
          () => 'settled',
        ),
        new Promise((r) => setImmediate(() => r('pending'))),
      ]);
      assert.equal(early, 'pending');
      mock.timers.tick(1);
      await assert.rejects(preview, { code: 'timeout', message: 'The import check took too long; try again.' });
    } finally {
      mock.timers.reset();
    }
  });
});
