/**
 * SPEC R8 in the offscreen document: `completion/complete` through the 2025 session against the
 * demo server (a resource template's `id`, a prompt's `style`), nothing asked of a server that
 * declares no completions, and a hostile answer bounded (N8).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { McpSession } from '../../../src/offscreen/session.js';
import { boundedValues } from '../../../src/offscreen/completion.js';
import { startDemoServer } from '../../support/demo-server.js';

const everything = await startDemoServer({ everything: true });
const plain = await startDemoServer();
after(() => Promise.all([everything.close(), plain.close()]));

async function session(url: string) {
  const s = new McpSession({ url, headers: {}, timeoutMs: 10_000, onListChanged: () => undefined, onClosed: () => undefined });
  await s.connect();
  return s;
}

test('R8: a template variable and a prompt argument get the server’s suggestions', async () => {
  const s = await session(everything.url);
  const ids = await s.complete({ ref: { type: 'ref/resource', uri: 'demo://notes/{id}' }, argument: { name: 'id', value: '' } });
  assert.ok(ids.values.length > 0, JSON.stringify(ids));
  const words = await s.complete({ ref: { type: 'ref/prompt', name: 'summarize_notes' }, argument: { name: 'maxWords', value: '1' } });
  assert.deepEqual(words.values, ['100']);
  await s.close();
});

test('R8: a server that declares no completions is not asked', async () => {
  const s = await session(plain.url);
  assert.deepEqual(await s.complete({ ref: { type: 'ref/prompt', name: 'x' }, argument: { name: 'a', value: '' } }), { values: [] });
  await s.close();
});

test('R8 (N): suggestions are strings on one line, bounded, without repeats, at most 100', () => {
  const many = Array.from({ length: 10_000 }, (_, i) => `v${i}`);
  assert.equal(boundedValues(many).length, 100);
  assert.deepEqual(
    boundedValues(['a\nb', 'a\nb', 42, null, { x: 1 }, '   ', 'x'.repeat(5000)]).map((v) => v.length),
    [3, 1024],
  );
  assert.deepEqual(boundedValues(['line\u2028break\u0007']), ['line break ']);
});
