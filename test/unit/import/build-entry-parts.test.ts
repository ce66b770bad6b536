import { test } from 'node:test';
import assert from 'node:assert/strict';
import { entryHeaders, entryUrl } from '../../../src/import/build-entry.js';
import { EMPTY_CONTEXT } from '../../../src/import/placeholders.js';

test('a literal URL is normalised by the URL rules; a refused one gives the reason', () => {
  const ok = entryUrl('https://Example.com/mcp', EMPTY_CONTEXT);
  assert.deepEqual(ok, { ok: true, url: 'https://example.com/mcp', placeholders: [] });
  const refused = entryUrl('ftp://example.com/', EMPTY_CONTEXT);
  assert.equal(refused.ok, false);
});

test('a URL with placeholders is kept as written and lists them as fields of the url', () => {
  const r = entryUrl('https://${HOST}/mcp', EMPTY_CONTEXT);
  assert.ok(r.ok);
  assert.equal(r.url, 'https://${HOST}/mcp');
  assert.deepEqual(
    r.placeholders.map((p) => [p.field, p.token]),
    [['url', '${HOST}']],
  );
});

test('an Authorization bearer header becomes the token; its placeholder and header placeholders are fields', () => {
  const r = entryHeaders(
    {
      headers: [
        ['Authorization', 'Bearer ${TOKEN}'],
        ['X-Team', '${TEAM}'],
      ],
    },
    EMPTY_CONTEXT,
  );
  assert.ok(r.ok);
  assert.equal(r.bearerToken, '${TOKEN}');
  assert.deepEqual(r.headers, [{ name: 'X-Team', value: '${TEAM}' }]);
  assert.deepEqual(
    r.placeholders.map((p) => [p.field, p.token, p.secret]),
    [
      ['bearerToken', '${TOKEN}', true],
      ['header:X-Team', '${TEAM}', true],
    ],
  );
});

test('what our export left out stands as secret fields: the bearer token and named header values', () => {
  const r = entryHeaders({ headers: [], authKind: 'bearer', headerNamesToFill: [' X-Api-Key '] }, EMPTY_CONTEXT);
  assert.ok(r.ok);
  assert.equal(r.bearerToken, '${bearer-token}');
  assert.deepEqual(r.headers, [{ name: 'X-Api-Key', value: '${header:X-Api-Key}' }]);
  assert.deepEqual(
    r.placeholders.map((p) => [p.field, p.token, p.label, p.secret]),
    [
      ['bearerToken', '${bearer-token}', 'Bearer token', true],
      ['header:X-Api-Key', '${header:X-Api-Key}', 'X-Api-Key header', true],
    ],
  );
});

test('a header the rules refuse gives the reason', () => {
  const r = entryHeaders({ headers: [['Bad Name', 'v']] }, EMPTY_CONTEXT);
  assert.equal(r.ok, false);
});
