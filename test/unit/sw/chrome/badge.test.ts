import { test } from 'node:test';
import assert from 'node:assert/strict';
import { badgeFor } from '../../../../src/sw/chrome/badge.js';
import { en } from '../../../../src/i18n/en.js';
import { zh_CN } from '../../../../src/i18n/zh_CN.js';
import { server } from '../use/fakes.js';

/** chrome.i18n.getMessage over a catalog: `$NAME$` placeholders replaced by their `$n` substitutions. */
function messages(catalog: Record<string, { message: string; placeholders?: Record<string, { content: string }> }>) {
  return (key: string, subs: string[] = []) => {
    const entry = catalog[key];
    if (!entry) return '';
    return entry.message.replace(/\$([A-Z_]+)\$/g, (_, name: string) => {
      const content = entry.placeholders?.[name.toLowerCase()]?.content ?? '';
      return subs[Number(content.slice(1)) - 1] ?? '';
    });
  };
}

test('nothing waiting: no number, the extension name as title', () => {
  assert.deepEqual(badgeFor([server('a', [])], { approvals: 0, questions: 0 }, messages(en)), { text: '', title: 'Remote MCP for Chrome' });
});

test('approvals, questions and servers needing authorization are counted and named', () => {
  const servers = [server('a', [], { status: 'needs-auth' }), server('b', []), server('c', [], { status: 'error', enabled: false })];
  const b = badgeFor(servers, { approvals: 2, questions: 1 }, messages(en));
  assert.equal(b.text, '4');
  assert.equal(b.title, '2 approvals, 1 question waiting\nA: Needs authorization');
  assert.equal(badgeFor([], { approvals: 1, questions: 0 }, messages(en)).title, '1 approval waiting');
  assert.equal(badgeFor([], { approvals: 0, questions: 3 }, messages(en)).title, '3 questions waiting');
});

test('the title is localized', () => {
  const b = badgeFor([server('a', [], { status: 'error' })], { approvals: 1, questions: 2 }, messages(zh_CN));
  assert.equal(b.text, '4');
  assert.equal(b.title, '1 个批准请求、2 个问题等待处理\nA: 错误');
});
