import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newOAuthAuth } from '../../../../src/sw/handlers/panel-oauth.js';

test('a new OAuth server keeps the client metadata URL the user entered, trimmed (SPEC E8 opt-in)', async () => {
  assert.deepEqual(await newOAuthAuth('srv', { clientMetadataUrl: ' https://app.example.com/client.json ', scopes: [' read ', ''] }), {
    kind: 'oauth',
    scopes: ['read'],
    clientMetadataUrl: 'https://app.example.com/client.json',
  });
  assert.deepEqual(await newOAuthAuth('srv', { clientMetadataUrl: '  ' }), { kind: 'oauth' });
});

test('a client metadata URL that could never be a client id is refused when the server is added', async () => {
  for (const url of ['http://app.example.com/client.json', 'https://app.example.com/', 'not a url']) {
    await assert.rejects(newOAuthAuth('srv', { clientMetadataUrl: url }), /HTTPS URL with a path/, url);
  }
});
