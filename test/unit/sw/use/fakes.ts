/** In-memory stand-ins for what cannot run in Node: chrome.storage.local and the manager's views. */
import type { StorageAreaLike } from '../../../../src/sw/use/approval-store.js';
import type { ServerView } from '../../../../src/protocol/panel.js';
import type { Tool } from '../../../../src/protocol/mcp-shapes.js';

export function memoryArea(): StorageAreaLike & { data: Record<string, unknown> } {
  const data: Record<string, unknown> = {};
  return {
    data,
    async get(key) {
      return key in data ? { [key]: structuredClone(data[key]) } : {};
    },
    async set(items) {
      for (const [k, v] of Object.entries(items)) data[k] = structuredClone(v);
    },
  };
}

export function tool(name: string, extra: Partial<Tool> = {}): Tool {
  return { name, inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, ...extra };
}

export function server(id: string, tools: Tool[], extra: Partial<ServerView> = {}): ServerView {
  return {
    id,
    name: id.toUpperCase(),
    url: `https://${id}.example/mcp`,
    authKind: 'none',
    enabled: true,
    connectOnStartup: true,
    status: 'ready',
    tools,
    prompts: [],
    resources: [],
    resourceTemplates: [],
    disabledTools: [],
    ...extra,
  };
}
