/**
 * What changed between two server lists, in the terms the connection manager acts on: a
 * URL or credential change means the old session and its tokens must go (E10); a toggle
 * means enable/disable or re-filter tools; anything else may need no reconnect at all.
 * Keeping this pure lets the manager's reaction be tested as a table.
 */
import type { McpServerConfig } from './config-schema.js';
import { SERVERS_KEY } from './config-schema.js';
import { parseServerList } from './config-store.js';
import type { KeyValueArea } from './ports.js';

export type ConfigChange =
  | { kind: 'added'; id: string; after: McpServerConfig }
  | { kind: 'removed'; id: string; before: McpServerConfig }
  | { kind: 'url-changed'; id: string; before: string; after: string }
  | { kind: 'auth-binding-changed'; id: string; fields: string[] }
  | {
      kind: 'toggles-changed';
      id: string;
      enabled?: boolean;
      connectOnStartup?: boolean;
      toolsDisabled: string[];
      toolsEnabled: string[];
    }
  | { kind: 'other-changed'; id: string; fields: string[] };

/** Auth fields whose change makes existing credentials and sessions unusable. */
const BINDING_FIELDS = ['kind', 'token', 'clientId', 'clientSecret', 'binding', 'registration'] as const;
const TOGGLE_FIELDS = new Set(['enabled', 'connectOnStartup', 'disabledTools']);

export function diffConfigs(before: readonly McpServerConfig[], after: readonly McpServerConfig[]): ConfigChange[] {
  const changes: ConfigChange[] = [];
  const old = new Map(before.map((s) => [s.id, s]));
  const now = new Map(after.map((s) => [s.id, s]));
  for (const [id, server] of old) if (!now.has(id)) changes.push({ kind: 'removed', id, before: server });
  for (const [id, b] of now) {
    const a = old.get(id);
    if (!a) {
      changes.push({ kind: 'added', id, after: b });
      continue;
    }
    changes.push(...diffServer(a, b));
  }
  return changes;
}

function diffServer(a: McpServerConfig, b: McpServerConfig): ConfigChange[] {
  const id = b.id;
  const changes: ConfigChange[] = [];
  if (a.url !== b.url) changes.push({ kind: 'url-changed', id, before: a.url, after: b.url });

  const authA = a.auth as Record<string, unknown>;
  const authB = b.auth as Record<string, unknown>;
  const bindingFields = BINDING_FIELDS.filter((f) => !sameJson(authA[f], authB[f])).map((f) => `auth.${f}`);
  if (bindingFields.length > 0) changes.push({ kind: 'auth-binding-changed', id, fields: bindingFields });

  const disabledA = new Set(a.disabledTools);
  const disabledB = new Set(b.disabledTools);
  const toolsDisabled = b.disabledTools.filter((t) => !disabledA.has(t));
  const toolsEnabled = a.disabledTools.filter((t) => !disabledB.has(t));
  if (a.enabled !== b.enabled || a.connectOnStartup !== b.connectOnStartup || toolsDisabled.length + toolsEnabled.length > 0) {
    changes.push({
      kind: 'toggles-changed',
      id,
      ...(a.enabled !== b.enabled ? { enabled: b.enabled } : {}),
      ...(a.connectOnStartup !== b.connectOnStartup ? { connectOnStartup: b.connectOnStartup } : {}),
      toolsDisabled,
      toolsEnabled,
    });
  }

  const others: string[] = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (key === 'id' || key === 'url' || key === 'auth' || TOGGLE_FIELDS.has(key)) continue;
    if (!sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) others.push(key);
  }
  const bindingSet = new Set<string>(BINDING_FIELDS);
  for (const key of new Set([...Object.keys(authA), ...Object.keys(authB)])) {
    if (!bindingSet.has(key) && !sameJson(authA[key], authB[key])) others.push(`auth.${key}`);
  }
  if (others.length > 0) changes.push({ kind: 'other-changed', id, fields: others.sort() });
  return changes;
}

/** Structural equality of JSON-like values, independent of key order. */
function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * Calls `cb` with the diff of every write to `mcp_servers`, from any context. Invalid
 * entries are left out of both sides (they are reported by the store's reads). Returns
 * the unsubscribe function.
 */
export function watchConfig(area: KeyValueArea, cb: (changes: ConfigChange[]) => void): () => void {
  return area.onChanged((changes) => {
    const change = changes[SERVERS_KEY];
    if (!change) return;
    const diff = diffConfigs(parseServerList(change.oldValue).servers, parseServerList(change.newValue).servers);
    if (diff.length > 0) cb(diff);
  });
}
