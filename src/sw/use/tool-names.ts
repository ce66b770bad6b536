/**
 * Names under which remote tools are exposed to the agent (SPEC G1, G4).
 *
 * Agent tool names follow the common model-API rule `^[a-zA-Z0-9_-]{1,64}$`, while MCP tool
 * names may contain dots and be 128 characters long, and server ids may contain `__`. So the
 * plain form `mcp__{serverId}__{toolName}` is sanitized and, when that is not enough to keep
 * names unique and short, shortened with a hash of the *original* pair. Hashes are
 * FNV-1a (32-bit): synchronous, pure, the same on every run, which keeps a tool's name stable
 * across service-worker restarts. They are not a security boundary; uniqueness is enforced
 * by {@link buildToolNameMap}, not by the hash.
 */

export const MAX_AGENT_TOOL_NAME_LENGTH = 64;
const HASH_LENGTH = 8;
const UNSAFE = /[^a-zA-Z0-9_-]/g;

/** 32-bit FNV-1a over the UTF-8 bytes of `text`, as 8 lowercase hex digits. */
export function fnv1a32(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(HASH_LENGTH, '0');
}

function plainName(serverId: string, toolName: string): string {
  return `mcp__${serverId}__${toolName}`.replace(UNSAFE, '_');
}

function hashedName(serverId: string, toolName: string, salt: number): string {
  const base = plainName(serverId, toolName);
  const hash = fnv1a32(`${serverId}\u0000${toolName}${salt > 0 ? `\u0000${salt}` : ''}`);
  return `${base.slice(0, MAX_AGENT_TOOL_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}

/**
 * The agent-facing name of one tool, considered alone: the sanitized plain form, or when it
 * is over 64 characters, a prefix of it plus `_` and a hash. {@link buildToolNameMap} may
 * pick a hashed form for a tool whose plain form collides with another tool's.
 */
export function agentToolName(serverId: string, toolName: string): string {
  const plain = plainName(serverId, toolName);
  return plain.length <= MAX_AGENT_TOOL_NAME_LENGTH ? plain : hashedName(serverId, toolName, 0);
}

export interface ToolRef {
  serverId: string;
  toolName: string;
}

export interface ServerTools {
  serverId: string;
  tools: readonly string[];
  /** `disabledTools` from the config: never exposed, never callable (SPEC G4). */
  disabled: readonly string[];
}

/**
 * Agent name → tool, for every enabled tool of every server, with no two tools sharing a
 * name. Deterministic for a given input regardless of server or tool order.
 *
 * When several tools map to the same {@link agentToolName}, a tool whose plain name needed no
 * change keeps it if it is the only such tool in the group (so `a_b` stays `…__a_b` when a
 * sibling `a.b` appears); every other tool in the group gets a hashed name. A hashed name
 * that is still taken is re-hashed with a counter.
 */
export function buildToolNameMap(servers: readonly ServerTools[]): Map<string, ToolRef> {
  const refs: ToolRef[] = [];
  const seen = new Set<string>();
  for (const server of servers) {
    const disabled = new Set(server.disabled);
    for (const toolName of server.tools) {
      const key = `${server.serverId}\u0000${toolName}`;
      if (disabled.has(toolName) || seen.has(key)) continue;
      seen.add(key);
      refs.push({ serverId: server.serverId, toolName });
    }
  }
  refs.sort((a, b) => compare(a.serverId, b.serverId) || compare(a.toolName, b.toolName));

  const groups = new Map<string, ToolRef[]>();
  for (const ref of refs) {
    const name = agentToolName(ref.serverId, ref.toolName);
    const group = groups.get(name);
    if (group) group.push(ref);
    else groups.set(name, [ref]);
  }

  const result = new Map<string, ToolRef>();
  const needHash: ToolRef[] = [];
  for (const [name, group] of groups) {
    if (group.length === 1) {
      result.set(name, group[0]!);
      continue;
    }
    const exact = group.filter((ref) => `mcp__${ref.serverId}__${ref.toolName}` === name);
    if (exact.length === 1) {
      result.set(name, exact[0]!);
      needHash.push(...group.filter((ref) => ref !== exact[0]));
    } else {
      needHash.push(...group);
    }
  }
  for (const ref of needHash) {
    let salt = 0;
    let name = hashedName(ref.serverId, ref.toolName, salt);
    while (result.has(name)) name = hashedName(ref.serverId, ref.toolName, ++salt);
    result.set(name, ref);
  }
  return result;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
