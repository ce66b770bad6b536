import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slugify } from '../../../../src/storage/slug.js';
import { MAX_AGENT_TOOL_NAME_LENGTH, agentToolName, buildToolNameMap, fnv1a32 } from '../../../../src/sw/use/tool-names.js';

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

test('a simple name is mcp__{server}__{tool}', () => {
  assert.equal(agentToolName('github', 'create_issue'), 'mcp__github__create_issue');
});

test('characters outside [a-zA-Z0-9_-] are replaced', () => {
  assert.equal(agentToolName('s', 'files.read'), 'mcp__s__files_read');
  assert.match(agentToolName('s', 'weird name/ü'), VALID);
});

test('FNV-1a matches the reference values', () => {
  assert.equal(fnv1a32(''), '811c9dc5');
  assert.equal(fnv1a32('a'), 'e40c292c');
  assert.equal(fnv1a32('foobar'), 'bf9cf968');
});

test('long names are shortened deterministically to 64 characters with a hash', () => {
  const long = 'x'.repeat(120);
  const name = agentToolName('server', long);
  assert.equal(name.length, MAX_AGENT_TOOL_NAME_LENGTH);
  assert.match(name, VALID);
  assert.ok(name.startsWith('mcp__server__xxx'));
  assert.equal(agentToolName('server', long), name);
  assert.notEqual(agentToolName('server', `${long}y`), name);
});

test('the map excludes disabled tools', () => {
  const map = buildToolNameMap([{ serverId: 's', tools: ['a', 'b', 'c'], disabled: ['b'] }]);
  assert.deepEqual([...map.keys()].sort(), ['mcp__s__a', 'mcp__s__c']);
  assert.deepEqual(map.get('mcp__s__a'), { serverId: 's', toolName: 'a' });
});

test('tools that collide after sanitizing get distinct names; the unchanged one keeps its plain name', () => {
  const map = buildToolNameMap([{ serverId: 's', tools: ['a.b', 'a_b', 'a-b', 'a b'], disabled: [] }]);
  assert.equal(map.size, 4);
  assert.deepEqual(map.get('mcp__s__a_b'), { serverId: 's', toolName: 'a_b' });
  const targets = [...map.values()].map((r) => r.toolName).sort();
  assert.deepEqual(targets, ['a b', 'a-b', 'a.b', 'a_b']);
  for (const name of map.keys()) assert.match(name, VALID);
});

test('when no colliding tool is unchanged, all of them are hashed', () => {
  const map = buildToolNameMap([{ serverId: 's', tools: ['a.b', 'a b'], disabled: [] }]);
  assert.equal(map.size, 2);
  assert.equal(map.has('mcp__s__a_b'), false);
});

test('ids containing __ cannot make two servers share a name', () => {
  const map = buildToolNameMap([
    { serverId: 'a__b', tools: ['c'], disabled: [] },
    { serverId: 'a', tools: ['b__c'], disabled: [] },
  ]);
  assert.equal(map.size, 2);
  const refs = [...map.values()].map((r) => `${r.serverId}/${r.toolName}`).sort();
  assert.deepEqual(refs, ['a/b__c', 'a__b/c']);
});

test('many long names with a shared prefix all stay distinct and valid', () => {
  const tools = Array.from({ length: 500 }, (_, i) => `${'very_long_common_prefix_'.repeat(4)}${i}`);
  const map = buildToolNameMap([{ serverId: 'a-server-with-a-long-slug-name-00', tools, disabled: [] }]);
  assert.equal(map.size, 500);
  for (const name of map.keys()) assert.match(name, VALID);
});

test('a hashed name that is already taken is re-hashed', () => {
  const hashed = agentToolName('s', 'y'.repeat(100));
  const squatter = hashed.slice('mcp__s__'.length);
  const map = buildToolNameMap([{ serverId: 's', tools: ['y'.repeat(100), squatter], disabled: [] }]);
  assert.equal(map.size, 2);
  const values = [...map.values()].map((r) => r.toolName).sort();
  assert.deepEqual(values, [squatter, 'y'.repeat(100)].sort());
});

test('the map does not depend on server or tool order', () => {
  const servers = [
    { serverId: 's1', tools: ['x.y', 'x_y', 'z'], disabled: [] },
    { serverId: 's2', tools: ['q', 'x y'], disabled: [] },
  ];
  const reversed = servers.map((s) => ({ ...s, tools: [...s.tools].reverse() })).reverse();
  const a = [...buildToolNameMap(servers)].sort();
  const b = [...buildToolNameMap(reversed)].sort();
  assert.deepEqual(a, b);
});

test('two accounts on one URL expose the same tool under names that say which account (S3)', () => {
  const work = slugify('GitHub');
  const home = slugify('GitHub (2)', [work]);
  const map = buildToolNameMap([
    { serverId: work, tools: ['search'], disabled: [] },
    { serverId: home, tools: ['search'], disabled: [] },
  ]);
  assert.deepEqual([...map.keys()].sort(), ['mcp__github-2__search', 'mcp__github__search']);
  assert.deepEqual(map.get('mcp__github-2__search'), { serverId: 'github-2', toolName: 'search' });
});
