/**
 * English message catalog: the source of `_locales/en/messages.json` (written by the build).
 * Keys are the type `MessageKey`, so a catalog missing one fails the type check.
 */
export const en = {
  extName: { message: 'Remote MCP for Chrome' },
  extDescription: { message: 'Use remote MCP servers (Streamable HTTP) from the side panel, with nothing to install.' },
  openPanel: { message: 'Open the Remote MCP side panel' },
  panelTitle: { message: 'Remote MCP servers' },
  statusDisconnected: { message: 'Disconnected' },
  statusConnecting: { message: 'Connecting…' },
  statusReady: { message: 'Ready' },
  statusNeedsAuth: { message: 'Needs authorization' },
  statusError: { message: 'Error' },
  serverActions: { message: 'Server actions' },
  connect: { message: 'Connect' },
  disconnect: { message: 'Disconnect' },
  enable: { message: 'Enable' },
  disable: { message: 'Disable' },
  delete: { message: 'Delete' },
  cancel: { message: 'Cancel' },
  grantAccess: { message: 'Grant access' },
  confirmDelete: { message: 'Delete "$NAME$"?', placeholders: { name: { content: '$1' } } },
  toolsOf: { message: 'Tools of $NAME$', placeholders: { name: { content: '$1' } } },
  toolCount: { message: '$ON$ of $ALL$ tools enabled', placeholders: { on: { content: '$1' }, all: { content: '$2' } } },
  noServers: { message: 'No servers yet. Add one below.' },
  addServer: { message: 'Add a server' },
  serverName: { message: 'Name' },
  serverUrl: { message: 'MCP server URL' },
  authKind: { message: 'Authorization' },
  authNone: { message: 'None' },
  authBearer: { message: 'Bearer token' },
  bearerToken: { message: 'Token (stored encrypted)' },
  tokenRequired: { message: 'Enter the bearer token, or choose "None".' },
  add: { message: 'Add' },
  adding: { message: 'Adding…' },
  added: { message: 'Added.' },
  permissionDenied: { message: 'Chrome did not grant access to $ORIGIN$. The server was added; click "Grant access" on its card to ask again.', placeholders: { origin: { content: '$1' } } },
  toolRunner: { message: 'Run a tool' },
  tool: { message: 'Tool' },
  argumentsJson: { message: 'Arguments (JSON object)' },
  run: { message: 'Run' },
  running: { message: 'Running…' },
  result: { message: 'Result' },
  argumentsNotJson: { message: 'The arguments are not valid JSON.' },
  argumentsNotObject: { message: 'The arguments must be a JSON object, like {"text": "hi"}.' },
  toolReportedError: { message: 'The tool reported an error:' },
  configError: { message: 'A stored server entry is invalid and was kept as it is:' },
} as const;

export type MessageKey = keyof typeof en;
export interface Message {
  message: string;
  placeholders?: Record<string, { content: string }>;
}
export type Catalog = Record<MessageKey, Message>;
