import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { annotationHints, bulkDisabled, matches, queryTerms, searchText } from '../../../src/components/tool-filter.js';

type ToolText = { name: string; title?: string; description?: string };

/** The list's filter as mcp-tool-list composes it: names of the matching tools, in catalog order. */
function filterTools(tools: readonly ToolText[], query: string): string[] {
  const terms = queryTerms(query);
  return tools.filter((tool) => matches(searchText(tool), terms)).map((tool) => tool.name);
}

const tools = [
  { name: 'read_file', title: 'Read a file', description: 'Reads bytes from disk' },
  { name: 'write_file', description: 'Writes bytes to DISK' },
  { name: 'search', title: 'Web search' },
];

describe('tool filter', () => {
  it('an empty or blank query matches every tool in catalog order', () => {
    assert.deepEqual(filterTools(tools, ''), ['read_file', 'write_file', 'search']);
    assert.deepEqual(filterTools(tools, '   '), ['read_file', 'write_file', 'search']);
  });

  it('matches name, title and description case-insensitively, every word required', () => {
    assert.deepEqual(filterTools(tools, 'disk'), ['read_file', 'write_file']);
    assert.deepEqual(filterTools(tools, 'WEB'), ['search']);
    assert.deepEqual(filterTools(tools, 'bytes write'), ['write_file']);
    assert.deepEqual(filterTools(tools, 'nothing-like-this'), []);
  });

  // Its speed is measured by `npm run bench` (filter keystroke), never asserted here.
  it('filters 1,000 tools to exactly the matches, in catalog order', () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({ name: `tool_${i}`, description: `Does thing number ${i}` }));
    const hit = filterTools(many, 'number 99');
    assert.equal(hit.length, 19); // 99, 199 … 899, 990 … 999
    assert.deepEqual(hit.slice(0, 3), ['tool_99', 'tool_199', 'tool_299']);
  });
});

describe('bulk toggles', () => {
  it('disabling all adds every tool once and keeps unknown disabled names', () => {
    assert.deepEqual(bulkDisabled(['gone', 'a'], ['a', 'b', 'c'], false), ['gone', 'a', 'b', 'c']);
  });

  it('enabling all clears only the tools in scope', () => {
    assert.deepEqual(bulkDisabled(['gone', 'a', 'b'], ['a', 'b', 'c'], true), ['gone']);
  });

  it('a filtered scope touches only the filtered tools', () => {
    assert.deepEqual(bulkDisabled(['a'], ['b'], false), ['a', 'b']);
    assert.deepEqual(bulkDisabled(['a', 'b'], ['b'], true), ['a']);
  });

  it('removes duplicates in the stored list and the scope', () => {
    assert.deepEqual(bulkDisabled(['a', 'a'], ['b', 'b'], false), ['a', 'b']);
  });
});

describe('annotation hints', () => {
  it('shows only hints the server set to true', () => {
    assert.deepEqual(annotationHints(undefined), []);
    assert.deepEqual(annotationHints({ readOnlyHint: true, destructiveHint: false, openWorldHint: true }), [
      'hintReadOnly',
      'hintOpenWorld',
    ]);
    assert.deepEqual(annotationHints({ idempotentHint: true, destructiveHint: true }), ['hintDestructive', 'hintIdempotent']);
  });
});
