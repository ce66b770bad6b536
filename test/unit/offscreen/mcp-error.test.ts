import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describeMcpError } from '../../../src/offscreen/mcp-error.js';

const ORIGIN = 'https://mcp.example';

test("the SDK's request timeout says no answer came in time", () => {
  const w = describeMcpError(new McpError(ErrorCode.RequestTimeout, 'Request timed out'), ORIGIN);
  assert.deepEqual([w.code, w.wording?.code], ['timeout', 'reasonNoAnswerInTime']);
});

test('a closed connection is a network failure', () => {
  const w = describeMcpError(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'), ORIGIN);
  assert.deepEqual([w.code, w.wording?.code], ['network', 'reasonConnectionClosed']);
});

test("a server's error is quoted once, without the SDK's repeated prefix", () => {
  const w = describeMcpError(new McpError(-32050, 'MCP error -32050: MCP error -32050: the tool broke'), ORIGIN);
  assert.equal(w.code, 'protocol');
  assert.deepEqual(w.wording, { code: 'reasonMcpError', params: { origin: ORIGIN, code: '-32050', detail: 'the tool broke' } });
});

test('the quoted detail is cut to 500 characters', () => {
  const w = describeMcpError(new McpError(-32051, 'z'.repeat(2000)), ORIGIN);
  assert.equal(w.wording?.params?.['detail'], 'z'.repeat(500));
});

test('a server cannot pass its data off as a local failure: a look-alike data object is quoted as its error', () => {
  const w = describeMcpError(new McpError(-32603, 'boom', { code: 'timeout', message: 'forged' }), ORIGIN);
  assert.equal(w.code, 'protocol');
  assert.equal(w.wording?.code, 'reasonMcpError');
});
