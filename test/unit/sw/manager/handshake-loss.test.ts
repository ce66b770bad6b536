/**
 * A session lost during the handshake, declared categories that cannot be listed, and a call the
 * server refused for an unknown session (SPEC C7, D1, N7), through the fake offscreen.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RemoteError } from '../../../../src/protocol/result.js';
import { cfg, flush, harness, routine } from './harness.js';

const lostError = () => new RemoteError({ code: 'session-lost', message: 'The MCP session ended while this request was running.' });

test('C7: a session lost while its catalog is listed is never committed ready; the attempt is retried with backoff', async () => {
  let attempt = 0;
  const h = harness((m, p) => {
    if (m === 'offscreen:connect') {
      attempt++;
      return { capabilities: { tools: {} } };
    }
    // The first session dies under the listing: tools fails, the undeclared categories are "empty".
    if (m === 'offscreen:list-category' && attempt === 1) return p.category === 'tools' ? Promise.reject(lostError()) : routine(m, p);
    return routine(m, p);
  });
  h.manager.reconcile([cfg('a')]);
  await h.manager.connect('a');
  assert.equal(h.view('a').status, 'ready');
  assert.deepEqual(h.opened(), ['c1', 'c2'], 'a second session was opened');
  assert.ok(h.closed().includes('c1'), 'the lost candidate was closed');
  assert.deepEqual(h.delays.length, 1, 'one backoff delay before the retry');
  assert.deepEqual(
    h.view('a').tools.map((t) => t.name),
    ['echo'],
  );
});

test('C7: a session-lost event for the candidate fails the handshake even if every listing answered', async () => {
  let attempt = 0;
  let release: (() => void) | undefined;
  const h = harness((m, p) => {
    if (m === 'offscreen:connect') return (attempt++, { capabilities: { tools: {} } });
    if (m === 'offscreen:list-category' && attempt === 1 && p.category === 'tools')
      return new Promise((r) => (release = () => r(routine(m, p))));
    return routine(m, p);
  });
  h.manager.reconcile([cfg('a')]);
  const connecting = h.manager.connect('a');
  await flush();
  h.manager.handleEvent({ type: 'offscreen:session-lost', connectionId: 'c1', error: { code: 'session-lost', message: 'HTTP 400' } });
  release!();
  await connecting;
  assert.deepEqual(h.opened(), ['c1', 'c2']);
  const state = h.manager.state('a');
  assert.equal(state?.status, 'ready');
  assert.equal(state?.status === 'ready' && state.connectionId, 'c2', 'the lost c1 was never committed');
});

test('D1: a declared category that cannot be listed is an error, not an empty success', async () => {
  const h = harness((m, p) => {
    if (m === 'offscreen:connect') return { capabilities: { tools: {} } };
    if (m === 'offscreen:list-category' && p.category === 'tools')
      return Promise.reject(new RemoteError({ code: 'protocol', message: 'tools/list failed' }));
    if (m === 'offscreen:list-category') return { category: p.category, items: [] };
    return routine(m, p);
  });
  h.manager.reconcile([cfg('a')]);
  await assert.rejects(h.manager.connect('a'), /catalog could not be listed: tools\/list failed/);
  assert.equal(h.view('a').status, 'error');
});

test('N7: a call the server refused for an unknown session says it was not run, and the session is rebuilt', async () => {
  const h = harness((m, p) => {
    if (m === 'offscreen:call-tool')
      return Promise.reject(
        new RemoteError({ code: 'session-lost', message: 'no longer knows this MCP session; refused, not run', httpStatus: 400 }),
      );
    return routine(m, p);
  });
  h.manager.reconcile([cfg('a')]);
  await h.manager.connect('a');
  await assert.rejects(h.manager.callTool('a', 'echo', {}, 'op1'), (e: RemoteError) => {
    assert.equal(e.code, 'session-lost');
    assert.match(e.message, /no longer knew the session .* "echo" was not run/);
    return true;
  });
  await flush();
  assert.deepEqual(h.opened(), ['c1', 'c2']);
  assert.equal(h.view('a').status, 'ready');
  assert.equal(h.of('call-tool').length, 1, 'the call was not replayed');
});
