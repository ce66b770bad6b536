/**
 * Installs a `chrome.i18n` stand-in built from the real English catalog, so components render
 * the same strings as in the extension, and defines every element once.
 */
import { en, type MessageKey } from '../../src/i18n/en.js';
import { defineAll } from '../../src/components/define.js';

type Entry = { message: string; placeholders?: Record<string, { content: string }> };

function getMessage(key: string, subs?: string | string[]): string {
  const entry = (en as Record<string, Entry>)[key as MessageKey];
  if (!entry) return '';
  const args = subs === undefined ? [] : Array.isArray(subs) ? subs : [subs];
  return entry.message.replace(/\$([A-Z_]+)\$/g, (_, name: string) => {
    const content = entry.placeholders?.[name.toLowerCase()]?.content ?? '';
    return content.replace(/\$(\d)/g, (_m, n: string) => args[Number(n) - 1] ?? '');
  });
}

(globalThis as unknown as { chrome: unknown }).chrome = { i18n: { getMessage } };
defineAll();
