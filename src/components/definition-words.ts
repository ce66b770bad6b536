/**
 * A definition change in words (SPEC S2): which message says what happened to a behaviour hint
 * ("no longer marked destructive"), and a diff line as text. Pure, so unit tests check the
 * wording without a browser. Hints are the server's claims: the words describe them, and
 * nothing here (or anywhere) lets them lower approval.
 */
import type { MessageKey } from '../i18n/en.js';
import type { DefinitionChange } from '../protocol/panel-pins.js';

export type DiffView = DefinitionChange['lines'];
type Hint = DefinitionChange['hints'][number];

const HINT_WORDS = {
  readOnlyHint: { now: 'pinHintNowReadOnly', noLonger: 'pinHintNoLongerReadOnly', name: 'pinHintReadOnly' },
  destructiveHint: { now: 'pinHintNowDestructive', noLonger: 'pinHintNoLongerDestructive', name: 'pinHintDestructive' },
  idempotentHint: { now: 'pinHintNowIdempotent', noLonger: 'pinHintNoLongerIdempotent', name: 'pinHintIdempotent' },
  openWorldHint: { now: 'pinHintNowOpenWorld', noLonger: 'pinHintNoLongerOpenWorld', name: 'pinHintOpenWorld' },
} as const satisfies Record<Hint['hint'], Record<string, MessageKey>>;

const valueKey = (v: boolean | undefined): MessageKey => (v === undefined ? 'pinHintUnset' : v ? 'pinHintYes' : 'pinHintNo');

/**
 * The message for each changed hint, with the keys of its parameters (translated by the caller):
 * set → "now marked …", no longer set → "no longer marked …", otherwise "…: from → to".
 */
export function hintChangeKeys(hints: readonly Hint[]): { key: MessageKey; subs: MessageKey[] }[] {
  return hints.map(({ hint, from, to }) => {
    const words = HINT_WORDS[hint];
    if (to === true && from !== true) return { key: words.now, subs: [] };
    if (from === true && to !== true) return { key: words.noLonger, subs: [] };
    return { key: 'pinHintValue', subs: [words.name, valueKey(from), valueKey(to)] };
  });
}

/** One diff line as shown: "− old", "+ new", "  same"; a fold says how many lines it hides. */
export function diffLineText(line: DiffView[number], folded: (count: string) => string = (n) => `… ${n}`): string {
  if (line.op === '…') return folded(line.text);
  return `${line.op === '=' ? ' ' : line.op === '-' ? '−' : '+'} ${line.text}`;
}
