import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RemoteError } from '../../../../src/protocol/result.js';
import { retryingSuperseded } from '../../../../src/sw/handlers/superseded-retry.js';

const superseded = () => new RemoteError({ code: 'superseded', message: 'A newer connect replaced this one.' });

test('a connect superseded by the reconcile is tried again, and its answer returned', async () => {
  let tries = 0;
  const value = await retryingSuperseded(async () => {
    tries++;
    if (tries < 3) throw superseded();
    return 'ready';
  });
  assert.deepEqual([value, tries], ['ready', 3]);
});

test('three supersedes in a row end the tries with the last one', async () => {
  let tries = 0;
  await assert.rejects(
    retryingSuperseded(async () => {
      tries++;
      throw superseded();
    }),
    { code: 'superseded' },
  );
  assert.equal(tries, 3);
});

test('any other failure is final at once', async () => {
  let tries = 0;
  await assert.rejects(
    retryingSuperseded(async () => {
      tries++;
      throw new RemoteError({ code: 'network', message: 'unreachable' });
    }),
    { code: 'network' },
  );
  assert.equal(tries, 1);
});
