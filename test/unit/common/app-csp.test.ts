import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cspSources, viewCsp, withCsp } from '../../../src/common/app-csp.js';

test('a view that declares nothing gets no network', () => {
  const { policy } = viewCsp(undefined);
  assert.match(policy, /default-src 'none'/);
  assert.match(policy, /connect-src 'none'/);
  assert.match(policy, /frame-src 'none'/);
  assert.match(policy, /script-src 'unsafe-inline'(;|$)/);
});

test('declared origins are kept only when they are plain sources', () => {
  assert.deepEqual(cspSources(['https://api.example.com/', 'https://*.cdn.example', 'http://127.0.0.1:8080', 'wss://ws.example']), [
    'https://api.example.com',
    'https://*.cdn.example',
    'http://127.0.0.1:8080',
    'wss://ws.example',
  ]);
  // Keywords, plain http off loopback, injected directives and paths are dropped.
  assert.deepEqual(cspSources(["'unsafe-eval'", 'http://evil.example', 'https://a.example; script-src *', 'https://a.example/x', '*']), []);
  const { policy } = viewCsp({ connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example'] });
  assert.match(policy, /connect-src https:\/\/api\.example\.com/);
  assert.match(policy, /script-src 'unsafe-inline' https:\/\/cdn\.example/);
});

test('the policy comes before any markup of the view, after its doctype', () => {
  const out = withCsp('<!DOCTYPE html><script>fetch("x")</script><head></head>', "default-src 'none'");
  assert.ok(out.startsWith('<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src \'none\'">'));
  assert.ok(withCsp('<p>x</p>', 'a').startsWith('<meta http-equiv'));
  assert.match(withCsp('x', 'a"b<'), /content="a&quot;b&lt;"/);
});

test('U3: loopback sources are kept only for a server on loopback, and noted when dropped', () => {
  const csp = {
    connectDomains: [
      'http://127.0.0.1:8080',
      'https://api.example.com',
      'ws://localhost:9000',
      'https://dev.localhost',
      'https://2130706433',
      'https://*.0.1',
    ],
    resourceDomains: ['http://localhost:5173', 'https://0x7f.1'],
  };
  const remote = viewCsp(csp, false);
  assert.match(remote.policy, /connect-src https:\/\/api\.example\.com;/);
  assert.match(remote.policy, /script-src 'unsafe-inline';/);
  assert.deepEqual(remote.dropped.loopback.sort(), [
    'http://127.0.0.1:8080',
    'http://localhost:5173',
    'https://*.0.1',
    'https://0x7f.1',
    'https://2130706433',
    'https://dev.localhost',
    'ws://localhost:9000',
  ]);
  const local = viewCsp(csp, true);
  assert.match(local.policy, /connect-src http:\/\/127\.0\.0\.1:8080 https:\/\/api\.example\.com ws:\/\/localhost:9000/);
  assert.deepEqual(local.dropped.loopback, []);
  // The default is the strict one: a caller that does not know the server gets no loopback.
  assert.deepEqual(viewCsp({ connectDomains: ['http://127.0.0.1:1'] }).dropped.loopback, ['http://127.0.0.1:1']);
});

test('U2: declared frameDomains are never allowed (no nested documents), and are noted', () => {
  const { policy, dropped } = viewCsp({ frameDomains: ['https://embed.example', "'self'"] }, true);
  assert.match(policy, /frame-src 'none'/);
  assert.match(policy, /child-src 'none'/);
  assert.deepEqual(dropped.frames, ['https://embed.example']);
});
