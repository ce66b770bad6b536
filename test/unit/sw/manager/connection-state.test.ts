import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_SESSION_RECOVERY_ATTEMPTS,
  transition,
  type ConnectionEvent,
  type ConnectionState,
  type ErrorReason,
} from '../../../../src/sw/manager/connection-state.js';

const oldReason: ErrorReason = { kind: 'network', message: 'old' };
const reason: ErrorReason = { kind: 'timeout', message: 'new' };

const states = {
  disconnected: { status: 'disconnected' },
  connecting: { status: 'connecting', attempt: 1 },
  ready: { status: 'ready', connectionId: 'c-old' },
  'needs-auth': { status: 'needs-auth', reason: oldReason },
  error: { status: 'error', reason: oldReason },
} satisfies Record<string, ConnectionState>;

const events = {
  connect: { type: 'connect' },
  connected: { type: 'connected', connectionId: 'c-new' },
  failed: { type: 'failed', reason },
  'auth-required': { type: 'auth-required', reason },
  disconnect: { type: 'disconnect' },
  'session-lost': { type: 'session-lost', reason },
} satisfies Record<string, ConnectionEvent>;

const SAME = 'same' as const;
type Expected = ConnectionState | typeof SAME;

const table: Record<keyof typeof states, Record<keyof typeof events, Expected>> = {
  disconnected: {
    connect: { status: 'connecting', attempt: 1 },
    connected: SAME,
    failed: SAME,
    'auth-required': SAME,
    disconnect: SAME,
    'session-lost': SAME,
  },
  connecting: {
    connect: SAME,
    connected: { status: 'ready', connectionId: 'c-new' },
    failed: { status: 'error', reason },
    'auth-required': { status: 'needs-auth', reason },
    disconnect: { status: 'disconnected' },
    'session-lost': { status: 'connecting', attempt: 2 },
  },
  ready: {
    connect: SAME,
    connected: SAME,
    failed: { status: 'error', reason },
    'auth-required': { status: 'needs-auth', reason },
    disconnect: { status: 'disconnected' },
    'session-lost': { status: 'connecting', attempt: 1 },
  },
  'needs-auth': {
    connect: { status: 'connecting', attempt: 1 },
    connected: SAME,
    failed: SAME,
    'auth-required': { status: 'needs-auth', reason },
    disconnect: { status: 'disconnected' },
    'session-lost': SAME,
  },
  error: {
    connect: { status: 'connecting', attempt: 1 },
    connected: SAME,
    failed: SAME,
    'auth-required': SAME,
    disconnect: { status: 'disconnected' },
    'session-lost': SAME,
  },
};

for (const [stateName, row] of Object.entries(table)) {
  for (const [eventName, expected] of Object.entries(row)) {
    const state = states[stateName as keyof typeof states];
    const event = events[eventName as keyof typeof events];
    const label = expected === SAME ? 'is illegal and returns the same object' : `goes to ${expected.status}`;
    test(`${stateName} + ${eventName} ${label}`, () => {
      const next = transition(state, event);
      if (expected === SAME) assert.equal(next, state);
      else {
        assert.notEqual(next, state);
        assert.deepEqual(next, expected);
      }
    });
  }
}

test('the table covers every state and every event', () => {
  assert.equal(Object.keys(table).length, 5);
  for (const row of Object.values(table)) assert.equal(Object.keys(row).length, 6);
});

test('session loss while reconnecting gives up after the bounded number of attempts', () => {
  let state: ConnectionState = { status: 'ready', connectionId: 'c1' };
  const seen: number[] = [];
  for (let i = 0; i < 10 && state.status !== 'error'; i++) {
    state = transition(state, events['session-lost']);
    if (state.status === 'connecting') seen.push(state.attempt);
  }
  assert.deepEqual(
    seen,
    Array.from({ length: MAX_SESSION_RECOVERY_ATTEMPTS }, (_, i) => i + 1),
  );
  assert.deepEqual(state, { status: 'error', reason });
});

test('a late connected from a superseded candidate does not replace the ready connection', () => {
  const ready: ConnectionState = { status: 'ready', connectionId: 'current' };
  assert.equal(transition(ready, { type: 'connected', connectionId: 'stale' }), ready);
});
