import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { activityRows, exportDocument, formatDuration, matchesSearch, payloadText, toRow } from '../../../src/components/activity-model.js';
import type { RequestLogEntryView } from '../../../src/protocol/request-log-view.js';

const entry = (extra: Partial<RequestLogEntryView>): RequestLogEntryView => ({
  serverId: 'demo',
  serverName: 'Demo',
  at: 1000,
  method: 'tools/call',
  durationMs: 12,
  status: 'ok',
  requestBytes: 10,
  responseBytes: 20,
  ...extra,
});

describe('activity log view model (SPEC J2)', () => {
  it('labels a row with the JSON-RPC method and its subject, and tells direction and kind', () => {
    assert.equal(toRow(entry({ subject: 'echo' }), 0).label, 'tools/call echo');
    assert.equal(toRow(entry({ method: 'resources/read', subject: 'file:///a.txt' }), 0).label, 'resources/read file:///a.txt');
    assert.equal(toRow(entry({ method: 'initialize' }), 0).label, 'initialize');
    const cancelled = toRow(entry({ method: 'notifications/cancelled', notification: true }), 0);
    assert.deepEqual([cancelled.direction, cancelled.notification], ['out', true]);
    const question = toRow(entry({ method: 'elicitation/create', direction: 'in' }), 0);
    assert.deepEqual([question.direction, question.notification], ['in', false]);
    assert.equal(toRow(entry({ method: 'oauth:token' }), 0).oauth, true);
    assert.equal(toRow(entry({}), 0).oauth, false);
  });

  it('shows entries stored under internal names by their protocol names', () => {
    assert.equal(toRow(entry({ method: 'call-tool' }), 0).label, 'tools/call');
    assert.equal(toRow(entry({ method: 'connect' }), 0).label, 'initialize');
  });

  it('an HTTP error status, an error status or an error message is a failure', () => {
    assert.equal(toRow(entry({ status: 503 }), 0).outcome, 'error');
    assert.equal(toRow(entry({ status: 'error' }), 0).outcome, 'error');
    assert.equal(toRow(entry({ status: 200, error: 'invalid_grant' }), 0).outcome, 'error');
    assert.equal(toRow(entry({ status: 200 }), 0).outcome, 'ok');
  });

  it('orders by start time, newest first, whatever order the entries were stored in', () => {
    const rows = activityRows([
      entry({ at: 10, subject: 'slow' }),
      entry({ at: 30, subject: 'late' }),
      entry({ at: 20, subject: 'mid' }),
      entry({ at: 30, subject: 'late-second' }),
    ]);
    assert.deepEqual(
      rows.map((r) => r.subject),
      ['late-second', 'late', 'mid', 'slow'],
    );
    assert.equal(new Set(rows.map((r) => r.key)).size, 4, 'keys are distinct');
  });

  it('searches every word in method, subject, server, status and error, case-insensitively', () => {
    const row = toRow(entry({ subject: 'echo', serverName: 'Atlassian Confluence', status: 503, error: 'Service unavailable' }), 0);
    assert.ok(matchesSearch(row, ''));
    assert.ok(matchesSearch(row, 'ECHO confluence'));
    assert.ok(matchesSearch(row, '503'));
    assert.ok(matchesSearch(row, 'unavailable'));
    assert.ok(!matchesSearch(row, 'echo prompts/get'));
    assert.ok(matchesSearch(toRow(entry({ method: 'oauth:discovery' }), 0), 'oauth'));
  });

  it('payloads read as indented JSON or as the text they are', () => {
    assert.equal(payloadText({ a: 1 }), '{\n  "a": 1\n}');
    assert.equal(payloadText('… [truncated, 99999 chars]'), '… [truncated, 99999 chars]');
    assert.equal(formatDuration(12.4), '12 ms');
    assert.equal(formatDuration(1450), '1.4 s');
  });

  it('the export names its format, the server filter and the shown entries, newest first', () => {
    const rows = activityRows([entry({ at: 1, method: 'connect' }), entry({ at: 2, subject: 'echo' })]);
    const doc = JSON.parse(exportDocument('demo', rows, 0)) as { format: string; serverId: string; entries: { method: string }[] };
    assert.equal(doc.format, 'remote-mcp-for-chrome/request-log');
    assert.equal(doc.serverId, 'demo');
    assert.deepEqual(
      doc.entries.map((e) => e.method),
      ['tools/call', 'initialize'],
    );
    assert.equal('serverId' in (JSON.parse(exportDocument(undefined, rows, 0)) as object), false);
  });
});
