import type { ServerView } from '../../src/protocol/panel.js';

/** A ready server with no auth and an empty catalog, as the worker pushes it; tests override what they look at. */
export function serverView(overrides: Partial<ServerView> = {}): ServerView {
  return {
    id: 'demo',
    name: 'Demo',
    url: 'https://mcp.example.com/mcp',
    authKind: 'none',
    enabled: true,
    connectOnStartup: true,
    status: 'ready',
    tools: [],
    prompts: [],
    resources: [],
    resourceTemplates: [],
    disabledTools: [],
    ...overrides,
  };
}
