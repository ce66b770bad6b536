import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalResourceUrl, isAllowedEndpoint, isSameOrigin } from '../../../../src/sw/auth/url-policy.js';

test('the canonical resource lowercases scheme and host, drops default port and fragment, keeps the path', () => {
  assert.equal(canonicalResourceUrl('HTTPS://MCP.Example.COM:443/Api/MCP#frag'), 'https://mcp.example.com/Api/MCP');
  assert.equal(canonicalResourceUrl('http://127.0.0.1:80/mcp'), 'http://127.0.0.1/mcp');
  assert.equal(canonicalResourceUrl('https://mcp.example.com:8443/mcp?x=1'), 'https://mcp.example.com:8443/mcp?x=1');
});

test('a resource URL with credentials or a non-http scheme is refused', () => {
  assert.throws(() => canonicalResourceUrl('https://user:pw@mcp.example.com/mcp'), TypeError);
  assert.throws(() => canonicalResourceUrl('ftp://mcp.example.com/'), TypeError);
  assert.throws(() => canonicalResourceUrl('not a url'), TypeError);
});

test('https is allowed anywhere, http only for explicit loopback hosts', () => {
  assert.equal(isAllowedEndpoint('https://as.example.com/token'), true);
  assert.equal(isAllowedEndpoint('http://127.0.0.1:8080/token'), true);
  assert.equal(isAllowedEndpoint('http://localhost/token'), true);
  assert.equal(isAllowedEndpoint('http://[::1]:3000/token'), true);
  assert.equal(isAllowedEndpoint('http://as.example.com/token'), false);
  assert.equal(isAllowedEndpoint('http://127.0.0.2/token'), false);
  assert.equal(isAllowedEndpoint('http://localhost.evil.com/token'), false);
  assert.equal(isAllowedEndpoint('javascript:alert(1)'), false);
  assert.equal(isAllowedEndpoint('https://u:p@as.example.com/'), false);
});

test('same-origin compares scheme, host and port', () => {
  assert.equal(isSameOrigin('https://a.example/x', 'https://A.example:443/y'), true);
  assert.equal(isSameOrigin('https://a.example/x', 'http://a.example/x'), false);
  assert.equal(isSameOrigin('https://a.example/x', 'https://a.example:8443/x'), false);
  assert.equal(isSameOrigin('https://a.example/x', 'garbage'), false);
});
