/**
 * The reasons shown beside a skipped or conflicting entry in the import preview, as codes +
 * parameters the panel translates (src/protocol/wording.ts) with their English text. Kept in one
 * place so the panel, the tests and the parser cannot drift apart.
 */
import { say, type Said } from '../protocol/wording.js';

export const STDIO: Said = say('reasonImportStdio');
export const SSE: Said = say('reasonImportSse');
export const DUPLICATE: Said = say('reasonImportDuplicate');
export const EXISTS: Said = say('reasonImportExists');
export const NOT_AN_ENTRY: Said = say('reasonImportNotEntry');

export { invalidUrl } from '../common/url-rules.js';

export function unknownTransport(type: string): Said {
  return say('reasonImportTransport', { type: type.slice(0, 40) });
}

export function invalidHeader(name: string, detail: string): Said {
  return say('reasonImportHeader', { name: name.slice(0, 60), detail });
}

export function invalidField(field: string, detail: string): Said {
  return say('reasonImportField', { field, detail });
}
