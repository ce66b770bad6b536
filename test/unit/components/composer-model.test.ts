import { test } from 'node:test';
import assert from 'node:assert/strict';
import { messageObject, promptArgumentSchema, suggestionsFor, triggerAt } from '../../../src/components/composer-model.js';
import type { ServerView } from '../../../src/protocol/panel.js';

const view = (id: string, status: ServerView['status']): ServerView => ({
  id,
  name: id.toUpperCase(),
  url: 'http://127.0.0.1/mcp',
  authKind: 'none',
  enabled: true,
  connectOnStartup: true,
  status,
  tools: [],
  disabledTools: [],
  prompts: [{ name: 'greet', arguments: [{ name: 'name', required: true }, { name: 'tone' }] }],
  resources: [{ uri: `${id}://readme`, name: 'readme' }],
  resourceTemplates: [{ uriTemplate: `${id}://item/{id}`, name: 'item' }],
});

test('a trigger is a / or @ word ending at the caret, not inside a word or URL', () => {
  assert.deepEqual(triggerAt('hi /gr', 6), { kind: '/', query: 'gr', start: 3, end: 6 });
  assert.deepEqual(triggerAt('@', 1), { kind: '@', query: '', start: 0, end: 1 });
  assert.equal(triggerAt('a/b', 3), undefined);
  assert.equal(triggerAt('mail me@x', 9), undefined);
  assert.equal(triggerAt('/gr done', 8), undefined);
});

test('suggestions come from ready servers only, by server:prompt or by resource name or uri', () => {
  const servers = [view('a', 'ready'), view('b', 'error')];
  assert.deepEqual(
    suggestionsFor({ kind: '/', query: 'a:gr', start: 0, end: 0 }, servers).map((s) => [s.label, s.serverName]),
    [['greet', 'A']],
  );
  assert.deepEqual(
    suggestionsFor({ kind: '@', query: 'ITEM', start: 0, end: 0 }, servers).map((s) => s.kind),
    ['template'],
  );
  assert.deepEqual(
    suggestionsFor({ kind: '@', query: 'a://readme', start: 0, end: 0 }, servers).map((s) => s.kind),
    ['resource'],
  );
  assert.deepEqual(suggestionsFor({ kind: '/', query: 'b:', start: 0, end: 0 }, servers), []);
});

test('labels are titles (else names) with the server name; an entry a catalog lists twice is suggested once', () => {
  const a = view('a', 'ready');
  a.name = 'Alpha Docs';
  a.prompts = [
    { name: 'greet', title: 'Greeting' },
    { name: 'greet', title: 'Greeting' },
  ];
  a.resources = [
    { uri: 'a://readme', name: 'readme', title: 'Read me' },
    { uri: 'a://readme', name: 'readme', title: 'Read me' },
  ];
  const b = view('b', 'ready');
  b.prompts = [{ name: 'greet' }];
  const prompts = suggestionsFor({ kind: '/', query: '', start: 0, end: 0 }, [a, b]);
  assert.deepEqual(
    prompts.map((s) => [s.label, s.serverName]),
    [
      ['Greeting', 'Alpha Docs'],
      ['greet', 'B'],
    ],
  );
  // By the server's name and by the title, as the user reads them.
  assert.deepEqual(
    suggestionsFor({ kind: '/', query: 'alpha', start: 0, end: 0 }, [a, b]).map((s) => s.label),
    ['Greeting'],
  );
  assert.deepEqual(
    suggestionsFor({ kind: '@', query: 'docs read', start: 0, end: 0 }, [a, b]).map((s) => [s.kind, s.label, s.serverName]),
    [['resource', 'Read me', 'Alpha Docs']],
  );
});

test('prompt arguments become a string form with the required ones required', () => {
  assert.deepEqual(
    promptArgumentSchema([
      { name: 'name', required: true },
      { name: 'tone', description: 'd' },
    ]),
    {
      type: 'object',
      properties: { name: { type: 'string' }, tone: { type: 'string', description: 'd' } },
      required: ['name'],
    },
  );
});

test('the message object carries the text and each block as untrusted MCP context', () => {
  const m = messageObject('hi', [
    {
      kind: 'prompt',
      provenance: { serverId: 'a', serverName: 'A', prompt: 'greet' },
      untrusted: true,
      delimiter: 'mcp-untrusted-x',
      text: 't',
    },
  ]);
  assert.deepEqual(m, {
    role: 'user',
    content: [
      { type: 'text', text: 'hi' },
      {
        type: 'context',
        kind: 'prompt',
        untrusted: true,
        provenance: { source: 'mcp', serverId: 'a', serverName: 'A', prompt: 'greet' },
        delimiter: 'mcp-untrusted-x',
        text: 't',
      },
    ],
  });
});
