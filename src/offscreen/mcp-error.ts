/**
 * What a JSON-RPC error from the SDK means to the user (SPEC C1, N10): our own local failures
 * keep their code, the SDK's timeout and closed connection say so, and anything the server
 * answered is quoted once, without the SDK's prefix.
 */
import { ErrorCode, type McpError } from '@modelcontextprotocol/sdk/types.js';
import type { WireError } from '../protocol/result.js';
import { say } from '../protocol/wording.js';
import { localFailureOf } from './jsonrpc-guard.js';

/** The SDK's McpError puts "MCP error <code>: " before the server's message; say it once. */
function withoutSdkPrefix(message: string): string {
  let text = message;
  for (let i = 0; i < 5 && /^MCP error -?\d+: /.test(text); i++) text = text.replace(/^MCP error -?\d+: /, '');
  return text;
}

export function describeMcpError(e: McpError, origin: string): WireError {
  const local = localFailureOf(e.data);
  if (local) return { ...local };
  // McpError.code is a plain number (servers send any code); ErrorCode's members are numbers too.
  if (e.code === Number(ErrorCode.RequestTimeout)) return { code: 'timeout', ...say('reasonNoAnswerInTime', { origin }) };
  if (e.code === Number(ErrorCode.ConnectionClosed)) return { code: 'network', ...say('reasonConnectionClosed', { origin }) };
  return { code: 'protocol', ...say('reasonMcpError', { origin, code: e.code, detail: withoutSdkPrefix(e.message).slice(0, 500) }) };
}
