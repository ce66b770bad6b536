/**
 * How the extension names itself to others: the MCP `clientInfo` it sends servers and the
 * `hostInfo` it gives MCP App views. The version is manifest.json's (a unit test keeps them equal).
 */
export const EXTENSION_INFO = { name: 'remote-mcp-for-chrome', version: '0.1.0' } as const;
