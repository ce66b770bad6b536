/**
 * Unmatched answers in a JSON batch (SPEC N6). The SDK parses a batch answer as one unit, so one
 * element with an id no request can carry (`null`, which JSON-RPC 2.0 §5 allows for an error
 * whose request id could not be read) would fail every answer in it. Such elements are taken
 * out and told to `onUnmatched` (logged as dropped); the rest is handed on unchanged. Only a
 * body that is a JSON array is read here: a single answer passes through untouched.
 */
import { isUnmatchableAnswer } from './event-check.js';

export async function withoutUnmatchedInBatch(response: Response, onUnmatched: (id: unknown) => void): Promise<Response> {
  if (!response.body || !(response.headers.get('content-type') ?? '').toLowerCase().includes('application/json')) return response;
  // The body is already size-bounded (response-limits.ts); reading it here replaces the SDK's read.
  const text = await response.text();
  const rebuilt = (body: string) =>
    new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  if (!text.trimStart().startsWith('[')) return rebuilt(text);
  let batch: unknown;
  try {
    batch = JSON.parse(text);
  } catch {
    return rebuilt(text);
  }
  if (!Array.isArray(batch) || !batch.some(isUnmatchableAnswer)) return rebuilt(text);
  const kept = batch.filter((m) => {
    if (!isUnmatchableAnswer(m)) return true;
    onUnmatched(m.id);
    return false;
  });
  return rebuilt(JSON.stringify(kept));
}
