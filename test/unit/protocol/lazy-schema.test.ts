/**
 * Lazy schemas keep evaluating the worker's script cheap (a cold wake waits for it): nothing is
 * built at import, a schema is built once on first use, and it validates exactly like the schema
 * it stands for — also nested in other schemas, in unions and in method tables.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as z from 'zod/mini';
import { lazySchema } from '../../../src/protocol/lazy-schema.js';
import { OffscreenRequestSchemas, OffscreenEventSchema } from '../../../src/protocol/offscreen.js';
import { PanelRequestEnvelopeSchema, PanelRequestSchemas } from '../../../src/protocol/panel.js';

test('a lazy schema is built on first use, once, and parses like the schema it builds', () => {
  let builds = 0;
  const Name = lazySchema(() => (builds++, z.string().check(z.minLength(1), z.maxLength(8))));
  const Entry = lazySchema(() => (builds++, z.object({ name: Name, tags: z.optional(z.array(Name)) })));
  assert.equal(builds, 0);
  assert.deepEqual(z.safeParse(Entry, { name: 'a', tags: ['b'] }).data, { name: 'a', tags: ['b'] });
  assert.equal(builds, 2);
  assert.equal(Entry.safeParse({ name: '' }).success, false);
  assert.equal(Entry.safeParse({ name: 'toolongname' }).success, false);
  assert.equal(Name.safeParse(42).success, false);
  assert.equal(builds, 2);
});

test('a lazy schema reads as its schema: members, keys, prototype', () => {
  const eager = z.object({ a: z.string() });
  const lazy = lazySchema(() => z.object({ a: z.string() }));
  assert.equal(Object.getPrototypeOf(lazy), Object.getPrototypeOf(eager));
  assert.deepEqual(Object.keys(lazy), Object.keys(eager));
  assert.ok('_zod' in lazy);
  assert.deepEqual(Object.keys(lazy._zod.def.shape), ['a']);
  assert.equal(lazy._zod.def.type, 'object');
});

test('method tables name their methods without building their schemas, and still refuse what they refused', () => {
  assert.ok(Object.keys(PanelRequestSchemas).includes('panel:call-tool'));
  assert.ok(Object.keys(OffscreenRequestSchemas).includes('offscreen:claim'));
  assert.equal(PanelRequestEnvelopeSchema.safeParse({ type: 'panel:nope', params: {} }).success, false);
  const call = PanelRequestSchemas['panel:call-tool'];
  assert.equal(call.safeParse({ serverId: 'ok', tool: 'echo', arguments: {} }).success, true);
  assert.equal(call.safeParse({ serverId: 'NOT OK', tool: 'echo', arguments: {} }).success, false);
  assert.equal(call.safeParse({ serverId: 'ok', tool: '', arguments: {} }).success, false);
  // A discriminated union over lazy members picks by its tag as before.
  assert.equal(OffscreenEventSchema.safeParse({ type: 'offscreen:hello', documentId: 'd1' }).success, true);
  assert.equal(OffscreenEventSchema.safeParse({ type: 'offscreen:hello', documentId: 'bad id!' }).success, false);
  assert.equal(OffscreenEventSchema.safeParse({ type: 'offscreen:other' }).success, false);
});
