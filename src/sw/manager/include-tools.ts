/**
 * An imported allow-list of tools (Gemini CLI `includeTools`) can only be turned into the
 * stored deny-list once the server's tools are known: the tools the list leaves out start
 * disabled, the ones the user had disabled stay so, and the allow-list is then dropped, so a
 * tool the server adds later starts enabled like any other.
 */
import type { McpServerConfig } from '../../storage/config-schema.js';

/** The entry with its `includeTools` settled against the server's tool names; unchanged without one. */
export function settleIncludeTools(config: McpServerConfig, toolNames: readonly string[]): McpServerConfig {
  if (config.includeTools === undefined) return config;
  const { includeTools, ...rest } = config;
  const included = new Set(includeTools);
  const disabled = new Set(config.disabledTools);
  for (const name of toolNames) if (!included.has(name)) disabled.add(name);
  return { ...rest, disabledTools: [...disabled] };
}
