import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBearerChallenge, parseWwwAuthenticate } from '../../../../src/sw/auth/www-authenticate.js';

test('a Bearer challenge yields resource_metadata, scope, error and description', () => {
  const c = parseBearerChallenge(
    'Bearer error="invalid_token", error_description="The access token expired", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="files:read files:write"',
  );
  assert.deepEqual(c, {
    error: 'invalid_token',
    errorDescription: 'The access token expired',
    resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
    scope: 'files:read files:write',
  });
});

test('scheme and parameter names are case-insensitive', () => {
  const c = parseBearerChallenge('BEARER Resource_Metadata="https://x.example/prm", SCOPE=read');
  assert.deepEqual(c, { resourceMetadata: 'https://x.example/prm', scope: 'read' });
});

test('quoted strings keep commas and unescape backslashes', () => {
  const [c] = parseWwwAuthenticate('Bearer realm="a, \\"quoted\\" \\\\ b", scope="x"');
  assert.equal(c?.params['realm'], 'a, "quoted" \\ b');
  assert.equal(c?.params['scope'], 'x');
});

test('several challenges in one header are separated correctly', () => {
  const list = parseWwwAuthenticate('Basic realm="simple", Bearer scope="a b", error="insufficient_scope", Newauth realm="n", type=1');
  assert.deepEqual(
    list.map((c) => [c.scheme, c.params]),
    [
      ['basic', { realm: 'simple' }],
      ['bearer', { scope: 'a b', error: 'insufficient_scope' }],
      ['newauth', { realm: 'n', type: '1' }],
    ].map(([s, p]) => [s, Object.assign(Object.create(null) as Record<string, string>, p)]),
  );
});

test('the Bearer challenge is found after a non-Bearer one', () => {
  assert.deepEqual(parseBearerChallenge('Basic realm="x", Bearer scope="s"'), { scope: 's' });
});

test('token68 challenges (with = padding) are recognised and do not swallow the next challenge', () => {
  const list = parseWwwAuthenticate('Negotiate abc+/def==, Bearer scope="s"');
  assert.equal(list[0]?.scheme, 'negotiate');
  assert.equal(list[0]?.token68, 'abc+/def==');
  assert.equal(list[1]?.scheme, 'bearer');
  assert.equal(list[1]?.params['scope'], 's');
});

test('a bare scheme without parameters is a challenge with no params', () => {
  const list = parseWwwAuthenticate('Bearer, Basic');
  assert.deepEqual(
    list.map((c) => c.scheme),
    ['bearer', 'basic'],
  );
  assert.deepEqual(parseBearerChallenge('Bearer'), {});
});

test('whitespace around = and empty list elements are tolerated', () => {
  assert.deepEqual(parseBearerChallenge(' ,  Bearer  scope = "a" ,, error = insufficient_scope , '), {
    scope: 'a',
    error: 'insufficient_scope',
  });
});

test('a repeated parameter keeps its first value', () => {
  assert.deepEqual(parseBearerChallenge('Bearer scope="first", scope="second"'), { scope: 'first' });
});

test('an unterminated quoted string does not throw and drops only that parameter', () => {
  assert.deepEqual(parseBearerChallenge('Bearer error="invalid_token", scope="unterminated'), { error: 'invalid_token' });
});

test('garbage and empty input give no challenges', () => {
  assert.deepEqual(parseWwwAuthenticate(''), []);
  assert.deepEqual(parseWwwAuthenticate(null), []);
  assert.deepEqual(parseWwwAuthenticate('=,=,"x"'), []);
  assert.equal(parseBearerChallenge('Basic realm="x"'), undefined);
});

test('a header longer than the limit is ignored', () => {
  assert.equal(parseBearerChallenge(`Bearer scope="${'a'.repeat(20_000)}"`), undefined);
});

test('an empty quoted scope is kept as an empty string', () => {
  assert.deepEqual(parseBearerChallenge('Bearer scope=""'), { scope: '' });
});

test('the first of several Bearer challenges wins', () => {
  assert.deepEqual(parseBearerChallenge('Bearer scope="one", Bearer scope="two"'), { scope: 'one' });
});

test('a malformed parameter does not stop later parameters from being read', () => {
  assert.deepEqual(parseBearerChallenge('Bearer scope="a", bad param, error="insufficient_scope"'), {
    scope: 'a',
  });
  assert.deepEqual(parseBearerChallenge('Bearer scope=, error="x"'), { error: 'x' });
});
