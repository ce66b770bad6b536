import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CatalogGenerations, CATALOG_CATEGORIES } from '../../../../src/sw/manager/catalog-generations.js';
import { CatalogMirror, listingRefusal, type Listed, type MirrorPorts } from '../../../../src/sw/manager/catalog-mirror.js';
import { RemoteError } from '../../../../src/protocol/result.js';
import { flush } from '../../../support/deferred.js';

const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

/** A mirror whose offscreen host answers each listing from `answer`, recording what it was asked. */
function mirrorWith(answer: (params: { connectionId: string; category: string }) => Promise<unknown>, live = 'c1') {
  const asked: string[] = [];
  const events = { changed: 0, toolsCommitted: 0, authLost: [] as string[] };
  const state = { live: live as string | undefined };
  let clock = 1_000;
  const ports: MirrorPorts = {
    request: (async (_method: string, params: { connectionId: string; category: string }) => {
      asked.push(`${params.connectionId}/${params.category}`);
      return answer(params);
    }) as MirrorPorts['request'],
    live: () => state.live,
    changed: () => void events.changed++,
    authLost: (connectionId, error) => void events.authLost.push(`${connectionId}: ${error.code}`),
    toolsCommitted: () => void events.toolsCommitted++,
  };
  const now = () => clock;
  const mirror = new CatalogMirror('s1', new CatalogGenerations(now), ports, { refreshIntervalMs: 0, now });
  return { mirror, asked, events, state, tick: (ms: number) => (clock += ms) };
}

test('list returns the items, refuses an answer for another category, and marks a lost session', async () => {
  const { mirror } = mirrorWith(async ({ category }) => {
    if (category === 'prompts') return { category: 'tools', items: [] };
    if (category === 'resources') throw new RemoteError({ code: 'stale-connection', message: 'stale' });
    if (category === 'resourceTemplates') throw new RemoteError({ code: 'timeout', message: 'slow' });
    return { category, items: [tool('a')] };
  });
  assert.deepEqual(await mirror.list('c1', 'tools'), { ok: true, items: [tool('a')] });
  assert.deepEqual(await mirror.list('c1', 'prompts'), { ok: false, error: 'The answer listed tools, not prompts.' });
  assert.deepEqual(await mirror.list('c1', 'resources'), { ok: false, error: 'stale', lost: true });
  assert.deepEqual(await mirror.list('c1', 'resourceTemplates'), { ok: false, error: 'slow' });
});

test('commit checks items, keeps their warnings, and tells when tools were committed', () => {
  const { mirror, events } = mirrorWith(async () => assert.fail('no listing expected'));
  mirror.commit(
    mirror.begin(),
    ['tools', 'prompts'],
    [
      { ok: true, items: [tool('a'), tool('a'), { name: 'bad name!' }] },
      { ok: true, items: [{ name: 'p' }] },
    ],
  );
  assert.deepEqual(
    mirror.get<{ name: string }>('tools').items?.map((t) => t.name),
    ['a'],
  );
  assert.deepEqual(mirror.get('prompts').items, [{ name: 'p' }]);
  assert.deepEqual(
    mirror.limitWarnings().map((w) => w.wording?.code),
    ['reasonToolNamesInvalid', 'reasonToolNamesDuplicate'],
  );
  assert.equal(events.toolsCommitted, 1);
  mirror.commit(mirror.begin(), ['prompts'], [{ ok: true, items: [] }]);
  assert.equal(events.toolsCommitted, 1, 'a listing without tools settles nothing');
});

