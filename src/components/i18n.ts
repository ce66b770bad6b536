/**
 * All user-visible strings come from `chrome.i18n` (SPEC K6). Tests install a `chrome.i18n`
 * stand-in built from the same catalogs the build writes to `_locales/`.
 */
import type { MessageKey } from '../i18n/en.js';
import { orderedParams, type Said } from '../protocol/wording.js';

export function t(key: MessageKey, ...subs: string[]): string {
  const text = globalThis.chrome?.i18n?.getMessage(key, subs);
  return text || key;
}

/**
 * The language of the catalog the strings come from, as a BCP 47 tag for dates and numbers, so a
 * zh_CN panel does not show "07:08 PM". Read from the catalog itself: `getUILanguage()` and
 * `@@ui_locale` can name another language than the catalog Chrome picked (seen on Linux).
 */
export function uiLocale(): string | undefined {
  const tag = t('localeTag');
  return tag === 'localeTag' ? undefined : tag;
}

/**
 * What the worker, the offscreen document or the importer said, in the user's language: its
 * wording (a message code + parameters) through the catalogs, else the English `message`.
 */
export function tReason(said: Said): string {
  if (!said.wording) return said.message;
  const text = globalThis.chrome?.i18n?.getMessage(said.wording.code, orderedParams(said.wording));
  return text || said.message;
}
