/**
 * Reasons, warnings and errors travel between contexts as a message code with named parameters
 * (a {@link Wording}) beside their English `message`: the panel shows the code in the user's
 * language, while logs and agents keep the English text. The codes are the `reason…` keys of the
 * message catalogs, so a code without a message, or a parameter the message does not declare,
 * fails the type check; the English text is rendered here from the English catalog, so the words
 * exist once.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { en, type MessageKey } from '../i18n/en.js';

export type ReasonCode = Extract<MessageKey, `reason${string}`>;

type Entry = { message: string; placeholders?: Record<string, { content: string }> };
type ParamName<K extends ReasonCode> = (typeof en)[K] extends { placeholders: infer P } ? keyof P & string : never;

export interface Wording {
  code: ReasonCode;
  /** Parameter name (lowercase, as the catalog declares it) → text; server strings stay as they came. */
  params?: Record<string, string>;
}

/** Something said to the user: the English text and, when it has one, its code for translation. */
export interface Said {
  message: string;
  wording?: Wording;
}

function entryOf(code: string): Entry | undefined {
  return code.startsWith('reason') && Object.hasOwn(en, code) ? (en as Record<string, Entry>)[code] : undefined;
}

export function isReasonCode(value: unknown): value is ReasonCode {
  return typeof value === 'string' && entryOf(value) !== undefined;
}

/** The parameters in the order the catalogs bind them (`$1`, `$2`, …), for `chrome.i18n.getMessage`. */
export function orderedParams(w: Wording): string[] {
  const placeholders = entryOf(w.code)?.placeholders ?? {};
  const out: string[] = [];
  for (const [name, { content }] of Object.entries(placeholders)) {
    const index = Number(content.slice(1)) - 1;
    out[index] = w.params?.[name] ?? '';
  }
  return Array.from(out, (v) => v ?? '');
}

/** The English text of a wording, as the English catalog words it. */
export function englishOf(w: Wording): string {
  const entry = entryOf(w.code);
  if (!entry) return w.code;
  return entry.message.replace(/\$([A-Za-z0-9_]+)\$/g, (whole, name: string) => w.params?.[name.toLowerCase()] ?? whole);
}

/** Builds what a context says: `say('reasonUnreachable', { origin })` → `{ message, wording }`. */
export function say<K extends ReasonCode>(
  code: K,
  ...params: [ParamName<K>] extends [never] ? [] : [Record<ParamName<K>, string | number>]
): Required<Said> {
  const given = params[0] as Record<string, string | number> | undefined;
  const wording: Wording = given ? { code, params: Object.fromEntries(Object.entries(given).map(([k, v]) => [k, String(v)])) } : { code };
  return { message: englishOf(wording), wording };
}

/** A wording received from another build: an unknown code is dropped and the English message stays. */
export const WordingSchema = lazySchema(() =>
  z.optional(
    z.catch(
      z.optional(
        z.object({
          code: z.custom<ReasonCode>(isReasonCode),
          params: z.optional(z.record(z.string().check(z.maxLength(64)), z.string().check(z.maxLength(4096)))),
        }),
      ),
      undefined,
    ),
  ),
);
