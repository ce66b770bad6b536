import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyPlaceholders } from '../../../src/import/apply-placeholders.js';
import { parseImport } from '../../../src/import/parse-import.js';
import type { ImportEntry } from '../../../src/import/import-schema.js';
import { EXISTS } from '../../../src/import/reasons.js';
import { entry, fixture } from './helpers.js';

function only(text: string): ImportEntry {
  const preview = parseImport(text, []);
  assert.deepEqual(preview.errors, []);
  const [first] = preview.entries;
  assert.ok(first);
  return first;
}

describe('placeholder detection', () => {
  it('finds ${VAR}, ${VAR:-default}, ${env:VAR} and ${input:id} in url, headers and token', () => {
    const found = only(
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'key', description: 'API key', password: true }],
        servers: {
          s: {
            type: 'http',
            url: 'https://${HOST:-mcp.example.com}/v1/${TENANT}',
            headers: { Authorization: 'Bearer ${env:TOKEN}', 'X-Key': '${input:key}' },
          },
        },
      }),
    ).placeholders;
    assert.deepEqual(found, [
      { field: 'url', token: '${HOST:-mcp.example.com}', label: 'HOST', secret: false, defaultValue: 'mcp.example.com' },
      { field: 'url', token: '${TENANT}', label: 'TENANT', secret: false },
      { field: 'bearerToken', token: '${env:TOKEN}', label: 'TOKEN', secret: true },
      { field: 'header:X-Key', token: '${input:key}', label: 'API key', secret: true },
    ]);
  });

  it('an undeclared ${input:id} is labelled by its id', () => {
    const found = only('{"servers":{"s":{"type":"http","url":"https://${input:sub}.example.com/mcp"}}}').placeholders;
    assert.deepEqual(found, [{ field: 'url', token: '${input:sub}', label: 'sub', secret: false }]);
  });

  it('lists a placeholder repeated in one field once', () => {
    const found = only('{"url":"https://x.example.com/mcp","headers":{"X-A":"${K}-${K}"}}').placeholders;
    assert.equal(found.length, 1);
  });

  it('does not read bare $VAR as a placeholder outside Gemini settings', () => {
    const cursor = only('{"mcpServers":{"s":{"url":"https://x.example.com/mcp","headers":{"X-Price":"$5"}}}}');
    assert.deepEqual(cursor.placeholders, []);
  });

  it('a URL with an unfilled placeholder in the path of a plain-http host is still skipped', () => {
    const skipped = only('{"url":"http://example.com/${PATH}"}');
    assert.equal(skipped.status, 'skip');
    assert.match(skipped.reason ?? '', /^invalid URL: must use https/);
  });

  it('a URL whose whole base is a placeholder waits for the value to be judged', () => {
    const deferred = only('{"url":"${BASE_URL}/mcp"}');
    assert.equal(deferred.status, 'add');
    const applied = applyPlaceholders(deferred, { '${BASE_URL}': 'http://evil.example.com' });
    assert.equal(applied.ok, false);
  });
});

describe('applyPlaceholders', () => {
  const claude = parseImport(fixture('claude-code.json'), []);

  it('names every unfilled placeholder and uses defaults for the rest', () => {
    const result = applyPlaceholders(entry(claude, 'internal-api'), {});
    assert.equal(result.ok, false);
    assert.deepEqual(result.ok ? undefined : [result.error.message, result.error.wording?.code, result.missing], [
      'Fill in: API_KEY',
      'reasonImportFillIn',
      ['${API_KEY}'],
    ]);
  });

  it('replaces tokens everywhere and leaves no placeholder behind', () => {
    const result = applyPlaceholders(entry(claude, 'internal-api'), { '${API_KEY}': 'k-123' });
    assert.ok(result.ok);
    assert.equal(result.entry.url, 'https://api.example.com/mcp');
    assert.deepEqual(result.entry.headers, [{ name: 'X-API-Key', value: 'k-123' }]);
    assert.deepEqual(result.entry.placeholders, []);
  });

  it('an explicit value wins over the default and is validated as a URL', () => {
    const good = applyPlaceholders(entry(claude, 'internal-api'), {
      '${API_KEY}': 'k',
      '${API_BASE_URL:-https://api.example.com}': 'http://127.0.0.1:8080',
    });
    assert.ok(good.ok);
    assert.equal(good.entry.url, 'http://127.0.0.1:8080/mcp');
    const bad = applyPlaceholders(entry(claude, 'internal-api'), {
      '${API_KEY}': 'k',
      '${API_BASE_URL:-https://api.example.com}': 'http://10.0.0.1',
    });
    assert.equal(bad.ok, false);
  });

  it('fills a bearer token and refuses a value with a line break (header injection)', () => {
    const github = entry(claude, 'github');
    const filled = applyPlaceholders(github, { '${GITHUB_PAT}': 'ghp_abc' });
    assert.ok(filled.ok);
    assert.equal(filled.entry.bearerToken, 'ghp_abc');
    assert.equal(filled.entry.authKind, 'bearer');
    const injected = applyPlaceholders(github, { '${GITHUB_PAT}': 'x\r\nX-Evil: 1' });
    assert.equal(injected.ok, false);
  });

  it('a filled Authorization header that turns out to be Bearer becomes bearer auth', () => {
    const raw = only('{"url":"https://x.example.com/mcp","headers":{"Authorization":"${AUTH}"}}');
    assert.equal(raw.authKind, 'none');
    const filled = applyPlaceholders(raw, { '${AUTH}': 'Bearer t0k' });
    assert.ok(filled.ok);
    assert.equal(filled.entry.authKind, 'bearer');
    assert.equal(filled.entry.bearerToken, 't0k');
    assert.deepEqual(filled.entry.headers, []);
  });

  it('inserted values are not expanded again', () => {
    const raw = only('{"url":"https://x.example.com/mcp","headers":{"X-A":"${A}","X-B":"${B}"}}');
    const filled = applyPlaceholders(raw, { '${A}': '${B}', '${B}': 'b' });
    assert.ok(filled.ok);
    assert.deepEqual(filled.entry.headers, [
      { name: 'X-A', value: '${B}' },
      { name: 'X-B', value: 'b' },
    ]);
  });

  it('fills the fields our export leaves out', () => {
    const exported = parseImport(fixture('our-export.json'), []);
    const internal = applyPlaceholders(entry(exported, 'Internal'), { '${header:X-Api-Key}': 'secret' });
    assert.ok(internal.ok);
    assert.deepEqual(internal.entry.headers, [{ name: 'X-Api-Key', value: 'secret' }]);
  });

  it('checks a URL that only became known against saved servers', () => {
    const raw = only('{"name":"fresh","url":"https://${HOST}/mcp"}');
    const filled = applyPlaceholders(raw, { '${HOST}': 'Saved.example.com' }, [{ name: 'saved', url: 'https://saved.example.com/mcp/' }]);
    assert.ok(filled.ok);
    assert.equal(filled.entry.status, 'add', 'another name on a saved URL is another account (S3)');
    assert.equal(filled.entry.anotherAccountOf, 'saved');
    const twin = applyPlaceholders(raw, { '${HOST}': 'Saved.example.com' }, [{ name: 'Fresh', url: 'https://saved.example.com/mcp/' }]);
    assert.ok(twin.ok);
    assert.equal(twin.entry.status, 'conflict');
    assert.equal(twin.entry.reason, EXISTS.message);
  });

  it('refuses to fill a skipped entry', () => {
    const result = applyPlaceholders(entry(claude, 'filesystem'), {});
    assert.equal(result.ok, false);
  });
});
