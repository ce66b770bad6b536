import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LiveSessions } from '../../../../src/sw/offscreen-link/live-sessions.js';

/** Sessions whose set-authorization answers from `answers` (default: taken); records what it was sent. */
function harness(answers: Record<string, boolean | Error> = {}) {
  const sent: [string, string][] = [];
  const sessions = new LiveSessions(async (connectionId, token) => {
    sent.push([connectionId, token]);
    const answer = answers[connectionId] ?? true;
    if (answer instanceof Error) throw answer;
    return answer;
  });
  return { sessions, sent };
}

test('a new token goes to every session of the server still sending another one', async () => {
  const { sessions, sent } = harness();
  sessions.opened('c1', 'srv', 'OLD');
  sessions.opened('c2', 'srv', 'NEW');
  sessions.opened('c3', 'other', 'OLD');
  assert.equal(await sessions.handToAll('srv', 'NEW'), 1);
  assert.deepEqual(sent, [['c1', 'NEW']]);
  assert.equal(sessions.of('c1')?.token, 'NEW');
  assert.equal(sessions.of('c3')?.token, 'OLD');
});

test('a session that is gone stops being tracked; one that failed to answer stays', async () => {
  const { sessions } = harness({ gone: false, flaky: new Error('port dropped') });
  sessions.opened('gone', 'srv', 'OLD');
  sessions.opened('flaky', 'srv', 'OLD');
  assert.equal(await sessions.handToAll('srv', 'NEW'), 0);
  assert.equal(sessions.of('gone'), undefined);
  assert.deepEqual(sessions.of('flaky'), { serverId: 'srv', token: 'OLD' });
});

test('renewing one session records its new token only when it took it', async () => {
  const { sessions } = harness({ c2: false });
  sessions.opened('c1', 'srv', 'OLD');
  sessions.opened('c2', 'srv', 'OLD');
  assert.equal(await sessions.renew('c1', sessions.of('c1')!, 'NEW'), true);
  assert.equal(sessions.of('c1')?.token, 'NEW');
  assert.equal(await sessions.renew('c2', sessions.of('c2')!, 'NEW'), false);
  assert.equal(sessions.of('c2')?.token, 'OLD');
});

test('a closed session is forgotten, and the sessions tracked are bounded', async () => {
  const { sessions, sent } = harness();
  sessions.opened('c1', 'srv', 'OLD');
  sessions.closed('c1');
  assert.equal(sessions.of('c1'), undefined);
  for (let i = 0; i < 200; i++) sessions.opened(`s${i}`, 'srv', 'OLD');
  assert.equal(sessions.of('s0'), undefined);
  assert.equal(sessions.of('s199')?.token, 'OLD');
  assert.equal(await sessions.handToAll('srv', 'NEW'), 128);
  assert.equal(sent.length, 128);
});
