/**
 * The size of the tools a request offers (T2), measured on the definitions exactly as the
 * provider's adapter writes them into the request body (`openAiTools`, `anthropicTools`), so the
 * estimate the panel shows cannot drift from what is sent. Tokens are estimated as UTF-8 bytes ÷ 4,
 * the usual rule of thumb for JSON and English text; the panel says so next to the number.
 */
import { DEFAULT_TOOL_LIMITS, type PROVIDER_KINDS } from '../../protocol/panel-chat.js';
import type { AgentTool } from '../use/tool-registry.js';
import { utf8Length } from '../use/utf8.js';
import { anthropicTools } from './providers/anthropic.js';
import { openAiTools } from './providers/openai.js';
import type { ToolSpec } from './providers/types.js';

type Kind = (typeof PROVIDER_KINDS)[number];

export const BYTES_PER_TOKEN = 4;

/** A tool as the provider request names it: the AgentTool name, its description, the server's raw schema. */
export function toolSpecOf(tool: AgentTool): ToolSpec {
  return { name: tool.name, description: tool.description, inputSchema: tool.jsonSchema };
}

/** The `tools` of one request: the server tools offered, then the tools the chat answers itself. */
export function requestToolSpecs(tools: readonly AgentTool[], local: readonly ToolSpec[]): ToolSpec[] {
  return [...tools.map(toolSpecOf), ...local];
}

/** UTF-8 bytes of the definitions as the kind's adapter sends them, and the token estimate. */
export function measureTools(kind: Kind, specs: readonly ToolSpec[]): { bytes: number; tokens: number } {
  if (kind === 'builtin' || !specs.length) return { bytes: 0, tokens: 0 };
  const definitions = kind === 'anthropic' ? anthropicTools(specs) : openAiTools(specs);
  const bytes = utf8Length(JSON.stringify(definitions));
  return { bytes, tokens: Math.ceil(bytes / BYTES_PER_TOKEN) };
}

/** The most tools one request of this provider may offer: the setting, else the kind's default. */
export function toolLimitOf(provider: { kind: Kind; toolLimit?: number | undefined } | undefined): number {
  if (provider?.toolLimit !== undefined) return provider.toolLimit;
  return provider?.kind === 'anthropic' ? DEFAULT_TOOL_LIMITS.anthropic : DEFAULT_TOOL_LIMITS.openai;
}
