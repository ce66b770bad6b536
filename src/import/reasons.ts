/**
 * The plain-words reasons shown beside a skipped or conflicting entry in the import preview.
 * Kept in one place so the panel, the tests and the parser cannot drift apart.
 */
export const REASON_STDIO = 'stdio needs a local process, which a browser cannot start';
export const REASON_SSE = 'legacy SSE transport not supported (Streamable HTTP only)';
export const REASON_DUPLICATE = 'duplicate in paste';
export const REASON_EXISTS = 'already exists — confirm to overwrite';
export const REASON_NOT_AN_ENTRY = 'not a server entry (expected an object)';

export { invalidUrl } from '../common/url-rules.js';

export function unknownTransport(type: string): string {
  return `unknown transport type "${type.slice(0, 40)}"`;
}

export function invalidHeader(name: string, detail: string): string {
  return `invalid header "${name.slice(0, 60)}": ${detail}`;
}

export function invalidField(field: string, detail: string): string {
  return `invalid ${field}: ${detail}`;
}
