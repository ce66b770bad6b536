import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryArea, type AreaChanges } from '../../../src/storage/ports.js';

test('MemoryArea returns copies, reports old and new values, and stops after unsubscribe', async () => {
  const area = new MemoryArea();
  const events: AreaChanges[] = [];
  const stop = area.onChanged((c) => events.push(c));
  const value = { list: [1] };
  await area.set({ k: value, same: 1 });
  value.list.push(2);
  assert.deepEqual(await area.get(['k', 'missing']), { k: { list: [1] } });
  await area.set({ same: 1 });
  await area.remove(['k', 'missing']);
  stop();
  await area.set({ k: 'after' });
  assert.deepEqual(events, [{ k: { newValue: { list: [1] } }, same: { newValue: 1 } }, { k: { oldValue: { list: [1] } } }]);
});
