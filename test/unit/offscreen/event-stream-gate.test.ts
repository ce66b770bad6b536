/**
 * The standalone GET event stream holds one of Chrome's 6 HTTP/1.1 sockets per host for the whole
 * session, so it is opened only when the server can send something on it: it declared list
 * changes, or it sent a request of its own. Against the real SDK session and the demo server.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { McpSession } from '../../../src/offscreen/session.js';
import { startDemoServer, type DemoServer } from '../../support/demo-server.js';

const fixed = await startDemoServer({ listChanged: false, elicitation: true, elicitOnCallStream: true });
const changing = await startDemoServer();
after(() => Promise.all([fixed.close(), changing.close()]));

async function connected(demo: DemoServer) {
  const listChanged: string[] = [];
  const s = new McpSession({
    url: demo.url,
    headers: {},
    timeoutMs: 5000,
    onElicitation: async () => ({ action: 'accept', content: { guests: 2 } }),
    onListChanged: (category) => listChanged.push(category),
    onClosed: () => undefined,
  });
  const info = await s.connect();
  return { s, info, listChanged };
}

const settle = () => new Promise((r) => setTimeout(r, 100));

test('a server that declares no list changes gets no GET event stream; calls still work', async () => {
  const before = fixed.stats.eventStreams;
  const { s, info } = await connected(fixed);
  try {
    assert.equal((info.capabilities['tools'] as { listChanged?: boolean }).listChanged, false);
    const r = await s.callTool('echo', { text: 'x' }, new AbortController().signal, () => undefined);
    assert.match(JSON.stringify(r.content), /echo: x/);
    await settle();
    assert.equal(fixed.stats.eventStreams, before, 'no GET reached the server');
  } finally {
    await s.close();
  }
});

test('a server that declares list changes gets the GET event stream, and its notifications arrive on it', async () => {
  const before = changing.stats.eventStreams;
  const { s, listChanged } = await connected(changing);
  try {
    await settle();
    assert.equal(changing.stats.eventStreams, before + 1);
    changing.addTool('added_later');
    await settle();
    assert.deepEqual(listChanged, ['tools']);
  } finally {
    await s.close();
  }
});

test('a server that sends a request of its own (an elicitation) gets the GET event stream from then on', async () => {
  const before = fixed.stats.eventStreams;
  const { s } = await connected(fixed);
  try {
    const r = await s.callTool('confirm_booking', { place: 'Porto' }, new AbortController().signal, () => undefined);
    assert.match(JSON.stringify(r.content), /booking accept/);
    await settle();
    assert.equal(fixed.stats.eventStreams, before + 1);
  } finally {
    await s.close();
  }
});
