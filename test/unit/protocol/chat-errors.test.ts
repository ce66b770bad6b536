/**
 * The chat's error kinds are wire error codes with words of their own in every catalog, so an
 * error entry is never shown untranslated (SPEC K6), and a kind this build does not know is
 * mapped like any other unknown code instead of making the stored chat unreadable.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHAT_ERROR_KINDS, CHAT_ERROR_REASONS, WIRE_ERROR_CODES } from '../../../src/protocol/error-codes.js';
import { ChatEntrySchema, chatErrorSaid } from '../../../src/protocol/panel-chat.js';
import { englishOf } from '../../../src/protocol/wording.js';
import { en } from '../../../src/i18n/en.js';
import { zh_CN } from '../../../src/i18n/zh_CN.js';

test('every chat error kind is a wire code with a wording in en and zh_CN', () => {
  for (const kind of CHAT_ERROR_KINDS) {
    assert.ok((WIRE_ERROR_CODES as readonly string[]).includes(kind), `${kind} is a wire code`);
    const code = CHAT_ERROR_REASONS[kind];
    assert.ok(en[code].message.trim(), `en wording for ${kind}`);
    assert.ok(zh_CN[code].message.trim(), `zh_CN wording for ${kind}`);
    assert.notEqual(zh_CN[code].message, en[code].message, `zh_CN wording for ${kind} is translated`);
  }
});

test('an error entry of an unknown kind parses as `unknown` and keeps its message', () => {
  const parsed = ChatEntrySchema.parse({ kind: 'error', id: 'e1', errorKind: 'flux-capacitor', message: 'It broke.' });
  assert.deepEqual(parsed, { kind: 'error', id: 'e1', errorKind: 'unknown', message: 'It broke.' });
  const known = ChatEntrySchema.parse({ kind: 'error', id: 'e2', errorKind: 'rate-limit', message: 'Slow down.' });
  assert.equal(known.kind === 'error' && known.errorKind, 'rate-limit');
});

test('an error entry says its own wording, else its kind’s words with the English message', () => {
  const own = { code: 'reasonChatKeyRefused' as const, params: { status: '401' } };
  assert.deepEqual(chatErrorSaid({ errorKind: 'invalid-key', message: 'm', wording: own }), { message: 'm', wording: own });
  const fallback = chatErrorSaid({ errorKind: 'internal', message: 'x is undefined' });
  assert.deepEqual(fallback.wording, { code: 'reasonChatFailed', params: { error: 'x is undefined' } });
  assert.equal(englishOf(fallback.wording), 'The chat failed: x is undefined');
  assert.equal(chatErrorSaid({ errorKind: 'rate-limit', message: 'm' }).wording.code, 'reasonChatErrorRateLimit');
});
