/**
 * Recognises an answer saying the server no longer knows our MCP session (SPEC C7, N7). A
 * server that forgot a session answers 404 as the specification says; many restarted servers
 * (the reference `server-everything`, the SDK's own examples) answer 400 with a text such as
 * "No valid session ID provided" or "Server not initialized" instead. Only an answer to a
 * request that carried a session id counts: before the session exists, 400 and 404 mean
 * something else (a wrong URL, a bad request).
 */

/** How much of a 400 body is read to find the reason; the SDK reads the whole body itself. */
const PEEK_BYTES = 4096;

const SESSION_UNKNOWN = [
  /session[^.]{0,40}\b(unknown|invalid|missing|not found|expired|terminated|does not exist|no longer)/i,
  /\b(no valid|unknown|invalid|missing)\b[^.]{0,20}session/i,
  /not initiali[sz]ed/i,
];

/**
 * The reason to report when `response` says the session is gone, else undefined. Reads a copy
 * of a 400 body (at most {@link PEEK_BYTES}); the response itself is left unread.
 */
export async function sessionLossOf(response: Response, carriedSessionId: boolean): Promise<string | undefined> {
  if (!carriedSessionId) return undefined;
  if (response.status === 404) return 'HTTP 404';
  if (response.status !== 400 || !response.body) return undefined;
  const text = await peek(response.clone(), PEEK_BYTES);
  const said = reasonIn(text);
  return said !== undefined && SESSION_UNKNOWN.some((re) => re.test(said)) ? `HTTP 400 "${said.slice(0, 120)}"` : undefined;
}

/** The JSON-RPC error message of a JSON body, or the text itself. */
function reasonIn(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof body.error === 'object' ? body.error.message : (body.error ?? body.message);
    if (typeof message === 'string') return message;
  } catch {
    // Not JSON: the text itself is the reason.
  }
  return text.trim() || undefined;
}

async function peek(response: Response, max: number): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < max) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // A body that errors (cut off, too large) says nothing more.
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return text.slice(0, max);
}
