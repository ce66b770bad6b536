/**
 * `Mcp-Param-*` headers of a 2026-07-28 `tools/call` (SPEC R2; Streamable HTTP, custom headers
 * from tool parameters: clients MUST mirror). Written here because the v2 client leaves the
 * mirroring out when it runs in a page with a `window` (a cross-origin request with a custom header
 * needs a CORS preflight there); the offscreen document's requests are exempt from CORS for the
 * origins the user granted, so a server that demands the header gets it.
 *
 * The rules: an `x-mcp-header` counts only on a property reached from the root through
 * `properties` keys alone, of type string, integer or boolean, with a token name unique without
 * regard to case; anything else makes the tool invalid (the client then leaves the tool out of
 * the list, so no call is made). A value is taken at the property's exact path, omitted when
 * absent or not of its primitive kind, and sent as-is when it is visible ASCII without edge
 * spaces — else, or when it looks like the sentinel itself, as `=?base64?…?=` of its UTF-8.
 */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE = new Set(['string', 'integer', 'boolean']);
const MAX_DEPTH = 32;

interface Declaration {
  path: string[];
  name: string;
}

/** The declarations of a valid schema; `undefined` when an annotation breaks a rule. */
export function headerDeclarations(inputSchema: unknown): Declaration[] | undefined {
  const out: Declaration[] = [];
  const seen = new Set<string>();
  const visit = (node: unknown, path: string[]): boolean => {
    if (!node || typeof node !== 'object' || path.length > MAX_DEPTH) return true;
    const schema = node as Record<string, unknown>;
    if ('x-mcp-header' in schema && path.length > 0) {
      const name = schema['x-mcp-header'];
      if (typeof name !== 'string' || !TOKEN.test(name) || !PRIMITIVE.has(String(schema['type']))) return false;
      if (seen.has(name.toLowerCase())) return false;
      seen.add(name.toLowerCase());
      out.push({ path, name });
    }
    const properties = schema['properties'];
    if (!properties || typeof properties !== 'object') return true;
    return Object.entries(properties as Record<string, unknown>).every(([key, child]) => visit(child, [...path, key]));
  };
  if (inputSchema && typeof inputSchema === 'object' && 'x-mcp-header' in inputSchema) return undefined;
  return visit(inputSchema, []) ? out : undefined;
}

export function paramHeaders(inputSchema: unknown, args: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const d of headerDeclarations(inputSchema) ?? []) {
    const value = stringOf(valueAt(args, d.path));
    if (value !== undefined) headers[`Mcp-Param-${d.name}`] = encodeHeaderValue(value);
  }
  return headers;
}

function valueAt(root: unknown, path: string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function stringOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** The value as it may stand in a header, or its Base64 sentinel form. */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/.test(value) && !(value.startsWith('=?base64?') && value.endsWith('?='));
  if (plain) return value;
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}
