/**
 * What the request log calls a worker → offscreen request and what it shows of it (SPEC J2):
 * the MCP message it stands for, so the log speaks the protocol the server sees, and its
 * JSON-RPC params without any credential-bearing field.
 */
import type { OffscreenMethod } from '../../protocol/offscreen.js';
import type { RequestLogEntry } from '../../storage/request-log.js';

type Named = Pick<RequestLogEntry, 'method' | 'subject' | 'notification'>;

const LIST_METHODS: Record<string, string> = {
  tools: 'tools/list',
  prompts: 'prompts/list',
  resources: 'resources/list',
  resourceTemplates: 'resources/templates/list',
};

/**
 * The MCP message a worker → offscreen request stands for, so the log speaks the protocol the
 * server sees (`tools/call echo`), not our internal names. Requests without a JSON-RPC message
 * of their own (closing a session, handing it a token) are named as session steps.
 */
export function jsonRpcName(method: OffscreenMethod, p: Record<string, unknown>): Named {
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const withSubject = (name: string, subject: unknown): Named => {
    const s = text(subject);
    return s === undefined ? { method: name } : { method: name, subject: s };
  };
  switch (method) {
    case 'offscreen:connect':
      return withSubject('initialize', p['url']);
    case 'offscreen:list-category':
      return { method: LIST_METHODS[String(p['category'])] ?? 'list' };
    case 'offscreen:call-tool':
      return withSubject('tools/call', p['name']);
    case 'offscreen:get-prompt':
      return withSubject('prompts/get', p['name']);
    case 'offscreen:read-resource':
      return withSubject('resources/read', p['uri']);
    case 'offscreen:complete':
      return withSubject('completion/complete', (p['argument'] as { name?: unknown } | undefined)?.name);
    case 'offscreen:cancel':
      return { method: 'notifications/cancelled', notification: true };
    case 'offscreen:ping':
      return { method: 'ping' };
    default:
      return { method: method.replace(/^offscreen:/, 'session:') };
  }
}

/**
 * The request as logged: the JSON-RPC params where there is such a message, and no
 * credential-bearing fields at all, whatever redaction would do.
 */
export function loggable(method: OffscreenMethod, p: Record<string, unknown>): unknown {
  switch (method) {
    case 'offscreen:connect':
      return { url: p['url'], timeoutMs: p['timeoutMs'], headerNames: Object.keys((p['headers'] as object | undefined) ?? {}) };
    case 'offscreen:set-authorization':
      return { connectionId: p['connectionId'] };
    case 'offscreen:call-tool':
    case 'offscreen:get-prompt':
      return { name: p['name'], arguments: p['arguments'] };
    case 'offscreen:read-resource':
      return { uri: p['uri'] };
    case 'offscreen:list-category':
      return {};
    case 'offscreen:cancel':
      return { requestId: p['operationId'] };
    default:
      return p;
  }
}
