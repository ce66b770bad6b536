/**
 * All user-visible strings come from `chrome.i18n` (SPEC K6). Tests install a `chrome.i18n`
 * stand-in built from the same catalogs the build writes to `_locales/`.
 */
import type { MessageKey } from '../i18n/en.js';

export function t(key: MessageKey, ...subs: string[]): string {
  const text = globalThis.chrome?.i18n?.getMessage(key, subs);
  return text || key;
}

/**
 * The browser UI's language (what `chrome.i18n` picked the catalog by), for dates and numbers, so a
 * zh_CN panel does not show "07:08 PM". Undefined (the runtime's default) outside the extension.
 */
export function uiLocale(): string | undefined {
  return globalThis.chrome?.i18n?.getUILanguage?.() || undefined;
}
