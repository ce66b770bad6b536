import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { listenOn } from '../../support/listen.js';

test('a taken fixed port rejects with EADDRINUSE once the retry window is over (no null address, no hang)', async () => {
  const holder = createServer();
  const port = await listenOn(holder);
  const second = createServer();
  await assert.rejects(listenOn(second, port, 300), { code: 'EADDRINUSE' });
  holder.close();
});

test('a fixed port freed during the retry window is bound', async () => {
  const holder = createServer();
  const port = await listenOn(holder);
  setTimeout(() => holder.close(), 400);
  const second = createServer();
  assert.equal(await listenOn(second, port, 5_000), port);
  second.close();
});
