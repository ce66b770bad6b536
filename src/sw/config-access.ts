/**
 * The worker's access to the stored server list: every entry is validated on its own, an
 * invalid entry is reported and carried through writes untouched (SPEC B1), and writes are
 * serialized so two racing updates never lose each other.
 */
import { McpServerConfigSchema, SERVERS_KEY, type McpServerConfig } from '../storage/config-schema.js';

export interface ConfigRead {
  servers: McpServerConfig[];
  invalid: { index: number; id?: string; message: string }[];
}

export function validateEntries(raw: unknown): ConfigRead {
  const list = Array.isArray(raw) ? raw : [];
  const out: ConfigRead = { servers: [], invalid: [] };
  if (raw !== undefined && !Array.isArray(raw)) {
    out.invalid.push({ index: -1, message: `"${SERVERS_KEY}" is not a list; nothing was loaded and nothing will be overwritten.` });
  }
  list.forEach((entry, index) => {
    const parsed = McpServerConfigSchema.safeParse(entry);
    if (parsed.success) out.servers.push(parsed.data);
    else {
      const id = typeof (entry as { id?: unknown })?.id === 'string' ? String((entry as { id: string }).id).slice(0, 64) : undefined;
      const issue = parsed.error.issues[0];
      const where = issue?.path.join('.') || 'entry';
      out.invalid.push({ index, ...(id ? { id } : {}), message: `Stored server #${index + 1} is invalid at "${where}": ${issue?.message ?? 'unknown error'}.` });
    }
  });
  return out;
}

export async function readServers(): Promise<ConfigRead> {
  const got = await chrome.storage.local.get(SERVERS_KEY);
  return validateEntries(got[SERVERS_KEY]);
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Read-modify-write under one queue. `fn` receives the valid servers and returns the new list;
 * invalid raw entries are appended back unchanged so a write never destroys them.
 */
export function updateServers<T>(fn: (servers: McpServerConfig[]) => { servers: McpServerConfig[]; result: T }): Promise<T> {
  const run = queue.then(async () => {
    const got = await chrome.storage.local.get(SERVERS_KEY);
    const raw = got[SERVERS_KEY];
    if (raw !== undefined && !Array.isArray(raw)) throw new Error('Stored server list is corrupt; refusing to overwrite it.');
    const { servers } = validateEntries(raw);
    const invalidRaw = (Array.isArray(raw) ? raw : []).filter((e) => !McpServerConfigSchema.safeParse(e).success);
    const { servers: next, result } = fn(servers);
    await chrome.storage.local.set({ [SERVERS_KEY]: [...next, ...invalidRaw] });
    return result;
  });
  queue = run.catch(() => undefined);
  return run;
}

/** A slug id safe in tool names (SPEC B5): `[a-z0-9_-]`, at most 32 chars, unique. */
export function slugify(name: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const base =
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 28) || 'server';
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
