/**
 * Claude Desktop reaches remote servers through the `mcp-remote` stdio proxy
 * (`npx -y mcp-remote URL --header "Authorization: Bearer …"`). A browser needs no proxy, so
 * such an entry is recognised from its arguments and imported as the remote server it points at.
 * `${VAR}` in arguments is resolved from the entry's own `env` block, as the proxy would.
 */
import { asText } from '../common/as-text.js';
import { MAX_ARGS } from './limits.js';
import { resolveFromEnv } from './placeholders.js';
import { SSE, invalidField } from './reasons.js';
import { type RawEntry, isRecord, skipped } from './raw-entry.js';

const PACKAGE = /^mcp-remote(@[\w.^~<>=*-]+)?$/;
/** Options of mcp-remote that take a value, so that value is not read as the URL. */
const WITH_VALUE = new Set([
  '--header',
  '--transport',
  '--host',
  '--resource',
  '--auth-timeout',
  '--static-oauth-client-info',
  '--static-oauth-client-metadata',
  '--ignore-tool',
]);

/** Whether `command`/`args` run mcp-remote (directly, via npx, or via `cmd /c npx` on Windows). */
export function isMcpRemote(command: unknown, args: unknown): boolean {
  if (typeof command !== 'string') return false;
  const program =
    command
      .trim()
      .split(/[\\/]/)
      .pop()
      ?.replace(/\.(cmd|exe)$/i, '') ?? '';
  if (PACKAGE.test(program)) return true;
  return Array.isArray(args) && args.slice(0, MAX_ARGS).some((arg) => typeof arg === 'string' && PACKAGE.test(arg.trim()));
}

export function readMcpRemote(name: string, entry: Record<string, unknown>): RawEntry {
  const args = Array.isArray(entry.args) ? entry.args : [];
  if (args.length > MAX_ARGS || !args.every((arg) => typeof arg === 'string')) {
    return skipped(name, invalidField('mcp-remote arguments', `expected at most ${MAX_ARGS} strings`));
  }
  const env = readEnv(entry.env);
  const start = PACKAGE.test(
    asText(entry.command ?? '')
      .trim()
      .split(/[\\/]/)
      .pop() ?? '',
  )
    ? 0
    : args.findIndex((arg) => PACKAGE.test(arg.trim())) + 1;
  const raw: RawEntry = { name, headers: [], enabled: entry.disabled !== true, notes: [] };
  const ignored: string[] = [];
  for (let i = start; i < args.length; i += 1) {
    const arg = (args[i] as string).trim();
    const [flag, inlineValue] = splitFlag(arg);
    if (!flag.startsWith('--')) {
      if (raw.url === undefined) raw.url = resolveFromEnv(arg, env);
      continue;
    }
    let value = inlineValue;
    if (value === undefined && WITH_VALUE.has(flag)) {
      i += 1;
      value = typeof args[i] === 'string' ? args[i] : '';
    }
    if (value === undefined) continue;
    if (flag === '--header') {
      const header = splitHeader(resolveFromEnv(value, env));
      if (!header) return skipped(name, invalidField('--header', 'expected "Name: value"'), raw.url);
      raw.headers.push(header);
    } else if (flag === '--transport' && value.trim() === 'sse-only') {
      return skipped(name, SSE, raw.url);
    } else if (flag === '--static-oauth-client-info') {
      readClientInfo(value, raw);
    } else if (flag === '--ignore-tool') {
      ignored.push(value.trim());
    }
  }
  const exact = ignored.filter((tool) => tool !== '' && !tool.includes('*'));
  if (exact.length > 0) raw.disabledTools = exact;
  const patterns = ignored.filter((tool) => tool.includes('*'));
  if (patterns.length > 0) raw.notes.push(`tool patterns ${patterns.join(', ').slice(0, 200)} can be applied after connecting`);
  return raw;
}

function splitFlag(arg: string): [string, string | undefined] {
  if (!arg.startsWith('--')) return [arg, undefined];
  const equals = arg.indexOf('=');
  return equals === -1 ? [arg, undefined] : [arg.slice(0, equals), arg.slice(equals + 1)];
}

/** mcp-remote headers are `Name:value`; the space after the colon is often left out on purpose. */
function splitHeader(text: string): [string, string] | undefined {
  const colon = text.indexOf(':');
  if (colon <= 0) return undefined;
  return [text.slice(0, colon).trim(), text.slice(colon + 1).trim()];
}

function readEnv(value: unknown): Map<string, string> {
  const env = new Map<string, string>();
  if (!isRecord(value)) return env;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string') env.set(key, item);
  }
  return env;
}

function readClientInfo(value: string, raw: RawEntry): void {
  if (value.trim().startsWith('@')) {
    raw.notes.push('the OAuth client information is read from a file; enter the client ID by hand');
    return;
  }
  if (value.length > 8192) return;
  try {
    const info: unknown = JSON.parse(value);
    if (isRecord(info) && typeof info.client_id === 'string') {
      raw.authKind = 'oauth';
      raw.clientId = info.client_id;
    }
  } catch {
    raw.notes.push('the --static-oauth-client-info value is not JSON and was ignored');
  }
}
