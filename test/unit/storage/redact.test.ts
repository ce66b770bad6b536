import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REDACTED, isSecretName, redact } from '../../../src/storage/redact.js';

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

test('J2: secret-looking field names are redacted by their last word; names that only contain the letters are kept', () => {
  const secrets = {
    api_key: 'v1',
    apiKey: 'v2',
    'x-api-key': 'v3',
    'X-API-KEY': 'v4',
    APIKEY: 'v5',
    secret: 'v6',
    webhookSecret: 'v7',
    password: 'v8',
    db_passwd: 'v9',
    private_key: 'v10',
    client_assertion: 'v11',
    sessionToken: 'v12',
    credentials: { user: 'u', pass: 'v13' },
    'X-Auth-Token': 'v14',
    auth: 'v15',
    tokenValue: 'v16',
    passphrase: 'v17',
  };
  const kept = {
    monkey: 'banana',
    keyboard: 'qwerty',
    author: 'Ada',
    token_type: 'Bearer',
    max_tokens: 1000,
    primary_key: 'id',
    public_key: 'ssh-ed25519 AAAA',
    secret_name: 'prod-db',
    key: 'user:42',
    keys: ['a', 'b'],
    tokenizer: 'cl100k',
    authMethod: 'oauth',
  };
  const out = redact({ params: { name: 'save', arguments: { ...secrets, ...kept } } }) as {
    params: { arguments: Record<string, unknown> };
  };
  for (const name of Object.keys(secrets)) assert.equal(out.params.arguments[name], REDACTED, name);
  for (const [name, value] of Object.entries(kept)) assert.deepEqual(out.params.arguments[name], value, name);
  assert.equal(isSecretName('monkey'), false);
  assert.equal(isSecretName('Proxy-Authorization'), true);
});

test('J2: secrets are redacted by their shape anywhere in text, and name: value pairs in free text', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
  const samples = [
    jwt,
    'sk-proj-abcdefghijklmnopqrstuvwx1234',
    'sk-ant-api03-abcdefghijklmnopqrstuvwxyz',
    'sk_live_abcdefghijklmnop1234',
    'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz',
    'glpat-abcdefghijklmnopqrst',
    'xoxb-1234567890-abcdefghij',
    'hf_abcdefghijklmnopqrstuvwxyzABCDEFGH',
    'AKIAIOSFODNN7EXAMPLE',
    'AIzaSyA-abcdefghijklmnopqrstuvwxyz12345',
    '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----',
  ];
  for (const s of samples) {
    const out = redact({ content: [{ type: 'text', text: `Here it is: ${s} (keep safe)` }] });
    assert.ok(!JSON.stringify(out).includes(s.slice(0, 24)), s);
    assert.match(JSON.stringify(out), /Here it is: \[redacted\]/);
  }
  assert.equal(redact('login failed: password=hunter2 user=ada'), `login failed: password=${REDACTED} user=ada`);
  assert.equal(redact('Your api_key: abc123 was rotated'), `Your api_key: ${REDACTED} was rotated`);
  assert.equal(redact('the monkey: george'), 'the monkey: george');
  // Ordinary text and ids that are not secrets are kept.
  assert.equal(redact('task-1234 done, sku-12 shipped, ask-me-anything'), 'task-1234 done, sku-12 shipped, ask-me-anything');
});

test('J2: a tool call and its result carried as JSON text lose their secrets', () => {
  const request = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'deploy', arguments: { apiKey: 'K-1', region: 'eu' } } };
  const response = {
    jsonrpc: '2.0',
    id: 3,
    result: { content: [{ type: 'text', text: JSON.stringify({ client_secret: 'CS-2', url: 'https://x/?access_token=AT-3' }) }] },
  };
  const text = JSON.stringify([redact(request), redact(response)]);
  for (const s of ['K-1', 'CS-2', 'AT-3']) assert.ok(!text.includes(s), s);
  assert.match(text, /eu/);
});
