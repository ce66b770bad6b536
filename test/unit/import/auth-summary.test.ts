import { test } from 'node:test';
import assert from 'node:assert/strict';
import { authSummary } from '../../../src/import/auth-summary.js';
import { parseImport } from '../../../src/import/parse-import.js';

const summaries = (paste: unknown) => parseImport(JSON.stringify(paste), []).entries.map((entry) => authSummary(entry));

test('each kind of pasted authorization gets its summary, with header names but never values', () => {
  const [fromVar, inPaste, oauth, headers, none, local] = summaries({
    mcpServers: {
      gh: { url: 'https://gh.example.com/mcp', headers: { Authorization: 'Bearer ${GITHUB_TOKEN}', 'X-Org': 'acme' } },
      lit: { url: 'https://lit.example.com/mcp', headers: { Authorization: 'Bearer abc' } },
      linear: { url: 'https://linear.example.com/mcp', oauth: { clientId: 'c1' } },
      key: { url: 'https://key.example.com/mcp', headers: { 'X-Api-Key': '${KEY}' } },
      open: { url: 'https://open.example.com/mcp' },
      local: { command: 'npx' },
    },
  });
  assert.deepEqual(fromVar, { summary: { kind: 'bearer-from', from: ['${GITHUB_TOKEN}'] }, headerNames: ['X-Org'] });
  assert.deepEqual(inPaste, { summary: { kind: 'bearer-in-paste' }, headerNames: [] });
  assert.deepEqual(oauth, { summary: { kind: 'oauth' }, headerNames: [] });
  assert.deepEqual(headers, { summary: { kind: 'headers' }, headerNames: ['X-Api-Key'] });
  assert.deepEqual(none, { summary: { kind: 'none' }, headerNames: [] });
  assert.equal(local, undefined);
});

test("a bearer token our export left out is one to fill in, not one 'from' a variable", () => {
  const [exported] = summaries({
    format: 'remote-mcp-for-chrome',
    version: 1,
    servers: [
      { name: 'B', url: 'https://b.example.com/mcp', auth: { kind: 'bearer' }, enabled: true, disabledTools: [], connectOnStartup: true },
    ],
  });
  assert.deepEqual(exported, { summary: { kind: 'bearer-to-fill' }, headerNames: [] });
});
