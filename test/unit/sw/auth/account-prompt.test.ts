import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accountPrompt } from '../../../../src/sw/auth/account-prompt.js';

test('another account asks for the account chooser where the AS lists it, else a fresh sign-in (S3)', () => {
  assert.equal(accountPrompt({ prompt_values_supported: ['none', 'login', 'consent', 'select_account'] }), 'select_account');
  assert.equal(accountPrompt({ prompt_values_supported: ['none', 'login', 'consent'] }), 'login', 'oidc-provider lists no select_account');
  assert.equal(accountPrompt({}), 'login', 'metadata that does not say: login, which an OAuth AS that does not know it ignores');
  assert.equal(accountPrompt({ prompt_values_supported: ['none', 'consent'] }), undefined, 'nothing the AS would refuse');
  assert.equal(accountPrompt({ prompt_values_supported: [] }), undefined);
  assert.equal(accountPrompt({ prompt_values_supported: 'select_account' }), 'login', 'not a list: read as absent');
  assert.equal(accountPrompt({ prompt_values_supported: [1, 'select_account'] }), 'login');
});
