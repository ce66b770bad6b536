import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describeHttpError } from '../../../src/offscreen/http-error.js';

const ORIGIN = 'https://mcp.example';

test('a 401 or 403 is a refused token, with its status kept for the AuthManager', () => {
  for (const status of [401, 403]) {
    const w = describeHttpError(new StreamableHTTPError(status, 'Unauthorized'), ORIGIN);
    assert.equal(w.code, 'auth');
    assert.equal(w.httpStatus, status);
    assert.deepEqual(w.wording, { code: 'reasonTokenRefused', params: { origin: ORIGIN, status: String(status) } });
  }
});

test('an answer that is not MCP names its content type and offers to edit the address', () => {
  const w = describeHttpError(new StreamableHTTPError(-1, 'Unexpected content type: text/html'), ORIGIN);
  assert.equal(w.code, 'protocol');
  assert.equal(w.action, 'edit');
  assert.equal(w.httpStatus, undefined);
  assert.deepEqual(w.wording, { code: 'reasonNotMcpContentType', params: { origin: ORIGIN, type: 'text/html' } });
});

test('a content type is cut to 100 characters, and a missing one says unknown', () => {
  const long = describeHttpError(new StreamableHTTPError(-1, `Unexpected content type: ${'x'.repeat(300)}`), ORIGIN);
  assert.equal(long.wording?.params?.['type'], 'x'.repeat(100));
  const none = describeHttpError(new StreamableHTTPError(-1, 'Something else'), ORIGIN);
  assert.equal(none.wording?.params?.['type'], 'unknown');
});

test('a 404 says the address was not found', () => {
  const w = describeHttpError(new StreamableHTTPError(404, 'Not Found'), ORIGIN);
  assert.deepEqual([w.code, w.httpStatus, w.wording?.code], ['http-status', 404, 'reasonNotFound']);
});

test('any other status is quoted with its detail, cut to 300 characters', () => {
  const w = describeHttpError(new StreamableHTTPError(503, 'y'.repeat(1000)), ORIGIN);
  assert.deepEqual([w.code, w.httpStatus, w.wording?.code], ['http-status', 503, 'reasonHttpStatus']);
  assert.equal(w.wording?.params?.['status'], '503');
  assert.ok((w.wording?.params?.['detail'] ?? '').length <= 300);
  assert.ok(w.message.includes(ORIGIN));
});
