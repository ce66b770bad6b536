import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RemoteError } from '../../../../src/protocol/result.js';
import { say } from '../../../../src/protocol/wording.js';
import {
  answerOf,
  answeredQuestionEntry,
  askedQuestion,
  byteSize,
  failed,
  listChangedEntry,
  succeeded,
} from '../../../../src/sw/offscreen-link/log-entries.js';

test('sizes are the UTF-8 bytes of the JSON; what cannot be measured is 0', () => {
  assert.equal(byteSize({ a: 'é' }), JSON.stringify({ a: 'é' }).length + 1);
  assert.equal(byteSize(undefined), 0);
  const cyclic: Record<string, unknown> = {};
  cyclic['self'] = cyclic;
  assert.equal(byteSize(cyclic), 0);
});

test('an answer is logged ok with its body and size', () => {
  const value = { latencyMs: 3 };
  assert.deepEqual(succeeded(value), { status: 'ok', responseBytes: byteSize(value), response: value });
});

test('a failure keeps its HTTP status, message and wording; without a status it is an error', () => {
  const said = say('reasonNoAnswerInTime', { origin: 'https://mcp.example' });
  assert.deepEqual(failed(new RemoteError({ code: 'http-status', message: 'Service unavailable', httpStatus: 503 })), {
    status: 503,
    responseBytes: 0,
    error: 'Service unavailable',
  });
  assert.deepEqual(failed(new RemoteError({ code: 'timeout', ...said })), {
    status: 'error',
    responseBytes: 0,
    error: said.message,
    errorWording: said.wording,
  });
  assert.deepEqual(failed('plain'), { status: 'error', responseBytes: 0, error: 'plain' });
});

test("a server's question and the user's answer make one incoming entry, timed from the question", () => {
  const question = askedQuestion(
    { type: 'offscreen:elicitation', connectionId: 'c1', elicitationId: 'q1', message: 'Which fish?', requestedSchema: {} },
    'demo',
    1000,
  );
  assert.deepEqual(question, { serverId: 'demo', at: 1000, params: { message: 'Which fish?', requestedSchema: {} } });
  const response = answerOf({ elicitationId: 'q1', action: 'accept', content: { fish: 'tuna' } });
  assert.deepEqual(response, { action: 'accept', content: { fish: 'tuna' } });
  assert.deepEqual(answerOf({ elicitationId: 'q1', action: 'decline' }), { action: 'decline' });
  assert.deepEqual(answeredQuestionEntry(question, response, 40), {
    at: 1000,
    method: 'elicitation/create',
    direction: 'in',
    durationMs: 40,
    status: 'ok',
    requestBytes: byteSize(question.params),
    responseBytes: byteSize(response),
    request: question.params,
    response,
  });
});

test('a list change is an incoming notification with nothing to measure', () => {
  assert.deepEqual(listChangedEntry('prompts', 5), {
    at: 5,
    method: 'notifications/prompts/list_changed',
    direction: 'in',
    notification: true,
    durationMs: 0,
    status: 'ok',
    requestBytes: 0,
    responseBytes: 0,
  });
});
