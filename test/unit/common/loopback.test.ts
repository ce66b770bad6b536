import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOOPBACK_HOSTS, isLoopbackHost } from '../../../src/common/url-rules.js';
import { isAllowedEndpoint } from '../../../src/sw/auth/url-policy.js';
import { withScheme } from '../../../src/components/server-form-model.js';

test('the loopback hosts are 127.0.0.1, localhost and [::1], in any case', () => {
  assert.deepEqual([...LOOPBACK_HOSTS].sort(), ['127.0.0.1', '[::1]', 'localhost']);
  for (const host of ['127.0.0.1', 'localhost', 'LocalHost', '[::1]']) assert.equal(isLoopbackHost(host), true, host);
  for (const host of ['127.0.0.2', 'localhost.example.com', '::1', '0.0.0.0', 'example.com', ''])
    assert.equal(isLoopbackHost(host), false, host);
});

test('the three users of the list agree: the URL rule, the OAuth endpoint policy and the form default scheme', () => {
  for (const host of LOOPBACK_HOSTS) {
    assert.equal(isAllowedEndpoint(`http://${host}:8080/mcp`), true, host);
    assert.equal(withScheme(`${host}:8080/mcp`), `http://${host}:8080/mcp`, host);
  }
  assert.equal(isAllowedEndpoint('http://localhost.example.com/mcp'), false);
  assert.equal(withScheme('localhost.example.com/mcp'), 'https://localhost.example.com/mcp');
  assert.equal(withScheme('127a0a0a1/mcp'), 'https://127a0a0a1/mcp', 'the dots of 127.0.0.1 are literal');
  assert.equal(withScheme('[::1]x'), 'https://[::1]x');
});
