/**
 * The import Port across worker stops (SPEC B3, C7): the offscreen document outlives the worker
 * it opened its import Port to. A later worker that needs the Port and has none asks the
 * document for one, and the document opens a new Port — only when it holds none, so a request
 * already on its Port is never cut off by a second one. The errors a user can meet on the way are
 * worded, so the panel says them in the user's language.
 */
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { IMPORT_PORT, IMPORT_RECONNECT } from '../../../../src/protocol/import-channel.js';
import { answer, startImportChannel } from '../../../../src/offscreen/import-channel.js';
import type { HostRuntime } from '../../../../src/offscreen/host.js';

const ID = 'pfeobelfcgjanfpdlgcphpfjpmbjcenn';
const OFFSCREEN = `chrome-extension://${ID}/offscreen.html`;
(globalThis as unknown as { chrome: unknown }).chrome = {
  runtime: { id: ID, getURL: (path: string) => `chrome-extension://${ID}/${path}` },
};
const { ImportChannel } = await import('../../../../src/sw/offscreen-link/import-channel.js');

type Listener<T extends unknown[]> = (...args: T) => void;

/** One Port, seen from either end: messages posted and delivered, a drop told to its listeners. */
function fakePort(name = IMPORT_PORT) {
  const onMessage: Listener<[unknown]>[] = [];
  const onDisconnect: Listener<[]>[] = [];
  const port = {
    name,
    sender: { id: ID, url: OFFSCREEN },
    posted: [] as unknown[],
    disconnected: false,
    postMessage: (m: unknown) => void port.posted.push(m),
    disconnect: () => void (port.disconnected = true),
    onMessage: { addListener: (cb: Listener<[unknown]>) => void onMessage.push(cb) },
    onDisconnect: { addListener: (cb: Listener<[]>) => void onDisconnect.push(cb) },
    deliver: (m: unknown) => onMessage.forEach((l) => l(m)),
    drop: () => onDisconnect.forEach((l) => l()),
  };
  return port;
}

/** The document's runtime: every Port it opens, and the messages a worker sends it. */
function documentRuntime() {
  const opened: ReturnType<typeof fakePort>[] = [];
  const listeners: Listener<[unknown, { id?: string }]>[] = [];
  const runtime: HostRuntime = {
    id: ID,
    connect: (info) => {
      const port = fakePort(info.name);
      opened.push(port);
      return port as never;
    },
    onMessage: { addListener: (cb) => void listeners.push(cb) },
  };
  const send = (message: unknown, sender = { id: ID }) => listeners.forEach((l) => l(message, sender));
  return { runtime, opened, send };
}

const text = JSON.stringify({ mcpServers: { demo: { url: 'http://127.0.0.1:3939/mcp' } } });
const settle = () => new Promise((r) => setImmediate(r));

describe('the offscreen document reopens its import Port for a new worker (SPEC B3, C7)', () => {
  it('opens one Port at load, and a new one when a later worker asks after the first worker stopped', () => {
    const doc = documentRuntime();
    startImportChannel(doc.runtime);
    assert.equal(doc.opened.length, 1);
    assert.equal(doc.opened[0]!.name, IMPORT_PORT);
    doc.opened[0]!.drop(); // Chrome stopped the worker that held it.
    assert.equal(doc.opened.length, 1, 'a drop alone opens nothing: a new Port would wake the stopped worker');
    doc.send({ type: IMPORT_RECONNECT });
    assert.equal(doc.opened.length, 2, 'the new worker got a Port');
  });

  it('answers previews on the new Port', async () => {
    const doc = documentRuntime();
    startImportChannel(doc.runtime);
    doc.opened[0]!.drop();
    doc.send({ type: IMPORT_RECONNECT });
    const port = doc.opened[1]!;
    const expected = await answer(4, text, []);
    port.deliver({ kind: 'import:preview', id: 4, text, existing: [], inputDigest: expected.inputDigest });
    while (port.posted.length === 0) await settle();
    assert.deepEqual(port.posted[0], expected);
  });

  it('opens no second Port while one is open, and heeds no other extension', () => {
    const doc = documentRuntime();
    startImportChannel(doc.runtime);
    doc.send({ type: IMPORT_RECONNECT });
    assert.equal(doc.opened.length, 1, 'the open Port may carry a request: it is not replaced');
    doc.opened[0]!.drop();
    doc.send({ type: IMPORT_RECONNECT }, { id: 'x'.repeat(32) });
    doc.send({ type: 'something-else' });
    assert.equal(doc.opened.length, 1);
  });
});

describe("the worker's import channel asks an existing document for a Port (SPEC B3, C7)", () => {
  it('asks when it has no Port, and the preview runs on the Port that then comes', async () => {
    let asked = 0;
    const channel = new ImportChannel(
      async () => undefined,
      () => void asked++,
    );
    const preview = channel.preview(text, []);
    await settle();
    assert.equal(asked, 1, 'the document was asked for a Port');
    const port = fakePort();
    assert.equal(channel.accept(port as never), true);
    while (port.posted.length === 0) await settle();
    const sent = port.posted[0] as { id: number };
    port.deliver(await answer(sent.id, text, []));
    assert.deepEqual(
      (await preview).entries.map((e) => `${e.name}:${e.status}`),
      ['demo:add'],
    );
  });

  it('asks nothing while it holds a Port', async () => {
    let asked = 0;
    const channel = new ImportChannel(
      async () => undefined,
      () => void asked++,
    );
    const port = fakePort();
    channel.accept(port as never);
    void channel.preview(text, []).catch(() => undefined);
    while (port.posted.length === 0) await settle();
    assert.equal(asked, 0);
    port.drop();
  });

  it('a document that never answers fails the preview with a worded, retryable error', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const channel = new ImportChannel(
        async () => undefined,
        () => undefined,
      );
      const preview = channel.preview(text, []);
      await settle();
      mock.timers.tick(10_000);
      await assert.rejects(preview, (e: { code: string; action: string; message: string; wording?: { code: string } }) => {
        assert.equal(e.code, 'offscreen-lost');
        assert.equal(e.action, 'retry');
        assert.equal(e.message, 'The import check could not start; try again.');
        assert.deepEqual(e.wording, { code: 'reasonImportCheckNotStarted' });
        return true;
      });
    } finally {
      mock.timers.reset();
    }
  });

  it('a Port that drops mid-preview says so in words the panel can translate', async () => {
    const channel = new ImportChannel(async () => undefined);
    const port = fakePort();
    channel.accept(port as never);
    const preview = channel.preview(text, []);
    while (port.posted.length === 0) await settle();
    port.drop();
    await assert.rejects(preview, { code: 'offscreen-lost', wording: { code: 'reasonImportCheckStopped' } });
  });
});
