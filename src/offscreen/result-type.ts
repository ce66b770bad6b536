/**
 * SEP-2322 (2026-07-28, multi round-trip requests): a client MUST take a result without
 * `resultType` as `"complete"`. The v2 client refuses such a result instead ("missing required
 * resultType"), so a server that leaves it out would have every answer fail. Each JSON-RPC result
 * of a modern answer — a JSON body, or each event of a stream — gets `resultType: "complete"` when
 * it has none, before the client reads it; a result that names a type keeps it (R4).
 *
 * A `tools/call` answered with a task handle (`resultType: "task"`, the Tasks extension, R6) is one
 * the v2 client 2.4.0 cannot take either ("unsupported result type"): it becomes an error whose
 * data carries the handle under {@link TASK_HANDLE_KEY}, so the client's call ends and the session
 * follows the task itself (modern-task.ts). The key holds a random part, so no server can make an
 * error of its own look like a handle. Only a `tools/call` answer is read so: a task for any other
 * request stays the invalid answer the extension says it is.
 */
import { sseEventData } from '../common/sse-text.js';
import { randomId } from '../common/random-id.js';

/** Where the rewritten error keeps the server's task handle. */
export const TASK_HANDLE_KEY = `remote-mcp/task-handle/${randomId()}`;

/** The task handle in an error the rewrite made, if it is one. */
export function taskHandleOf(error: unknown): Record<string, unknown> | undefined {
  const data = (error as { data?: unknown } | null)?.data;
  const handle = data && typeof data === 'object' ? (data as Record<string, unknown>)[TASK_HANDLE_KEY] : undefined;
  return handle && typeof handle === 'object' && !Array.isArray(handle) ? (handle as Record<string, unknown>) : undefined;
}

/** The message with `result.resultType` defaulted to "complete" (and, for a `tools/call`, a task handle made an error); anything else unchanged. */
export function withDefaultResultType(text: string, toolCall = false): string {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return text;
  }
  const fix = (m: unknown): boolean => {
    const result = (m as { result?: unknown } | null)?.result;
    if (!result || typeof result !== 'object' || Array.isArray(result)) return false;
    const fields = result as Record<string, unknown>;
    if (toolCall && fields['resultType'] === 'task') {
      const message = m as Record<string, unknown>;
      delete message['result'];
      message['error'] = { code: -32000, message: 'The server runs this call as a task.', data: { [TASK_HANDLE_KEY]: fields } };
      return true;
    }
    if ('resultType' in fields) return false;
    fields['resultType'] = 'complete';
    return true;
  };
  const changed = Array.isArray(message) ? message.map(fix).some(Boolean) : fix(message);
  return changed ? JSON.stringify(message) : text;
}

/** One event of a stream with its `data:` lines' message defaulted (see above). */
function fixEvent(event: string, toolCall: boolean): string {
  const joined = sseEventData(event);
  if (joined === undefined) return event;
  const lines = event.split(/\r?\n/);
  const fixed = withDefaultResultType(joined, toolCall);
  if (fixed === joined) return event;
  return [...lines.filter((l) => !l.startsWith('data:')), `data: ${fixed}`].join('\n');
}

/** The response with every result defaulted; bodies other than JSON and event streams pass as they are. */
export function defaultResultTypes(response: Response, toolCall = false): Response {
  const type = (response.headers.get('content-type') ?? '').toLowerCase();
  if (!response.body || !(type.includes('application/json') || type.includes('text/event-stream'))) return response;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  const init = { status: response.status, statusText: response.statusText, headers };
  const encoder = new TextEncoder();
  if (type.includes('application/json')) {
    // The client reads a JSON answer whole anyway, and it was bounded before it gets here; a
    // bound's error still comes from reading the body, as before.
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        try {
          controller.enqueue(encoder.encode(withDefaultResultType(await response.text(), toolCall)));
          controller.close();
        } catch (e) {
          controller.error(e);
        }
      },
    });
    return new Response(body, init);
  }
  let pending = '';
  const decoder = new TextDecoder();
  const events = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      const parts = pending.split(/(\r?\n\r?\n)/);
      pending = parts.pop() ?? '';
      for (let i = 0; i < parts.length; i += 2)
        controller.enqueue(encoder.encode(fixEvent(parts[i] ?? '', toolCall) + (parts[i + 1] ?? '')));
    },
    flush(controller) {
      if (pending) controller.enqueue(encoder.encode(fixEvent(pending, toolCall)));
    },
  });
  return new Response(response.body.pipeThrough(events), init);
}
