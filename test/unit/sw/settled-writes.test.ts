import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SettledWrites } from '../../../src/sw/settled-writes.js';
import type { McpServerConfig } from '../../../src/storage/config-schema.js';

const entry = (id: string, disabledTools: string[] = []) =>
  ({
    id,
    name: id,
    url: `https://${id}.example/mcp`,
    auth: { kind: 'none' },
    enabled: true,
    disabledTools,
    connectOnStartup: true,
  }) as McpServerConfig;

function rig(stored: McpServerConfig[]) {
  const writes: McpServerConfig[][] = [];
  const timers: (() => void)[] = [];
  const failures: string[] = [];
  const writer = new SettledWrites({
    update: async (fn) => {
      const next = fn(structuredClone(stored));
      // As ConfigStore.updateIfChanged: undefined means nothing to write.
      if (next !== undefined) writes.push((stored = next));
    },
    failed: (what) => failures.push(what),
    setTimeout: (fn) => timers.push(fn),
  });
  return { writer, writes, timers, failures };
}

test('settles of many servers within one window are one write; each server gets its own settles, in order', async () => {
  const { writer, writes, timers } = rig([entry('a'), entry('b'), entry('c')]);
  writer.add('a', (s) => ({ ...s, disabledTools: [...s.disabledTools, 'x'] }), 'pins');
  writer.add('b', (s) => ({ ...s, disabledTools: ['y'] }), 'pins');
  writer.add('a', (s) => ({ ...s, disabledTools: [...s.disabledTools, 'z'] }), 'pins');
  assert.equal(timers.length, 1, 'one window');
  timers[0]!();
  await writer.flush();
  assert.equal(writes.length, 1);
  assert.deepEqual(
    writes[0]!.map((s) => [s.id, s.disabledTools]),
    [
      ['a', ['x', 'z']],
      ['b', ['y']],
      ['c', []],
    ],
  );
});

test('a window whose settles changed nothing writes nothing; a failed write is told, with what it was', async () => {
  const { writer, writes, timers } = rig([entry('a')]);
  writer.add('a', (s) => s, 'the pinned definitions');
  timers[0]!();
  await writer.flush();
  assert.equal(writes.length, 0);
  const failing = new SettledWrites({
    update: () => Promise.reject(new Error('quota')),
    failed: (what) => told.push(what),
    setTimeout: () => 0,
  });
  const told: string[] = [];
  failing.add('a', (s) => ({ ...s, enabled: false }), 'the imported tool selection');
  await failing.flush();
  assert.deepEqual(told, ['the imported tool selection']);
});
