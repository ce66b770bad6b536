import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProviderAccess } from '../../../../src/sw/chat/provider-access.js';
import type { OpenedProvider } from '../../../../src/storage/provider-settings.js';

const provider: OpenedProvider = { kind: 'openai', baseUrl: 'https://api.example/v1', model: 'm', maxSteps: 20 };

function counted(answers: Array<() => Promise<OpenedProvider | undefined>>) {
  let opened = 0;
  const asked: string[] = [];
  const access = new ProviderAccess(
    { opened: () => answers[opened++]!() },
    async (url) => (asked.push(url), url.startsWith('https://api.example')),
  );
  return { access, asked, opened: () => opened };
}

test('the provider and the permission answers are asked once until forgotten', async () => {
  const c = counted([async () => provider, async () => provider]);
  assert.equal(await c.access.opened(), provider);
  assert.equal(await c.access.opened(), provider);
  assert.equal(c.opened(), 1);
  assert.equal(await c.access.permitted('https://api.example/v1'), true);
  assert.equal(await c.access.permitted('https://api.example/v1'), true);
  assert.equal(await c.access.permitted('https://other.example/v1'), false);
  assert.deepEqual(c.asked, ['https://api.example/v1', 'https://other.example/v1']);
  c.access.forget();
  await c.access.opened();
  await c.access.permitted('https://api.example/v1');
  assert.equal(c.opened(), 2);
  assert.equal(c.asked.length, 3);
});

test('forgetProvider keeps the permission answers', async () => {
  const c = counted([async () => provider, async () => undefined]);
  await c.access.opened();
  await c.access.permitted('https://api.example/v1');
  c.access.forgetProvider();
  assert.equal(await c.access.opened(), undefined);
  await c.access.permitted('https://api.example/v1');
  assert.equal(c.asked.length, 1);
});

test('a provider that failed to open is asked again at the next send', async () => {
  const c = counted([() => Promise.reject(new Error('cannot decrypt')), async () => provider]);
  await assert.rejects(c.access.opened(), /cannot decrypt/);
  assert.equal(await c.access.opened(), provider);
  assert.equal(c.opened(), 2);
});
