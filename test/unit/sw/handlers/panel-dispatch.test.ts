import { test } from 'node:test';
import assert from 'node:assert/strict';
import { panelDispatcher, type PanelHandlers } from '../../../../src/sw/handlers/panel-dispatch.js';
import { RemoteError } from '../../../../src/protocol/result.js';

const seen: unknown[] = [];
const handlers = new Proxy({} as PanelHandlers, {
  get: (_t, method: string) => async (p: { serverId?: string }) => {
    seen.push([method, p]);
    if (p.serverId === 'boom') throw new RemoteError({ code: 'unknown-server', message: 'No such server.' });
    return { latencyMs: 5 };
  },
});
const handle = panelDispatcher(handlers);

test('a valid request is answered by its handler with its validated parameters', async () => {
  seen.length = 0;
  assert.deepEqual(await handle({ type: 'panel:ping', params: { serverId: 'demo' } }), { ok: true, value: { latencyMs: 5 } });
  assert.deepEqual(seen, [['panel:ping', { serverId: 'demo' }]]);
});

test('an unknown request or invalid parameters are answered bad-request without running a handler', async () => {
  seen.length = 0;
  const unknown = await handle({ type: 'panel:nope', params: {} });
  assert.equal(unknown.ok, false);
  assert.equal(!unknown.ok && unknown.error.code, 'bad-request');
  const invalid = await handle({ type: 'panel:ping', params: { serverId: 42 } });
  assert.equal(!invalid.ok && invalid.error.code, 'bad-request');
  assert.match(!invalid.ok ? invalid.error.message : '', /^Invalid parameters for panel:ping/);
  assert.deepEqual(seen, []);
});

test("a handler's error is answered as its wire error", async () => {
  const r = await handle({ type: 'panel:ping', params: { serverId: 'boom' } });
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.error.code, 'unknown-server');
  assert.equal(!r.ok && r.error.message, 'No such server.');
});
