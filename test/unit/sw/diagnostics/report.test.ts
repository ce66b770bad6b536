import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnosticsReport, scrubText, urlForReport, type DiagnosticsInput } from '../../../../src/sw/diagnostics/report.js';
import { readWorkerStarts, recordWorkerStart } from '../../../../src/sw/diagnostics/worker-starts.js';
import { MemoryArea } from '../../../support/memory-area.js';

test('V3: a URL keeps its origin and path only', () => {
  assert.equal(urlForReport('https://user:pw@mcp.example.com:8443/v1/mcp?api_key=s3cret#frag'), 'https://mcp.example.com:8443/v1/mcp');
  assert.equal(urlForReport('not a url'), '(not a URL)');
  assert.equal(urlForReport('javascript:alert(1)'), 'javascript:…');
});

test('V3: text loses query strings and token shapes, and is one bounded line', () => {
  const text = scrubText(
    'GET https://as.example/token?code=abc123&state=xyz failed\nAuthorization: Bearer eyJhbGciOi.eyJzdWIiOiJ4.sig with sk-proj-ABCDEFGHIJKLMNOP and eyJhbGciOiJSUzI1.eyJzdWIiOiIxMjM0.c2ln',
  );
  assert.equal(text.includes('abc123'), false);
  assert.equal(text.includes('ABCDEFGHIJKLMNOP'), false);
  assert.equal(text.includes('eyJzdWIiOiIxMjM0'), false);
  assert.match(text, /^GET https:\/\/as\.example\/token failed Authorization: Bearer \[redacted\]/);
  assert.ok(scrubText('x'.repeat(1000)).length <= 301);
});

function input(over: Partial<DiagnosticsInput> = {}): DiagnosticsInput {
  return {
    version: '0.1.0',
    userAgent: 'Mozilla/5.0 Chrome/143.0.0.0',
    locale: 'en',
    now: Date.UTC(2026, 11, 1),
    workerStartedAt: Date.UTC(2026, 11, 1),
    starts: { count: 3, recent: [{ at: Date.UTC(2026, 11, 1), held: 2 }] },
    offscreen: { open: true, heap: { usedBytes: 3 * 1048576, totalBytes: 8 * 1048576 } },
    servers: [
      {
        id: 'work',
        name: 'Work wiki',
        url: 'https://wiki.example/mcp?token=QUERYTOKEN',
        authKind: 'oauth',
        enabled: true,
        status: 'needs-auth',
        reason: { kind: 'auth', message: 'https://as.example/authorize?client_id=abc refused', httpStatus: 401, wording: undefined },
        tools: [],
        prompts: [],
        resources: [],
        resourceTemplates: [],
        disabledTools: [],
      },
    ],
    errors: [
      { serverName: 'Work wiki', at: Date.UTC(2026, 11, 1), method: 'tools/call', subject: 'search', status: 500, error: 'boom' },
      { serverName: 'Work wiki', at: Date.UTC(2026, 11, 1), method: 'tools/list', status: 'ok' },
    ],
    configErrors: 1,
    ...over,
  };
}

test('V3: the report names versions, servers, errors, starts and heap without secrets', () => {
  const text = diagnosticsReport(input());
  assert.match(text, /Extension 0\.1\.0 · Mozilla\/5\.0 Chrome\/143\.0\.0\.0 · UI en/);
  assert.match(text, /- Work wiki \[work\] — needs-auth · auth oauth · https:\/\/wiki\.example\/mcp\n/);
  assert.match(text, /reason \[auth HTTP 401\]: https:\/\/as\.example\/authorize refused/);
  assert.match(text, /3 start\(s\) in this browser session/);
  assert.match(text, /2 live session\(s\) offered for adoption/);
  assert.match(text, /JS heap 3\.0 MiB used of 8\.0 MiB/);
  assert.match(text, /Recent errors \(1\):\n- 2026-12-01T00:00:00\.000Z Work wiki: tools\/call search → HTTP 500: boom/);
  assert.match(text, /1 stored entry could not be read/);
  for (const secret of ['QUERYTOKEN', 'client_id', 'abc refused?']) assert.equal(text.includes(secret), false, secret);
});

test('V3: a switched-off server and a closed document are said as such', () => {
  const [server] = input().servers;
  const text = diagnosticsReport(
    input({ servers: [{ ...server!, enabled: false, reason: undefined }], offscreen: { open: false }, errors: [] }),
  );
  assert.match(text, /— switched off ·/);
  assert.match(text, /Offscreen document: not open/);
  assert.match(text, /Recent errors \(0\):\n- none/);
});

test('V3: worker starts are counted and the recent ones kept, bounded', async () => {
  const area = new MemoryArea();
  assert.deepEqual(await readWorkerStarts(area), { count: 0, recent: [] });
  for (let i = 0; i < 25; i++) await recordWorkerStart(area, { at: i, held: i % 2 });
  const starts = await readWorkerStarts(area);
  assert.equal(starts.count, 25);
  assert.equal(starts.recent.length, 20);
  assert.deepEqual(starts.recent.at(-1), { at: 24, held: 0 });
});
