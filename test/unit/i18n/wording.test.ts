import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { en } from '../../../src/i18n/en.js';
import { zh_CN } from '../../../src/i18n/zh_CN.js';
import { englishOf, orderedParams, say, WordingSchema } from '../../../src/protocol/wording.js';
import { RemoteError, toWireError, WireErrorSchema } from '../../../src/protocol/result.js';
import { describeSdkError } from '../../../src/offscreen/errors.js';
import { checkServerUrl } from '../../../src/common/url-rules.js';
import { parseImport } from '../../../src/import/parse-import.js';

/** What `chrome.i18n.getMessage` does with a catalog entry and positional substitutions. */
function render(entry: { message: string; placeholders?: Record<string, { content: string }> }, subs: string[]): string {
  return entry.message.replace(/\$([A-Za-z0-9_]+)\$/g, (_, name: string) => {
    const content = entry.placeholders?.[name.toLowerCase()]?.content ?? '';
    return content.replace(/\$(\d)/, (_m, d: string) => subs[Number(d) - 1] ?? '');
  });
}

describe('reasons as codes + parameters (section K)', () => {
  it('say() renders the English catalog text and keeps the code and parameters', () => {
    const s = say('reasonConnectTimeout', { name: 'Demo', seconds: 30, origin: 'https://a.example' });
    assert.equal(s.message, '"Demo" did not complete the connection within 30 s (https://a.example).');
    assert.deepEqual(s.wording, { code: 'reasonConnectTimeout', params: { name: 'Demo', seconds: '30', origin: 'https://a.example' } });
    assert.equal(englishOf(s.wording), s.message);
  });

  it('the positional order follows the catalog, so the zh_CN text gets each parameter in its place', () => {
    const s = say('reasonHttpStatus', { origin: 'https://a.example', status: 502, detail: 'Bad Gateway' });
    const subs = orderedParams(s.wording);
    assert.deepEqual(subs, ['https://a.example', '502', 'Bad Gateway']);
    assert.equal(render(en.reasonHttpStatus, subs), s.message);
    assert.equal(render(zh_CN.reasonHttpStatus, subs), 'https://a.example 返回 HTTP 502：Bad Gateway');
  });

  it('every reason message of zh_CN is Chinese, not a copy of the English', () => {
    // Only `$ORIGIN$: $DETAIL$` (a server's own words after its origin) has no word to translate.
    const wordless = new Set(['reasonServerSaid']);
    for (const key of Object.keys(en).filter((k) => k.startsWith('reason') && !wordless.has(k)) as (keyof typeof en)[]) {
      assert.notEqual(zh_CN[key].message, en[key].message, key);
      assert.match(zh_CN[key].message, /[\u4e00-\u9fff]/, key);
    }
  });

  it('an unknown code from another build is dropped and the English message stays', () => {
    assert.equal(WordingSchema.parse({ code: 'reasonFromTheFuture' }), undefined);
    assert.equal(WordingSchema.parse({ code: 'extName' }), undefined, 'only reason codes');
    const parsed = WireErrorSchema.parse({ code: 'network', message: 'x', wording: { code: 'nope' } });
    assert.equal(parsed.wording, undefined);
    assert.equal(parsed.message, 'x');
  });

  it('the wording survives RemoteError and toWireError, and a plain error object carrying one', () => {
    const s = say('reasonUnreachable', { origin: 'https://a.example' });
    const w = toWireError(new RemoteError({ code: 'network', ...s }));
    assert.deepEqual(w.wording, s.wording);
    assert.deepEqual(toWireError(Object.assign(new Error(s.message), { code: 'network', wording: s.wording })).wording, s.wording);
  });

  it('offscreen errors, URL checks and importer reasons carry a wording', () => {
    const net = describeSdkError(new TypeError('Failed to fetch'), 'https://a.example/mcp');
    assert.equal(net.wording?.code, 'reasonUnreachable');
    const url = checkServerUrl('example.com/mcp');
    assert.equal(url.ok, false);
    if (!url.ok) assert.equal(url.wording?.code, 'reasonUrlNotAbsolute');
    const preview = parseImport(JSON.stringify({ mcpServers: { local: { command: 'npx' } } }), []);
    assert.equal(preview.entries[0]?.reasonWording?.code, 'reasonImportStdio');
  });
});