test('a failed refresh keeps the last good list, stale since the failure, with a refresh warning', () => {
  const { mirror, tick } = mirrorWith(async () => assert.fail('no listing expected'));
  mirror.commit(mirror.begin(), ['tools'], [{ ok: true, items: [tool('a')] }]);
  assert.equal(mirror.staleSince(), undefined);
  tick(500);
  mirror.commit(mirror.begin(), ['tools'], [{ ok: false, error: 'HTTP 500' }]);
  assert.deepEqual(
    mirror.get<{ name: string }>('tools').items?.map((t) => t.name),
    ['a'],
  );
  assert.equal(mirror.staleSince(), 1_500);
  assert.deepEqual(
    mirror.refreshWarnings().map((w) => [w.wording?.code, w.wording?.params?.detail]),
    [['reasonRefreshToolsFailed', 'HTTP 500']],
  );
  mirror.forget();
  assert.equal(mirror.get('tools').items, null);
  assert.deepEqual([mirror.refreshWarnings(), mirror.limitWarnings(), mirror.staleSince()], [[], [], undefined]);
});

test('markDirty refreshes on the live connection; resources bring their templates', async () => {
  const { mirror, asked, events } = mirrorWith(async ({ category }) => ({ category, items: [] }));
  mirror.markDirty('resources');
  await flush();
  assert.deepEqual(asked.sort(), ['c1/resourceTemplates', 'c1/resources']);
  assert.equal(events.changed, 2);
  assert.deepEqual(mirror.get('resources').items, []);
});

test('no refresh without a live connection, after clearDirty, or when the connection changed meanwhile', async () => {
  const { mirror, asked, events, state } = mirrorWith(async ({ category }) => {
    state.live = 'c2';
    return { category, items: [tool('late')] };
  });
  mirror.markDirty('tools');
  await flush();
  assert.deepEqual(asked, ['c1/tools']);
  assert.equal(mirror.get('tools').items, null, 'a listing of a connection no longer live commits nothing');
  assert.equal(events.changed, 0);
  state.live = undefined;
  mirror.markDirty('prompts');
  await flush();
  assert.deepEqual(asked, ['c1/tools']);
});

const ok: Listed = { ok: true, items: [] };
const failed: Listed = { ok: false, error: 'HTTP 500' };

test('E7: a listing refused for more authorization refuses the handshake as needs-auth, and a refresh reports it on its connection', async () => {
  const needsAuth = new RemoteError({
    code: 'needs-auth',
    message: 'needs more access',
    httpStatus: 403,
    wwwAuthenticate: 'Bearer error="insufficient_scope", scope="write"',
  });
  const { mirror, events } = mirrorWith(async ({ category }) => {
    if (category === 'tools') throw needsAuth;
    return { category, items: [] };
  });
  const tools = await mirror.list('c1', 'tools');
  assert.equal(tools.ok, false);
  const refusal = listingRefusal(
    [tools, { ok: true, items: [] }, { ok: true, items: [] }, { ok: true, items: [] }],
    { tools: {}, prompts: {} },
    false,
  );
  assert.equal(refusal?.code, 'needs-auth');
  assert.equal(refusal?.httpStatus, 403);
  mirror.markDirty('tools');
  await flush();
  assert.deepEqual(events.authLost, ['c1: needs-auth']);
});

test('listingRefusal: a lost session never commits', () => {
  const all = CATALOG_CATEGORIES.map(() => ok);
  assert.equal(listingRefusal(all, { tools: {} }, false), undefined);
  assert.equal(listingRefusal(all, { tools: {} }, true)?.code, 'session-lost');
  assert.equal(listingRefusal([ok, { ...failed, lost: true }, ok, ok], { tools: {} }, false)?.code, 'session-lost');
});

test('listingRefusal: refused when every declared category failed, not when an undeclared one did', () => {
  // tools declared and listed; prompts undeclared and failed: commits.
  assert.equal(listingRefusal([ok, failed, ok, ok], { tools: {} }, false), undefined);
  // The only declared category failed: an undeclared empty list is no success (D1).
  const refusal = listingRefusal([failed, ok, ok, ok], { tools: {} }, false);
  assert.equal(refusal?.code, 'protocol');
  assert.equal(refusal?.wording?.code, 'reasonCatalogUnlisted');
  // Nothing declared and everything failed.
  assert.equal(listingRefusal([failed, failed, failed, failed], {}, false)?.code, 'protocol');
  // Resources declared: templates count with them.
  assert.equal(listingRefusal([ok, ok, failed, ok], { resources: {} }, false), undefined);
});
