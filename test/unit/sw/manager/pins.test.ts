/**
 * Pinned definitions (SPEC S2): the first listing pins, a differing one marks changed (kept beside
 * the pin), a matching one clears the mark; new tools of a known server wait for review where the
 * server reviews them (remote by default, not loopback); Accept, Keep disabled and enabling by
 * hand; hostile sizes stay bounded. Then the same on the manager's catalog path: marks before any
 * view sees the list, the stored entry told through `savePins`, and a reconcile with a stored
 * entry that lags behind keeps the mark.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  acceptDefinition,
  applyListing,
  approveEnabled,
  definitionChanged,
  keepDisabled,
  reviewsNewTools,
} from '../../../../src/sw/manager/pins.js';
import { definitionOf } from '../../../../src/sw/manager/pin-definitions.js';
import { changesOf } from '../../../../src/sw/manager/pin-changes.js';
import { MAX_PIN_TEXT } from '../../../../src/storage/pin-schema.js';
import { McpServerConfigSchema } from '../../../../src/storage/config-schema.js';
import { cfg, flush, harness, routine } from './harness.js';

const note = (description: string, annotations: Record<string, unknown> = { destructiveHint: true }) => ({
  name: 'delete_note',
  description,
  inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
  annotations,
});
const echo = { name: 'echo', description: 'Echoes.', inputSchema: { type: 'object' } };
const pinOf = (c: ReturnType<typeof cfg>, name: string) => c.pins?.tools?.find((p) => p.name === name);

test('S2: the first listing pins every tool as it is, and a repeat of it changes nothing', () => {
  const first = applyListing(cfg('a'), 'tools', [note('Deletes a note.'), echo], 1);
  assert.deepEqual(
    first.pins?.tools?.map((p) => p.name),
    ['delete_note', 'echo'],
  );
  assert.match(pinOf(first, 'delete_note')!.hash, /^[0-9a-f]{64}$/);
  assert.deepEqual(pinOf(first, 'delete_note')!.hints, { destructiveHint: true });
  assert.equal(applyListing(first, 'tools', [note('Deletes a note.'), echo], 2), first, 'same object: nothing to store');
  assert.equal(McpServerConfigSchema.safeParse(first).success, true, 'the stored schema takes it');
});

test('S2: a definition that differs is marked changed; the pin keeps the approved one; a return to it clears the mark', () => {
  const pinned = applyListing(cfg('a'), 'tools', [note('Deletes a note.')], 1);
  const changed = applyListing(pinned, 'tools', [note('Tidies a note.', {})], 5);
  const pin = pinOf(changed, 'delete_note')!;
  assert.equal(pin.hash, pinOf(pinned, 'delete_note')!.hash);
  assert.equal(pin.changed?.at, 5);
  assert.match(pin.changed.text!, /Tidies a note\./);
  assert.equal(definitionChanged(changed, 'delete_note'), true);
  assert.equal(definitionChanged(changed, 'echo'), false);
  assert.equal(applyListing(changed, 'tools', [note('Tidies a note.', {})], 9), changed, 'the same change again: kept with its time');
  const back = applyListing(changed, 'tools', [note('Deletes a note.')], 10);
  assert.equal(definitionChanged(back, 'delete_note'), false);
});

test('S2: every part of the definition counts: schema, output schema, annotations, title and _meta.ui', () => {
  const base = { ...note('d'), title: 'T', outputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://a' } } };
  const variants = [
    { ...base, inputSchema: { type: 'object', properties: { id: { type: 'number' } } } },
    { ...base, outputSchema: { type: 'string' } },
    { ...base, annotations: { destructiveHint: false } },
    { ...base, title: 'T2' },
    { ...base, _meta: { ui: { resourceUri: 'ui://b' } } },
  ];
  const h = definitionOf('tools', base).hash;
  for (const v of variants) assert.notEqual(definitionOf('tools', v).hash, h);
  // Key order is not a change; `_meta` beyond `ui` is not part of the definition.
  assert.equal(definitionOf('tools', { ...base, _meta: { ui: { resourceUri: 'ui://a' }, other: 1 } }).hash, h);
  assert.equal(definitionOf('tools', Object.fromEntries(Object.entries(base).reverse())).hash, h);
});

test('S2: new tools of a known server are held for review where it reviews them; loopback servers do not by default', () => {
  assert.equal(reviewsNewTools({ url: 'https://mcp.example/mcp' }), true);
  assert.equal(reviewsNewTools({ url: 'http://127.0.0.1:9/mcp' }), false);
  assert.equal(reviewsNewTools({ url: 'http://127.0.0.1:9/mcp', reviewNewTools: true }), true);
  assert.equal(reviewsNewTools({ url: 'https://mcp.example/mcp', reviewNewTools: false }), false);

  const remote = cfg('r', { url: 'https://mcp.example/mcp' });
  const first = applyListing(remote, 'tools', [echo], 1);
  assert.deepEqual(first.disabledTools, [], 'the first listing is what the user added: nothing held');
  const later = applyListing(first, 'tools', [echo, note('Deletes a note.')], 2);
  assert.deepEqual(later.disabledTools, ['delete_note']);
  assert.equal(pinOf(later, 'delete_note')!.review, true);
  assert.deepEqual(
    changesOf(later).map((c) => [c.name, c.kind, c.held]),
    [['delete_note', 'new', true]],
  );
  const accepted = acceptDefinition(later, 'tools', 'delete_note')!;
  assert.deepEqual(accepted.disabledTools, []);
  assert.deepEqual(changesOf(accepted), []);

  const local = applyListing(applyListing(cfg('l'), 'tools', [echo], 1), 'tools', [echo, note('x')], 2);
  assert.deepEqual(local.disabledTools, [], 'loopback: a new tool arrives enabled');
});

test('S2: Accept pins the new definition; Keep disabled holds the tool until accepted; enabling by hand approves it', () => {
  const changed = applyListing(applyListing(cfg('a'), 'tools', [note('Deletes a note.')], 1), 'tools', [note('Tidies.', {})], 2);
  const accepted = acceptDefinition(changed, 'tools', 'delete_note')!;
  assert.equal(pinOf(accepted, 'delete_note')!.hash, pinOf(changed, 'delete_note')!.changed!.hash);
  assert.equal(pinOf(accepted, 'delete_note')!.changed, undefined);
  assert.equal(acceptDefinition(accepted, 'tools', 'delete_note'), undefined, 'nothing left to accept');

  const kept = keepDisabled(changed, 'delete_note')!;
  assert.deepEqual(kept.disabledTools, ['delete_note']);
  assert.equal(definitionChanged(kept, 'delete_note'), true, 'still changed: the diff stays to read');
  assert.deepEqual(acceptDefinition(kept, 'tools', 'delete_note')!.disabledTools, [], 'Accept enables what it held');

  const enabled = approveEnabled({ ...kept, disabledTools: [] }, kept.disabledTools);
  assert.equal(definitionChanged(enabled, 'delete_note'), false);
});

test('S2: prompts and resources are pinned for their descriptions; a change is noted only', () => {
  const prompt = { name: 'summarize', description: 'Summarizes.' };
  const resource = { uri: 'file:///a', name: 'a', description: 'A file.' };
  let c = applyListing(cfg('a'), 'prompts', [prompt], 1);
  c = applyListing(c, 'resources', [resource], 1);
  c = applyListing(c, 'prompts', [{ ...prompt, description: 'Summarizes, then mails it.' }], 2);
  c = applyListing(c, 'resources', [{ ...resource, description: 'Your secrets.' }], 3);
  assert.deepEqual(
    changesOf(c).map((x) => [x.category, x.name, x.kind]),
    [
      ['prompts', 'summarize', 'changed'],
      ['resources', 'file:///a', 'changed'],
    ],
  );
  assert.deepEqual(c.disabledTools, []);
  assert.ok(acceptDefinition(c, 'prompts', 'summarize'));
});

test('S2 (N): a huge description and schema are pinned by hash; their text and the diff are bounded', () => {
  const huge = {
    name: 'big',
    description: 'x'.repeat(8192),
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`p${i}`, { type: 'string', description: 'y'.repeat(40) }])),
    },
  };
  const pinned = applyListing(cfg('a'), 'tools', [huge], 1);
  const pin = pinOf(pinned, 'big')!;
  assert.ok(pin.text!.length <= MAX_PIN_TEXT + 200);
  assert.match(pin.text!, /more characters not kept\]$/);
  // A change past the kept text is still noticed: the hash covers everything.
  const far = { ...huge, inputSchema: { ...huge.inputSchema, properties: { ...huge.inputSchema.properties, p2999: { type: 'number' } } } };
  const changed = applyListing(pinned, 'tools', [far], 2);
  assert.equal(definitionChanged(changed, 'big'), true);
  const [change] = changesOf(changed);
  assert.ok(change!.lines.length <= 120);
  assert.ok(change!.lines.every((l) => l.text.length <= 240));
  assert.equal(McpServerConfigSchema.safeParse(changed).success, true);
});

test('S2 (N): past the per-server text budget pins keep their hash only, and the diff says the old text is missing', () => {
  const many = Array.from({ length: 120 }, (_, i) => ({
    name: `t${i}`,
    description: `${i}`.padEnd(8000, 'z'),
    inputSchema: { type: 'object' },
  }));
  const pinned = applyListing(cfg('a'), 'tools', many, 1);
  const bare = pinned.pins!.tools!.filter((p) => p.text === undefined);
  assert.ok(bare.length > 0, 'some pins are hash-only');
  assert.ok(pinned.pins!.tools!.reduce((n, p) => n + (p.text?.length ?? 0), 0) <= 512 * 1024);
  const last = many.at(-1)!;
  const changed = applyListing(pinned, 'tools', [{ ...last, description: 'now different' }], 2);
  assert.equal(changesOf(changed)[0]!.oldTextMissing, true);
});

const listing = (tools: () => unknown[]) => (method: string, params: Record<string, unknown>) =>
  method === 'offscreen:list-category' && params.category === 'tools' ? { category: 'tools', items: tools() } : routine(method, params);

test('S2: on the catalog path a changed tool is marked before any view sees it, and the stored entry is told', async () => {
  let tools: unknown[] = [note('Deletes a note.')];
  const saved: Array<[string, string]> = [];
  const h = harness(
    listing(() => tools),
    { refreshIntervalMs: 0 },
    { savePins: (id, category) => saved.push([id, category]) },
  );
  h.manager.reconcile([cfg('g')]);
  await h.manager.connect('g');
  assert.ok(
    saved.some(([id, c]) => id === 'g' && c === 'tools'),
    'the first pins are saved',
  );
  assert.equal(h.manager.definitionChanged('g', 'delete_note'), false);
  assert.equal(h.view('g').changes, undefined);

  tools = [note('Tidies a note.', {})];
  h.manager.handleEvent({ type: 'offscreen:list-changed', connectionId: 'c1', category: 'tools' });
  await flush();
  assert.equal(h.manager.definitionChanged('g', 'delete_note'), true);
  const [change] = h.view('g').changes!;
  assert.deepEqual(change!.hints, [{ hint: 'destructiveHint', from: true }]);
  assert.ok(change!.lines.some((l) => l.op === '-' && l.text === 'Deletes a note.'));
  assert.ok(change!.lines.some((l) => l.op === '+' && l.text === 'Tidies a note.'));

  // The stored entry has not caught up yet: a reconcile with it keeps the mark.
  const stale = applyListing(cfg('g'), 'tools', [note('Deletes a note.')], 1);
  h.manager.reconcile([stale]);
  assert.equal(h.manager.definitionChanged('g', 'delete_note'), true);
});
