/**
 * The conformance runner takes what must pass from the suite's own frozen requirement files, per
 * revision, and its baseline may excuse only extension scenarios (test/conformance/run.mjs).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
// @ts-expect-error -- a plain .mjs script without types.
import * as runJs from '../../../test/conformance/run.mjs';

interface Requirements {
  client: string[];
  notScored: { scenario: string; reason: string }[];
}
type Baseline = Map<string, Map<string, string>>;
const { parseRequirements, parseExpectedFailures, baselineProblems, verdictOf } = runJs as unknown as {
  parseRequirements: (text: string) => Requirements;
  parseExpectedFailures: (text: string) => { entries: Baseline; problems: string[] };
  baselineProblems: (expected: Baseline, jobs: { revision: string; scenario: string; scored: boolean; reason: string }[]) => string[];
  verdictOf: (v: { scored: boolean; bad: boolean; expected: boolean }) => string;
};

const SAMPLE = `# comment
server:
  - ping
client:
  - initialize
  - auth/metadata-default

not_scored:
  - scenario: auth/dpop
    leg: client
    reason: extension
  - scenario: json-schema-2020-12
    leg: server
    reason: pending
    note: >-
      folded text
  - scenario: json-schema-2020-12-preservation
    leg: client
    reason: added-after-release
`;

test('the client leg of a requirement file: the scored list, and the not-scored client entries with their reason', () => {
  const r = parseRequirements(SAMPLE);
  assert.deepEqual(r.client, ['initialize', 'auth/metadata-default']);
  assert.deepEqual(r.notScored, [
    { scenario: 'auth/dpop', reason: 'extension' },
    { scenario: 'json-schema-2020-12-preservation', reason: 'added-after-release' },
  ]);
});

test('the files the pinned suite ships are read: each revision requires client scenarios', () => {
  for (const revision of ['2025-11-25', '2026-07-28']) {
    const r = parseRequirements(
      readFileSync(
        new URL(`../../../node_modules/@modelcontextprotocol/conformance/requirements/${revision}.yaml`, import.meta.url),
        'utf8',
      ),
    );
    assert.ok(r.client.includes('tools_call'), `${revision} requires tools_call`);
    assert.ok(r.notScored.every((e) => ['extension', 'added-after-release', 'pending'].includes(e.reason)));
  }
});

test('the baseline is per revision, every entry needs a reason, and only extension scenarios may be in it', () => {
  const ok = parseExpectedFailures('2026-07-28:\n  # DPoP: bearer tokens only.\n  - auth/dpop\n');
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.entries.get('2026-07-28')?.get('auth/dpop'), 'DPoP: bearer tokens only.');
  assert.match(parseExpectedFailures('2026-07-28:\n  - auth/dpop\n').problems.join(), /no reason/);
  assert.match(parseExpectedFailures('client:\n  # x\n  - auth/dpop\n').problems.join(), /not a revision key/);
  const jobs = [
    { revision: '2026-07-28', scenario: 'auth/dpop', scored: false, reason: 'extension' },
    { revision: '2026-07-28', scenario: 'tools_call', scored: true, reason: '' },
    { revision: '2026-07-28', scenario: 'json-schema-2020-12-preservation', scored: false, reason: 'added-after-release' },
  ];
  const baseline = (names: string[]) => new Map([['2026-07-28', new Map(names.map((n) => [n, 'why']))]]);
  assert.deepEqual(baselineProblems(baseline(['auth/dpop']), jobs), []);
  assert.match(baselineProblems(baseline(['tools_call']), jobs).join(), /required at that revision/);
  assert.match(baselineProblems(baseline(['json-schema-2020-12-preservation']), jobs).join(), /only extensions/);
  assert.match(baselineProblems(baseline(['auth/nope']), jobs).join(), /not a client scenario/);
});

test('a required scenario must pass; a not-scored one fails the run only through a stale baseline entry', () => {
  assert.equal(verdictOf({ scored: true, bad: true, expected: false }), 'UNEXPECTED FAILURE');
  assert.equal(verdictOf({ scored: true, bad: false, expected: false }), 'pass');
  assert.equal(verdictOf({ scored: false, bad: true, expected: true }), 'expected failure');
  assert.match(verdictOf({ scored: false, bad: false, expected: true }), /^STALE/);
  assert.equal(verdictOf({ scored: false, bad: true, expected: false }), 'failed (not scored)');
});
