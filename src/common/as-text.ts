/**
 * A value known only at run time (a server's JSON field, a form's raw input) as the text
 * `String()` gives for it. Taking `unknown` keeps that one conversion in one place: a caller
 * that has only ruled out `null`/`undefined` holds a `{}`, which lint rightly reads as "may be
 * an object"; here the value is allowed to be anything, and an object shows as `String()` shows it.
 */
export function asText(value: unknown): string {
  return String(value);
}
