import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseImport } from '../../../src/import/parse-import.js';

function errorOf(text: string): string {
  const preview = parseImport(text, []);
  assert.equal(preview.entries.length, 0);
  assert.equal(preview.errors.length, 1);
  return preview.errors[0] ?? '';
}

function reasonOf(server: unknown): string {
  const preview = parseImport(JSON.stringify({ mcpServers: { s: server } }), []);
  const [first] = preview.entries;
  assert.equal(first?.status, 'skip');
  return first?.reason ?? '';
}

describe('bad input ends in a clear error, never a throw', () => {
  it('text that is not JSON, with the position but not the text', () => {
    const error = errorOf('{"mcpServers": {"a": {"url": "https://x"}\n  oops secret-ish }');
    assert.match(error, /not valid JSON \(near line 2, column \d+\)/);
    assert.doesNotMatch(error, /secret-ish/);
  });

  it('empty text and non-string input', () => {
    assert.match(errorOf('   '), /empty/);
    assert.match(errorOf(undefined as unknown as string), /not text/);
  });

  it('JSON without a recognised shape', () => {
    assert.match(errorOf('{"hello":"world"}'), /No MCP server configuration found/);
    assert.match(errorOf('42'), /No MCP server configuration found/);
    assert.match(errorOf('null'), /No MCP server configuration found/);
  });

  it('an empty server map', () => {
    assert.match(errorOf('{"mcpServers":{}}'), /no servers/);
  });

  it('input over 1 MiB', () => {
    const big = `{"url":"https://x.example.com/mcp","pad":"${'a'.repeat(1024 * 1024)}"}`;
    assert.match(errorOf(big), /larger than 1024 KiB/);
    const multibyte = `{"url":"https://x.example.com/mcp","pad":"${'é'.repeat(600 * 1024)}"}`;
    assert.match(errorOf(multibyte), /larger than/);
  });

  it('more than 200 entries', () => {
    const servers = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`s${i}`, { url: `https://s${i}.example.com/mcp` }]));
    assert.match(errorOf(JSON.stringify({ mcpServers: servers })), /201 servers; at most 200/);
    const list = Array.from({ length: 201 }, (_, i) => ({ url: `https://s${i}.example.com/mcp` }));
    assert.match(errorOf(JSON.stringify(list)), /at most 200/);
  });

  it('200 entries are fine', () => {
    const servers = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`s${i}`, { url: `https://s${i}.example.com/mcp` }]));
    const preview = parseImport(JSON.stringify({ mcpServers: servers }), []);
    assert.equal(preview.entries.filter((e) => e.status === 'add').length, 200);
  });

  it('deep nesting is refused before parsing', () => {
    assert.match(errorOf(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), /nested more than 32 levels/);
    assert.match(errorOf(`{"mcpServers":{"a":${'{"x":'.repeat(40)}1${'}'.repeat(40)}}}`), /nested/);
  });

  it('a fragment without outer braces is accepted', () => {
    const preview = parseImport('"mcpServers": {"a": {"url": "https://a.example.com/mcp"}}', []);
    assert.deepEqual(
      preview.entries.map((e) => e.status),
      ['add'],
    );
  });

  it('a __proto__ server name is just a name', () => {
    const preview = parseImport('{"mcpServers":{"__proto__":{"url":"https://p.example.com/mcp"}}}', []);
    assert.deepEqual(
      preview.entries.map((e) => [e.name, e.status]),
      [['__proto__', 'add']],
    );
    assert.equal(({} as Record<string, unknown>).url, undefined);
  });

  it('malformed existing servers are ignored rather than crashing', () => {
    const preview = parseImport('{"url":"https://a.example.com/mcp"}', [null, { name: 1 }] as unknown as { name: string; url: string }[]);
    assert.equal(preview.entries[0]?.status, 'add');
  });
});

describe('entries that break the rules are skipped with the reason', () => {
  it('URL rules', () => {
    assert.match(reasonOf({ url: 'http://example.com/mcp' }), /must use https/);
    assert.match(reasonOf({ url: 'javascript:alert(1)' }), /scheme javascript: is not allowed/);
    assert.match(reasonOf({ url: 'not a url' }), /not an absolute URL/);
    assert.match(reasonOf({ url: `https://x.example.com/${'a'.repeat(2100)}` }), /longer than 2048/);
    assert.match(reasonOf({ url: 'https://user:pw@x.example.com/mcp' }), /credentials/);
    assert.match(reasonOf({ url: 42 }), /invalid URL: not text/);
    assert.match(reasonOf({ headers: {} }), /invalid URL: missing/);
    for (const url of ['http://127.0.0.1:9000/mcp', 'http://localhost/mcp', 'http://[::1]:8080/mcp', 'HTTPS://X.EXAMPLE.COM/mcp']) {
      const preview = parseImport(JSON.stringify({ url }), []);
      assert.equal(preview.entries[0]?.status, 'add', url);
    }
  });

  it('header rules', () => {
    assert.match(reasonOf({ url: 'https://x.example.com', headers: { 'Bad Name': 'v' } }), /not a valid HTTP header name/);
    assert.match(reasonOf({ url: 'https://x.example.com', headers: { 'X-A': 'a\r\nX-B: b' } }), /line break/);
    assert.match(reasonOf({ url: 'https://x.example.com', headers: { 'X-A': 'v'.repeat(8193) } }), /longer than 8 KiB/);
    assert.match(reasonOf({ url: 'https://x.example.com', headers: { 'X-A': { nested: true } } }), /must be text/);
    assert.match(reasonOf({ url: 'https://x.example.com', headers: { Cookie: 'a=b' } }), /cannot be configured/);
    assert.match(reasonOf({ url: 'https://x.example.com', headers: { 'Mcp-Session-Id': 'x' } }), /cannot be configured/);
    assert.match(reasonOf({ url: 'https://x.example.com', headers: { 'x-a': '1', 'X-A': '2' } }), /more than once/);
    assert.match(reasonOf({ url: 'https://x.example.com', headers: ['X-A: 1'] }), /invalid headers/);
    assert.match(reasonOf({ url: 'https://x.example.com', headers: { Authorization: 'Bearer ' } }), /Bearer without a token/);
  });

  it('non-bearer Authorization stays a plain header', () => {
    const preview = parseImport('{"url":"https://x.example.com","headers":{"authorization":"Basic dXNlcjpwdw=="}}', []);
    assert.deepEqual(preview.entries[0]?.headers, [{ name: 'authorization', value: 'Basic dXNlcjpwdw==' }]);
    assert.equal(preview.entries[0]?.authKind, 'none');
  });

  it('tool lists and transports', () => {
    assert.match(reasonOf({ url: 'https://x.example.com', disabledTools: 'all' }), /invalid disabledTools/);
    assert.match(reasonOf({ url: 'https://x.example.com', type: 'websocket' }), /unknown transport type "websocket"/);
    assert.match(reasonOf('https://x.example.com'), /not a server entry/);
  });

  it('a non-number timeout is ignored with a note', () => {
    const preview = parseImport('{"mcpServers":{"s":{"httpUrl":"https://x.example.com","timeout":"soon"}}}', []);
    assert.equal(preview.entries[0]?.timeoutMs, undefined);
    assert.match(preview.entries[0]?.notes?.[0] ?? '', /timeout ignored/);
  });

  it('mcp-remote with a malformed --header', () => {
    assert.match(reasonOf({ command: 'npx', args: ['mcp-remote', 'https://x.example.com', '--header', 'no-colon'] }), /invalid --header/);
  });
});
