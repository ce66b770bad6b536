import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonRpcName, loggable } from '../../../../src/sw/offscreen-link/request-log-names.js';

test('each request is named by the MCP message it stands for, with its subject', () => {
  assert.deepEqual(jsonRpcName('offscreen:connect', { url: 'https://mcp.example/mcp' }), {
    method: 'initialize',
    subject: 'https://mcp.example/mcp',
  });
  assert.deepEqual(jsonRpcName('offscreen:call-tool', { name: 'echo' }), { method: 'tools/call', subject: 'echo' });
  assert.deepEqual(jsonRpcName('offscreen:read-resource', { uri: 'file:///a' }), { method: 'resources/read', subject: 'file:///a' });
  assert.deepEqual(jsonRpcName('offscreen:list-category', { category: 'resourceTemplates' }), { method: 'resources/templates/list' });
  assert.deepEqual(jsonRpcName('offscreen:cancel', {}), { method: 'notifications/cancelled', notification: true });
  assert.deepEqual(jsonRpcName('offscreen:ping', {}), { method: 'ping' });
});

test('a subject that is not text is left out, and requests without a message of their own are session steps', () => {
  assert.deepEqual(jsonRpcName('offscreen:get-prompt', { name: 42 }), { method: 'prompts/get' });
  assert.deepEqual(jsonRpcName('offscreen:list-category', { category: 'other' }), { method: 'list' });
  assert.deepEqual(jsonRpcName('offscreen:close', {}), { method: 'session:close' });
  assert.deepEqual(jsonRpcName('offscreen:set-authorization', {}), { method: 'session:set-authorization' });
});

test('what is shown carries no credential: header names only, no authorization value', () => {
  const connect = loggable('offscreen:connect', {
    url: 'u',
    timeoutMs: 5,
    headers: { Authorization: 'Bearer s3cret', 'X-Key': 'k3y' },
    serverId: 'demo',
  });
  assert.deepEqual(connect, { url: 'u', timeoutMs: 5, headerNames: ['Authorization', 'X-Key'] });
  assert.deepEqual(loggable('offscreen:set-authorization', { connectionId: 'c1', authorization: 'Bearer n3w' }), { connectionId: 'c1' });
});

test('what is shown is the JSON-RPC params of the message', () => {
  assert.deepEqual(loggable('offscreen:call-tool', { connectionId: 'c1', operationId: 'op', name: 'echo', arguments: { a: 1 } }), {
    name: 'echo',
    arguments: { a: 1 },
  });
  assert.deepEqual(loggable('offscreen:read-resource', { connectionId: 'c1', uri: 'file:///a' }), { uri: 'file:///a' });
  assert.deepEqual(loggable('offscreen:list-category', { connectionId: 'c1', category: 'tools' }), {});
  assert.deepEqual(loggable('offscreen:cancel', { connectionId: 'c1', operationId: 'op1' }), { requestId: 'op1' });
  assert.deepEqual(loggable('offscreen:ping', { connectionId: 'c1' }), { connectionId: 'c1' });
});
