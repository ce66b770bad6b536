import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkClientMetadataUrlField,
  checkHeaderLines,
  checkTimeoutField,
  checkUrlField,
  proposedName,
  withScheme,
} from '../../../src/components/server-form-model.js';

test('a URL typed without a scheme gets https://, and a loopback host http://', () => {
  assert.equal(withScheme(' example.com/mcp '), 'https://example.com/mcp');
  assert.equal(withScheme('localhost:3000/mcp'), 'http://localhost:3000/mcp');
  assert.equal(withScheme('127.0.0.1:8080/mcp'), 'http://127.0.0.1:8080/mcp');
  assert.equal(withScheme('[::1]:8080/mcp'), 'http://[::1]:8080/mcp');
  assert.equal(withScheme('localhost.example.com/mcp'), 'https://localhost.example.com/mcp');
  assert.equal(withScheme('http://example.com/mcp'), 'http://example.com/mcp');
  assert.deepEqual(checkUrlField('example.com/mcp'), { ok: true, value: 'https://example.com/mcp' });
});

test('URL errors name what is wrong, as message keys for the field', () => {
  assert.deepEqual(checkUrlField('  '), { ok: false, key: 'urlMissing' });
  assert.deepEqual(checkUrlField('http://example.com/mcp'), { ok: false, key: 'urlNeedsHttps' });
  assert.deepEqual(checkUrlField('ftp://example.com/mcp'), { ok: false, key: 'urlScheme' });
  assert.deepEqual(checkUrlField('https://user:pw@example.com/mcp'), { ok: false, key: 'urlCredentials' });
  assert.deepEqual(checkUrlField('https://exa mple.com'), { ok: false, key: 'urlNotAbsolute' });
  assert.deepEqual(checkUrlField(`example.com/${'x'.repeat(2100)}`), { ok: false, key: 'urlTooLong' });
  assert.deepEqual(checkUrlField('https://example.com/mcp#frag'), { ok: true, value: 'https://example.com/mcp' });
});

test('the connect timeout is whole seconds from 1 to 600, empty for the default', () => {
  assert.deepEqual(checkTimeoutField(''), { ok: true, value: null });
  assert.deepEqual(checkTimeoutField(' 45 '), { ok: true, value: 45_000 });
  for (const bad of ['0', '601', '1.5', '-3', 'ten']) assert.deepEqual(checkTimeoutField(bad), { ok: false, key: 'timeoutInvalid' }, bad);
});

test('a client metadata URL must be https with a path', () => {
  assert.deepEqual(checkClientMetadataUrlField(' '), { ok: true, value: undefined });
  assert.deepEqual(checkClientMetadataUrlField('https://app.example.com/client.json'), {
    ok: true,
    value: 'https://app.example.com/client.json',
  });
  assert.equal(checkClientMetadataUrlField('https://app.example.com/').ok, false);
  assert.equal(checkClientMetadataUrlField('http://app.example.com/c.json').ok, false);
});

test('header lines are "Name: value"; reserved, duplicate and empty ones are refused', () => {
  assert.deepEqual(checkHeaderLines('X-Api-Key: abc: def\n\n X-Team : blue '), {
    ok: true,
    value: [
      { name: 'X-Api-Key', value: 'abc: def' },
      { name: 'X-Team', value: 'blue' },
    ],
  });
  assert.deepEqual(checkHeaderLines('no colon'), { ok: false, key: 'headerLineInvalid', subs: ['no colon'] });
  assert.deepEqual(checkHeaderLines('Authorization: Bearer x'), { ok: false, key: 'headerReserved', subs: ['Authorization'] });
  assert.deepEqual(checkHeaderLines('X-A:'), { ok: false, key: 'headerValueRequired', subs: ['X-A'] });
  assert.deepEqual(checkHeaderLines('X-A: 1\nx-a: 2'), { ok: false, key: 'headerDuplicate', subs: ['x-a'] });
  assert.deepEqual(checkHeaderLines('Bad Name: 1'), { ok: false, key: 'headerNameInvalid', subs: ['Bad Name'] });
});

test("the proposed name is the server's own, else the host", () => {
  assert.equal(proposedName('https://mcp.example.com/mcp', ' Demo '), 'Demo');
  assert.equal(proposedName('https://mcp.example.com/mcp'), 'mcp.example.com');
});
