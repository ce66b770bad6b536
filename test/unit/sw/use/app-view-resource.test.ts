import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appViewOf } from '../../../../src/sw/use/app-view-resource.js';
import { APP_MIME_TYPE } from '../../../../src/protocol/mcp-apps.js';
import { MAX_VIEW_HTML } from '../../../../src/protocol/panel-apps.js';
import { RemoteError } from '../../../../src/protocol/result.js';

const uri = 'ui://chart/view.html';
const server = { name: 'Charts', url: 'https://charts.example/mcp' };

test('the view is the entry of its URI with the app MIME type (spaces and case aside), with its _meta.ui', () => {
  const view = appViewOf(
    [
      { uri: 'ui://other', mimeType: APP_MIME_TYPE, text: '<p>other</p>' },
      { uri, mimeType: 'text/plain', text: 'not the view' },
      { uri, mimeType: APP_MIME_TYPE.toUpperCase().replace(';', '; '), text: '<p>chart</p>', _meta: { ui: { prefersBorder: true } } },
    ],
    uri,
    'chart',
    server,
  );
  assert.equal(view.html, '<p>chart</p>');
  assert.deepEqual(view.meta, { prefersBorder: true });
});

test('a base64 blob is decoded as UTF-8; a malformed _meta.ui counts as none', () => {
  const blob = Buffer.from('<p>中文</p>', 'utf8').toString('base64');
  const view = appViewOf([{ uri, mimeType: APP_MIME_TYPE, blob, _meta: { ui: { prefersBorder: 'yes' } } }], uri, 'chart', server);
  assert.deepEqual(view, { html: '<p>中文</p>', meta: {}, serverName: 'Charts', serverOnLoopback: false });
});

test('no view, a blob that is not base64, or a view over 4 MiB is refused with its code', () => {
  const code = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e instanceof RemoteError ? e.code : 'other';
    }
    return 'none';
  };
  assert.equal(
    code(() => appViewOf([], uri, 'chart', server)),
    'bad-response',
  );
  assert.equal(
    code(() => appViewOf([{ uri, mimeType: APP_MIME_TYPE, blob: '%%%' }], uri, 'chart', server)),
    'bad-response',
  );
  assert.equal(
    code(() => appViewOf([{ uri, mimeType: APP_MIME_TYPE, text: 'x'.repeat(MAX_VIEW_HTML + 1) }], uri, 'chart', server)),
    'response-too-large',
  );
});

test('U3: the view says whether its server is on loopback; U4: a view too large says its size and the limit', () => {
  const local = appViewOf([{ uri, mimeType: APP_MIME_TYPE, text: '<p>x</p>' }], uri, 'chart', {
    name: 'L',
    url: 'http://127.0.0.1:3000/mcp',
  });
  assert.equal(local.serverOnLoopback, true);
  const named = appViewOf([{ uri, mimeType: APP_MIME_TYPE, text: '<p>x</p>' }], uri, 'chart', {
    name: 'L',
    url: 'https://localhost.example/mcp',
  });
  assert.equal(named.serverOnLoopback, false);
  try {
    appViewOf([{ uri, mimeType: APP_MIME_TYPE, text: 'x'.repeat(5 * 1024 * 1024) }], uri, 'chart', server);
    assert.fail('accepted');
  } catch (e) {
    assert.ok(e instanceof RemoteError);
    assert.equal(e.message, 'The view of “chart” is too large: 5.0 MiB, over the 4.0 MiB limit.');
    assert.deepEqual(e.wording, { code: 'reasonViewTooLarge', params: { tool: 'chart', size: '5.0 MiB', max: '4.0 MiB' } });
  }
});
