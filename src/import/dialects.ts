/**
 * Recognises which tool a pasted configuration came from (SPEC B2) and lists its entries. The
 * dialect matters for meaning, not just for the label: Gemini's `url` is SSE, VS Code declares
 * `inputs` that label `${input:id}`, Gemini expands bare `$VAR`.
 */
import type { Dialect } from './import-schema.js';
import { MAX_ENTRIES } from './limits.js';
import { EMPTY_CONTEXT, type InputDeclaration, type PlaceholderContext } from './placeholders.js';
import { type RawEntry, isRecord } from './raw-entry.js';
import { readServerEntry } from './server-entry.js';
import { EXPORT_FORMAT, EXPORT_VERSION } from '../storage/config-export.js';

export interface DialectRead {
  dialect: Dialect;
  entries: RawEntry[];
  context: PlaceholderContext;
  errors: string[];
}

const NOT_RECOGNISED =
  'No MCP server configuration found: expected "mcpServers" (Claude, Cursor, Windsurf, Gemini), "servers" (VS Code), our export, or a server object with a "url".';
const URL_KEYS = ['url', 'serverUrl', 'httpUrl', 'command'];
/** Keys only Gemini's per-server settings have. */
const GEMINI_ENTRY_KEYS = ['httpUrl', 'includeTools', 'excludeTools', 'trust', 'authProviderType'];
/** Top-level sections of Gemini CLI's settings.json that other tools' files do not have. */
const GEMINI_TOP_KEYS = [
  'general',
  'ui',
  'model',
  'context',
  'tools',
  'security',
  'advanced',
  'telemetry',
  'mcp',
  'theme',
  'selectedAuthType',
  'checkpointing',
  'privacy',
  'ide',
  'experimental',
  'extensions',
];

export function readDialect(value: unknown): DialectRead {
  if (Array.isArray(value)) {
    return (
      tooMany(value.length, 'list') ??
      plain(
        'list',
        value.map((item) => readServerEntry(nameOf(item), item, 'standard')),
      )
    );
  }
  if (!isRecord(value)) return failure(NOT_RECOGNISED);
  if (value.format === EXPORT_FORMAT) return readExport(value);
  if (isRecord(value.mcp) && isRecord(value.mcp.servers)) return readVsCode(value.mcp);
  if (isRecord(value.servers)) return readVsCode(value);
  if (isRecord(value.mcpServers)) return readMcpServers(value.mcpServers, value);
  if (Array.isArray(value.servers)) return readDialect(value.servers);
  if (URL_KEYS.some((key) => key in value) || 'type' in value) {
    return plain('single', [readServerEntry(nameOf(value), value, 'standard')]);
  }
  const values = Object.values(value);
  if (values.length > 0 && values.every(isRecord) && values.some((item) => URL_KEYS.some((key) => key in item))) {
    return readMcpServers(value, {}, 'server-map');
  }
  return failure(NOT_RECOGNISED);
}

function readExport(value: Record<string, unknown>): DialectRead {
  if (value.version !== EXPORT_VERSION) {
    return failure(
      `This export has version ${String(value.version).slice(0, 20)}; this version of the extension reads version ${EXPORT_VERSION}.`,
      'export',
    );
  }
  if (!Array.isArray(value.servers)) return failure('The export has no "servers" list.', 'export');
  return (
    tooMany(value.servers.length, 'export') ??
    plain(
      'export',
      value.servers.map((item) => withPins(readServerEntry(nameOf(item), item, 'standard'), item)),
    )
  );
}

/** Our export also carries the entry's pinned definitions and its "review new tools" (S2). */
function withPins(raw: RawEntry, item: unknown): RawEntry {
  if (raw.skip || !isRecord(item)) return raw;
  return {
    ...raw,
    ...(item.pins !== undefined ? { pins: item.pins } : {}),
    ...(item.reviewNewTools !== undefined ? { reviewNewTools: item.reviewNewTools } : {}),
  };
}

function readVsCode(value: Record<string, unknown>): DialectRead {
  const servers = value.servers as Record<string, unknown>;
  const names = Object.keys(servers);
  const limit = tooMany(names.length, 'vscode');
  if (limit) return limit;
  const inputs = new Map<string, InputDeclaration>();
  if (Array.isArray(value.inputs)) {
    for (const input of value.inputs.slice(0, MAX_ENTRIES)) {
      if (!isRecord(input) || typeof input.id !== 'string') continue;
      inputs.set(input.id, {
        ...(typeof input.description === 'string' ? { description: input.description.slice(0, 500) } : {}),
        password: input.password === true,
      });
    }
  }
  const entries = names.map((name) => readServerEntry(name, servers[name], 'standard'));
  return { dialect: 'vscode', entries, context: { inputs, bareDollar: false }, errors: [] };
}

function readMcpServers(servers: Record<string, unknown>, root: Record<string, unknown>, label?: Dialect): DialectRead {
  const names = Object.keys(servers);
  const limit = tooMany(names.length);
  if (limit) return limit;
  const items = names.map((name) => servers[name]).filter(isRecord);
  const gemini = items.some((item) => GEMINI_ENTRY_KEYS.some((key) => key in item)) || GEMINI_TOP_KEYS.some((key) => key in root);
  const entries = names.map((name) => readServerEntry(name, servers[name], gemini ? 'gemini' : 'standard'));
  const dialect = label ?? (gemini ? 'gemini' : guessMcpServersDialect(items));
  return { dialect, entries, context: { inputs: new Map(), bareDollar: gemini }, errors: [] };
}

/** Label only: all these dialects are read the same way. */
function guessMcpServersDialect(items: Record<string, unknown>[]): Dialect {
  if (items.some((item) => 'serverUrl' in item)) return 'windsurf';
  if (items.some((item) => 'type' in item)) return 'claude-code';
  if (items.some((item) => 'url' in item)) return 'cursor';
  return 'claude-desktop';
}

/** An entry's own `name`, or '' to let the builder name it after its host. */
function nameOf(item: unknown): string {
  if (isRecord(item) && typeof item.name === 'string' && item.name.trim() !== '') return item.name;
  return '';
}

function plain(dialect: Dialect, entries: RawEntry[]): DialectRead {
  return { dialect, entries, context: EMPTY_CONTEXT, errors: [] };
}

function failure(error: string, dialect: Dialect = 'unknown'): DialectRead {
  return { dialect, entries: [], context: EMPTY_CONTEXT, errors: [error] };
}

function tooMany(count: number, dialect: Dialect = 'unknown'): DialectRead | undefined {
  if (count <= MAX_ENTRIES) return undefined;
  return failure(`The paste holds ${count} servers; at most ${MAX_ENTRIES} can be imported at once.`, dialect);
}
