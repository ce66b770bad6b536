/**
 * The control characters the extension refuses or strips, in one place. Three rules, because
 * the three uses differ on purpose:
 * - a header value (typed, pasted or filled into a placeholder) may carry a tab, as an HTTP
 *   field value may (RFC 9110 §5.5), but no other C0 control and no DEL: a CR or LF would split
 *   the header;
 * - a server's display name is one line of plain text, so every C0 control and DEL (tab
 *   included) becomes a space;
 * - a label built from a server's strings for an agent (N9) must not break the fence's lines
 *   either, so the C1 controls and the Unicode line and paragraph separators go too.
 */

// eslint-disable-next-line no-control-regex -- finds the control characters a header value must not carry (tab allowed)
const VALUE_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- matches the control characters a name must not carry
const NAME_CONTROL = /[\u0000-\u001f\u007f]/g;
// eslint-disable-next-line no-control-regex -- strips control characters from server strings
const LABEL_BREAKS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** True when `value` carries a C0 control other than tab, or DEL: it cannot be a header value. */
export function hasValueControlChar(value: string): boolean {
  return VALUE_CONTROL.test(value);
}

/** `text` with each C0 control (tab included) and DEL replaced by a space. */
export function controlsToSpaces(text: string): string {
  return text.replace(NAME_CONTROL, ' ');
}

/** `text` on one line: each run of C0/C1 controls, DEL and U+2028/U+2029 becomes one space. */
export function flattenToOneLine(text: string): string {
  return text.replace(LABEL_BREAKS, ' ');
}
