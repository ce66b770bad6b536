import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REDACTED, redact } from '../../../src/storage/redact.js';

test('secret fields are redacted at any depth, case-insensitively', () => {
  const out = redact({
    jsonrpc: '2.0',
    params: { arguments: { Password: 'hunter2', nested: [{ ACCESS_TOKEN: 'at', id_token: 'it' }] } },
    result: { refresh_token: 'rt', client_secret: 'cs', code_verifier: 'cv', token: 't', keep: 'visible' },
  });
  const text = JSON.stringify(out);
  for (const secret of ['hunter2', '"at"', '"it"', '"rt"', '"cs"', '"cv"', '"t"']) assert.ok(!text.includes(secret), secret);
  assert.match(text, /visible/);
  assert.equal((out as { result: { token: string } }).result.token, REDACTED);
});

test('authorization and cookie headers are redacted in objects and name/value pairs', () => {
  const out = redact({
    headers: { Authorization: 'Bearer abc', Cookie: 'sid=1', 'Set-Cookie': 'sid=2', 'Content-Type': 'application/json' },
    list: [
      { name: 'authorization', value: 'Bearer xyz' },
      { name: 'Accept', value: 'text/plain' },
    ],
  });
  assert.deepEqual(out, {
    headers: { Authorization: REDACTED, Cookie: REDACTED, 'Set-Cookie': REDACTED, 'Content-Type': 'application/json' },
    list: [
      { name: 'authorization', value: REDACTED },
      { name: 'Accept', value: 'text/plain' },
    ],
  });
});

test('query strings, fragments and form bodies lose their secret values only', () => {
  const url = 'https://app.chromiumapp.org/mcp-oauth?code=AUTHCODE&state=xyz&Access_Token=AT#id_token=IT';
  assert.equal(
    redact(url),
    `https://app.chromiumapp.org/mcp-oauth?code=${REDACTED}&state=xyz&Access_Token=${REDACTED}#id_token=${REDACTED}`,
  );
  assert.equal(
    redact('grant_type=refresh_token&refresh_token=RT&client_secret=CS&resource=https%3A%2F%2Fr'),
    `grant_type=refresh_token&refresh_token=${REDACTED}&client_secret=${REDACTED}&resource=https%3A%2F%2Fr`,
  );
  assert.deepEqual(redact({ url: 'https://x/cb?token=T1' }), { url: `https://x/cb?token=${REDACTED}` });
});

test('JSON carried as a string and bearer credentials in text are redacted', () => {
  const out = redact('{"access_token":"AT","token_type":"Bearer","expires_in":3600}') as string;
  assert.deepEqual(JSON.parse(out), { access_token: REDACTED, token_type: 'Bearer', expires_in: 3600 });
  assert.equal(redact('401 for Authorization: Bearer eyJhbGciOi.x.y'), `401 for Authorization: Bearer ${REDACTED}`);
  assert.equal(redact('Bearer realm="mcp", error="invalid_token"'), 'Bearer realm="mcp", error="invalid_token"');
});

test('a numeric JSON-RPC error code is kept; a string code is not', () => {
  assert.deepEqual(redact({ error: { code: -32601, message: 'Method not found' } }), {
    error: { code: -32601, message: 'Method not found' },
  });
  assert.deepEqual(redact({ code: 'abc' }), { code: REDACTED });
});

test('redaction does not mutate its input', () => {
  const input = { password: 'p', deep: { token: 't' } };
  redact(input);
  assert.deepEqual(input, { password: 'p', deep: { token: 't' } });
});
