import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkServerUrl, originPattern } from '../../../src/common/url-rules.js';

test('https and explicit loopback http are accepted, without the fragment', () => {
  assert.deepEqual(checkServerUrl(' https://mcp.example.com/mcp#x '), { ok: true, url: 'https://mcp.example.com/mcp' });
  for (const host of ['127.0.0.1:8080', 'localhost:3000', '[::1]:9']) assert.equal(checkServerUrl(`http://${host}/mcp`).ok, true);
});

test('plain http elsewhere, other schemes, credentials in the URL and garbage are refused with a reason', () => {
  for (const bad of [
    'http://example.com/mcp',
    'ftp://example.com/',
    'https://user:pw@example.com/',
    'not a url',
    `https://e.com/${'a'.repeat(3000)}`,
  ]) {
    const r = checkServerUrl(bad);
    assert.equal(r.ok, false, bad);
    if (!r.ok) assert.ok(r.message.length > 0);
  }
});

test('the host permission pattern covers exactly the origin, port included', () => {
  assert.equal(originPattern('http://127.0.0.1:39123/mcp'), 'http://127.0.0.1:39123/*');
  assert.equal(originPattern('https://Mcp.Example.com/a/b'), 'https://mcp.example.com/*', 'a default port is left out');
  assert.equal(originPattern('https://mcp.example.com:443/a'), 'https://mcp.example.com/*');
  assert.equal(originPattern('https://host.example:8443/mcp'), 'https://host.example:8443/*');
  assert.equal(originPattern('http://[::1]:8080/mcp'), 'http://[::1]:8080/*');
  assert.notEqual(originPattern('http://127.0.0.1:1/'), originPattern('http://127.0.0.1:2/'), 'one port never grants another');
});
