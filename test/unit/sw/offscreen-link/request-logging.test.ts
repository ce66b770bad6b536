import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RemoteError } from '../../../../src/protocol/result.js';
import type { RequestLogEntry } from '../../../../src/storage/request-log.js';
import { withRequestLogging } from '../../../../src/sw/offscreen-link/request-logging.js';

function harness(answer: (method: string) => unknown) {
  const log: { serverId: string; entry: RequestLogEntry }[] = [];
  let clock = 1000;
  const request = withRequestLogging(
    (async (method: string) => {
      clock += 25;
      const value = answer(method);
      if (value instanceof Error) throw value;
      return value;
    }) as never,
    async (serverId, entry) => void log.push({ serverId, entry }),
    () => clock,
  );
  return { request, log };
}

describe('request logging (SPEC J2)', () => {
  it('logs each request under the server its connection belongs to, with timing and sizes', async () => {
    const { request, log } = harness((m) => (m === 'offscreen:ping' ? { latencyMs: 3 } : { capabilities: {} }));
    await request('offscreen:connect', {
      serverId: 'demo',
      connectionId: 'c1',
      url: 'http://127.0.0.1/mcp',
      headers: { Authorization: 'Bearer s3cret-token' },
      timeoutMs: 5000,
      fingerprint: 'f'.repeat(64),
    });
    await request('offscreen:ping', { connectionId: 'c1' });
    assert.deepEqual(
      log.map((l) => [l.serverId, l.entry.method, l.entry.status, l.entry.durationMs]),
      [
        ['demo', 'initialize', 'ok', 25],
        ['demo', 'ping', 'ok', 25],
      ],
    );
    assert.equal(log[1]!.entry.responseBytes, JSON.stringify({ latencyMs: 3 }).length);
    assert.ok(log[1]!.entry.requestBytes > 0);
  });

  it('the worker handing the document its checks of a listing is not logged: it is no traffic with the server', async () => {
    const { request, log } = harness((m) => (m === 'offscreen:keep-checked' ? { kept: true } : { capabilities: {} }));
    const connect = { serverId: 'demo', connectionId: 'c1', url: 'http://127.0.0.1/mcp', headers: {}, timeoutMs: 5000 };
    await request('offscreen:connect', { ...connect, fingerprint: 'f'.repeat(64) });
    const checked = { listing: 1, items: [{ name: 'echo' }], warnings: [], hashes: ['a'.repeat(64)] };
    assert.deepEqual(await request('offscreen:keep-checked', { connectionId: 'c1', category: 'tools', checked }), { kept: true });
    assert.deepEqual(
      log.map((l) => l.entry.method),
      ['initialize'],
    );
  });

  it('R1: a connect to a 2026-07-28 server is logged as server/discover, with the revision in its response', async () => {
    const { request, log } = harness(() => ({ capabilities: {}, protocolVersion: '2026-07-28' }));
    const legacy = harness(() => ({ capabilities: {}, protocolVersion: '2025-11-25' }));
    const params = {
      serverId: 'demo',
      connectionId: 'c1',
      url: 'http://127.0.0.1/mcp',
      headers: {},
      timeoutMs: 5000,
      fingerprint: 'f'.repeat(64),
    };
    await request('offscreen:connect', params);
    await legacy.request('offscreen:connect', params);
    assert.equal(log[0]!.entry.method, 'server/discover');
    assert.equal((log[0]!.entry.response as { protocolVersion: string }).protocolVersion, '2026-07-28');
    assert.equal(legacy.log[0]!.entry.method, 'initialize');
  });

  it('never logs the credentials a connect or token update carries', async () => {
    const { request, log } = harness(() => ({ capabilities: {}, updated: true }));
    await request('offscreen:connect', {
      serverId: 'demo',
      connectionId: 'c1',
      url: 'http://127.0.0.1/mcp',
      headers: { Authorization: 'Bearer s3cret-token', 'X-Key': 'k3y' },
      timeoutMs: 5000,
      fingerprint: 'f'.repeat(64),
    });
    await request('offscreen:set-authorization', { connectionId: 'c1', authorization: 'Bearer n3w-token' });
    const text = JSON.stringify(log);
    for (const secret of ['s3cret-token', 'k3y', 'n3w-token']) assert.ok(!text.includes(secret), secret);
    assert.deepEqual((log[0]!.entry.request as { headerNames: string[] }).headerNames, ['Authorization', 'X-Key']);
  });

  it('logs failures with their HTTP status and message, and still throws them', async () => {
    const { request, log } = harness((m) =>
      m === 'offscreen:connect'
        ? { capabilities: {} }
        : new RemoteError({ code: 'http-status', message: 'Service unavailable', httpStatus: 503 }),
    );
    await request('offscreen:connect', {
      serverId: 'demo',
      connectionId: 'c1',
      url: 'u',
      headers: {},
      timeoutMs: 5000,
      fingerprint: 'f'.repeat(64),
    });
    await assert.rejects(request('offscreen:ping', { connectionId: 'c1' }), /Service unavailable/);
    assert.deepEqual([log[1]!.entry.status, log[1]!.entry.error, log[1]!.entry.responseBytes], [503, 'Service unavailable', 0]);
  });

  it('a failing log write never fails the request', async () => {
    const request = withRequestLogging((async () => ({ latencyMs: 1 })) as never, async () => {
      throw new Error('disk full');
    });
    await request('offscreen:connect', {
      serverId: 'demo',
      connectionId: 'c1',
      url: 'u',
      headers: {},
      timeoutMs: 5000,
      fingerprint: 'f'.repeat(64),
    });
    assert.deepEqual(await request('offscreen:ping', { connectionId: 'c1' }), { latencyMs: 1 });
  });

  const connect = {
    serverId: 'demo',
    connectionId: 'c1',
    url: 'https://mcp.example/mcp',
    headers: {},
    timeoutMs: 5000,
    fingerprint: 'f'.repeat(64),
  };

  it('names each entry by its JSON-RPC message and subject, with the JSON-RPC params as the payload', async () => {
    const { request, log } = harness((m) =>
      m === 'offscreen:call-tool'
        ? { content: [{ type: 'text', text: 'hi' }] }
        : m === 'offscreen:list-category'
          ? { category: 'tools', items: [] }
          : {},
    );
    await request('offscreen:connect', connect);
    await request('offscreen:list-category', { connectionId: 'c1', category: 'resourceTemplates' });
    await request('offscreen:call-tool', {
      connectionId: 'c1',
      operationId: 'op1',
      name: 'echo',
      arguments: { text: 'hi' },
      timeoutMs: 5000,
    });
    await request('offscreen:get-prompt', { connectionId: 'c1', name: 'greet', arguments: { who: 'you' } });
    await request('offscreen:read-resource', { connectionId: 'c1', uri: 'file:///notes.txt' });
    await request('offscreen:cancel', { connectionId: 'c1', operationId: 'op1' });
    await request('offscreen:close', { connectionId: 'c1' });
    assert.deepEqual(
      log.map((l) => [l.entry.method, l.entry.subject, l.entry.notification]),
      [
        ['initialize', 'https://mcp.example/mcp', undefined],
        ['resources/templates/list', undefined, undefined],
        ['tools/call', 'echo', undefined],
        ['prompts/get', 'greet', undefined],
        ['resources/read', 'file:///notes.txt', undefined],
        ['notifications/cancelled', undefined, true],
        ['session:close', undefined, undefined],
      ],
    );
    assert.deepEqual(log[2]!.entry.request, { name: 'echo', arguments: { text: 'hi' } });
    assert.deepEqual(log[2]!.entry.response, { content: [{ type: 'text', text: 'hi' }] });
    assert.deepEqual(log[5]!.entry.request, { requestId: 'op1' });
  });

  it("logs a server's question with the user's answer, and list changes, as coming from the server", async () => {
    const { request, log } = harness(() => ({ delivered: true }));
    await request('offscreen:connect', connect);
    request.observe({
      type: 'offscreen:elicitation',
      connectionId: 'c1',
      elicitationId: 'q1',
      message: 'Which fish?',
      requestedSchema: {},
    });
    request.observe({ type: 'offscreen:list-changed', connectionId: 'c1', category: 'tools' });
    request.observe({ type: 'offscreen:list-changed', connectionId: 'unknown', category: 'tools' });
    await request('offscreen:answer-elicitation', { elicitationId: 'q1', action: 'accept', content: { fish: 'tuna' } });
    assert.deepEqual(
      log.slice(1).map((l) => [l.entry.method, l.entry.direction, l.entry.notification]),
      [
        ['notifications/tools/list_changed', 'in', true],
        ['elicitation/create', 'in', undefined],
      ],
    );
    const question = log[2]!.entry;
    assert.deepEqual(question.request, { message: 'Which fish?', requestedSchema: {} });
    assert.deepEqual(question.response, { action: 'accept', content: { fish: 'tuna' } });
    assert.equal(question.durationMs, 25, 'from the question to the answer');
  });

  it('logs the calls, questions and list changes of a session a new worker adopted from the claim reply (C7), like a new one', async () => {
    const held = { fingerprint: 'f'.repeat(64), catalogGeneration: 1, catalog: {}, stale: [] };
    const { request, log } = harness((m) =>
      m === 'offscreen:claim'
        ? { sessions: [{ ...held, serverId: 'demo', connectionId: 'adopted1' }], lost: [] }
        : m === 'offscreen:call-tool'
          ? { content: [{ type: 'text', text: 'sum=5' }] }
          : { delivered: true },
    );
    await request('offscreen:claim', {});
    assert.equal(log.length, 0, 'the claim itself is no server request');
    await request('offscreen:call-tool', {
      connectionId: 'adopted1',
      operationId: 'op1',
      name: 'add',
      arguments: { a: 2, b: 3 },
      timeoutMs: 60_000,
    });
    request.observe({ type: 'offscreen:list-changed', connectionId: 'adopted1', category: 'tools' });
    request.observe({
      type: 'offscreen:elicitation',
      connectionId: 'adopted1',
      elicitationId: 'q1',
      message: 'Sure?',
      requestedSchema: {},
    });
    await request('offscreen:answer-elicitation', { elicitationId: 'q1', action: 'accept', content: {} });
    assert.deepEqual(
      log.map((l) => [l.serverId, l.entry.method, l.entry.subject]),
      [
        ['demo', 'tools/call', 'add'],
        ['demo', 'notifications/tools/list_changed', undefined],
        ['demo', 'elicitation/create', undefined],
      ],
    );
  });
});
