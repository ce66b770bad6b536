/**
 * A server restart under the extension (SPEC C7, N7): the SDK server set
 * up to answer like `@modelcontextprotocol/server-everything` after a restart — 400 "No valid
 * session ID provided" for the old session id, not 404. The next call fails once, saying it was
 * not run, or succeeds on a transparently rebuilt session; the card recovers by itself, and no
 * call runs twice.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, waitFor, until, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { panelRequest } from '../support/panel-request.js';

let server: DemoServer;
let ext: ExtensionBrowser;
let panel: Page;

const READY = 'mcp-server-list >>> mcp-server-card >>> mcp-status-badge[status="ready"]';

before(async () => {
  server = await startDemoServer({ unknownSession: 400 });
  ext = await launchExtension({ workerDevTools: false });
  panel = await ext.openPanel();
  await addServerInPanel(panel, { name: 'Demo', url: server.url });
  await waitFor(panel, READY, 20_000);
});

after(async () => {
  await ext?.close();
  await server?.close();
});

type Answer = { ok: boolean; value?: { content?: { text?: string }[] }; error?: { code: string; message: string } };

const echo = (text: string) => panelRequest<Answer>(panel, 'panel:call-tool', { serverId: 'demo', tool: 'echo', arguments: { text } });

const echoes = () => server.stats.toolCalls.filter((c) => c === 'echo').length;

test('C7/N7: after a restart that answers 400 for the old session, the next call fails once as "not run" and the card recovers by itself', async () => {
  assert.equal((await echo('before')).ok, true);
  const opened = server.stats.sessionsOpened;
  const ranBefore = echoes();
  await server.restart();
  // At once, before the client's event stream has noticed: this call carries the old session id.
  const first = await echo('right after the restart');
  if (first.ok) {
    // The loss was found first and the session rebuilt: the call went to the new one, once.
    assert.equal(first.value?.content?.[0]?.text, 'echo: right after the restart');
  } else {
    assert.equal(first.error?.code, 'session-lost');
    assert.match(first.error?.message ?? '', /no longer knew the session .*"echo" was not run/);
    assert.equal(echoes(), ranBefore, 'the refused call did not run');
  }
  await until('a new session', async () => (server.stats.sessionsOpened > opened ? true : undefined), 20_000);
  await waitFor(panel, READY, 20_000);
  const again = await echo('after recovery');
  assert.equal(again.ok, true, JSON.stringify(again.error));
  assert.equal(again.value?.content?.[0]?.text, 'echo: after recovery');
  assert.equal(echoes(), ranBefore + (first.ok ? 2 : 1), 'every call ran at most once');
});

test('no extension context logged an error or a CSP violation', () => {
  assert.deepEqual(ext.errors, []);
});
