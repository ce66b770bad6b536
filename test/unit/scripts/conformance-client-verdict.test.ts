/**
 * The conformance runner judges the client as well as the suite's checks: a run whose checks pass
 * fails when the client says it did not finish — it exited non-zero, was stopped, or its card
 * ended anywhere but `ready` (the suite cannot see the card; a token obtained and then lost is
 * only visible there).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
// @ts-expect-error -- a plain .mjs script without types; only clientVerdict is used.
import { clientVerdict } from '../../../test/conformance/run.mjs';

const verdict = clientVerdict as (scenario: string, result: unknown) => string;
const done = { exitCode: 0, finished: true, finalStatus: 'ready', finalReason: '', detail: '' };

test('a client that finished with its card ready passes', () => {
  assert.equal(verdict('auth/pre-registration', done), '');
});

test('a card left in needs-auth after a token was obtained fails the scenario, whatever the checks say', () => {
  const why = verdict('auth/pre-registration', { ...done, exitCode: 1, finalStatus: 'needs-auth', finalReason: 'x needs authorization.' });
  assert.match(why, /exited 1/);
  assert.match(why, /needs-auth \(x needs authorization\.\)/);
  assert.match(verdict('initialize', { ...done, finalStatus: 'error' }), /final card is error, not ready/);
});

test('a client that wrote no outcome, or was stopped before its end, fails', () => {
  assert.match(verdict('initialize', undefined), /wrote no outcome/);
  assert.match(verdict('initialize', { ...done, exitCode: 143, finished: false }), /did not reach its end \(exit 143\)/);
  assert.match(
    verdict('auth/resource-mismatch', { ...done, exitCode: 1, finished: false, detail: 'the watchdog stopped the run' }),
    /watchdog/,
  );
});

test('where the suite wants the client to stop, its exit code 1 at a settled end is its right answer', () => {
  assert.equal(verdict('auth/resource-mismatch', { ...done, exitCode: 1, finalStatus: 'error' }), '');
  assert.equal(verdict('auth/scope-retry-limit', { ...done, exitCode: 1 }), '');
});
