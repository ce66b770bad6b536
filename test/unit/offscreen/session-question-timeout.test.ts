/**
 * A form question pauses its call's timeout while the user answers, and has its own, longer
 * limit that ends the call with "the question expired" — never "the server did not answer".
 * Against the real SDK session and the demo server's `confirm_booking` (which asks one question).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { McpSession } from '../../../src/offscreen/session.js';
import { QuestionExpiredError } from '../../../src/offscreen/call-timers.js';
import { describeSdkError } from '../../../src/offscreen/errors.js';
import { startDemoServer } from '../../support/demo-server.js';

const demo = await startDemoServer({ elicitation: true });
after(() => demo.close());

async function session(
  timeoutMs: number,
  onElicitation: ConstructorParameters<typeof McpSession>[0]['onElicitation'],
  questionLimitMs?: number,
) {
  const s = new McpSession({
    url: demo.url,
    headers: {},
    timeoutMs,
    onElicitation,
    ...(questionLimitMs ? { questionLimitMs } : {}),
    onListChanged: () => undefined,
    onClosed: () => undefined,
  });
  await s.connect();
  return s;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('the call timeout does not run while the user is answering a question', async () => {
  // Answering takes 1.5 s; the call's timeout is 1 s and would have fired without the pause.
  const s = await session(1000, async () => {
    await sleep(1500);
    return { action: 'accept', content: { guests: 2 } };
  });
  try {
    const result = await s.callTool('confirm_booking', { place: 'Porto' }, new AbortController().signal, () => undefined);
    assert.match(JSON.stringify(result.content), /booking accept/);
  } finally {
    await s.close();
  }
});

test('a question left open past its own limit ends the call as "the question expired"', async () => {
  let withdrawn = false;
  const s = await session(
    1000,
    (_params, signal) =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => ((withdrawn = true), reject(new Error('withdrawn'))))),
    1500,
  );
  try {
    const started = Date.now();
    const error = await s
      .callTool('confirm_booking', {}, new AbortController().signal, () => undefined)
      .then(
        () => assert.fail('the call should fail'),
        (e: unknown) => e,
      );
    assert.ok(error instanceof QuestionExpiredError, String(error));
    assert.ok(Date.now() - started >= 1400, 'after the question limit, not the 1 s call timeout');
    assert.equal(withdrawn, true, 'the open question was withdrawn (its card goes away)');
    const wire = describeSdkError(error, demo.url);
    assert.equal(wire.code, 'timeout');
    assert.match(wire.message, /question .* expired: it was not answered within 2 s/);
    assert.doesNotMatch(wire.message, /did not answer/);
  } finally {
    await s.close();
  }
});

test('without a question the call timeout still applies', async () => {
  const s = await session(1000, undefined);
  try {
    const error = await s
      .callTool('slow', { steps: 1, ms: 3000 }, new AbortController().signal, () => undefined)
      .then(
        () => assert.fail('the call should time out'),
        (e: unknown) => e,
      );
    assert.equal(describeSdkError(error, demo.url).code, 'timeout');
    assert.match(describeSdkError(error, demo.url).message, /did not answer in time/);
  } finally {
    await s.close();
  }
});
