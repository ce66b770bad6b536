/**
 * `Mcp-Param-*` headers of one `tools/call` on the 2026-07-28 wire (SEP-2243; SPEC R2): an
 * argument whose input-schema property carries `x-mcp-header` is mirrored into
 * `Mcp-Param-{Name}`, a value that is not a plain ASCII field value (non-ASCII, control
 * characters, leading or trailing whitespace, empty, or already looking like the sentinel) as
 * `=?base64?{UTF-8 in Base64}?=`, and a null or absent value not at all.
 *
 * The v2 client does this itself only outside a browser (a web page's custom headers would need a
 * CORS preflight); the extension's offscreen document has host permissions and no such limit, so
 * the mirroring is ours. The client still leaves out of the list a tool whose annotations are
 * invalid, so only valid declarations reach here; the walk follows `properties` chains only.
 */
const PREFIX = 'Mcp-Param-';
const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';

interface Declaration {
  path: string[];
  header: string;
}

/** The `x-mcp-header` declarations reachable from the schema's root through `properties`. */
export function headerDeclarations(schema: unknown, path: string[] = []): Declaration[] {
  if (!schema || typeof schema !== 'object') return [];
  const node = schema as { properties?: unknown; 'x-mcp-header'?: unknown };
  const own = path.length && typeof node['x-mcp-header'] === 'string' ? [{ path, header: node['x-mcp-header'] }] : [];
  const props = node.properties && typeof node.properties === 'object' ? Object.entries(node.properties as Record<string, unknown>) : [];
  return [...own, ...props.flatMap(([key, child]) => headerDeclarations(child, [...path, key]))];
}

function plain(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value)))
    return String(value);
  return undefined;
}

function needsBase64(s: string): boolean {
  if (s === '' || s !== s.trim() || (s.startsWith(SENTINEL_START) && s.endsWith(SENTINEL_END))) return true;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c !== 9 && (c < 32 || c > 126)) return true;
  }
  return false;
}

export function encodeParamValue(s: string): string {
  if (!needsBase64(s)) return s;
  let bin = '';
  for (const b of new TextEncoder().encode(s)) bin += String.fromCharCode(b);
  return `${SENTINEL_START}${btoa(bin)}${SENTINEL_END}`;
}

/** The headers for a call of a tool with `schema` and `args`. */
export function paramHeaders(schema: unknown, args: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { path, header } of headerDeclarations(schema)) {
    let value: unknown = args;
    for (const key of path) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    const text = value === null || value === undefined ? undefined : plain(value);
    if (text !== undefined) out[`${PREFIX}${header}`] = encodeParamValue(text);
  }
  return out;
}
