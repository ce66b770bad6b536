/**
 * Operation ids tie one tool call together across the agent, the service worker and the
 * offscreen SDK request (SPEC H2), so an abort issued anywhere reaches the right request.
 * They are random rather than counters because a restarted service worker starts counting
 * again while the offscreen document still remembers the old ids.
 */

const OPERATION_ID_PATTERN = /^op_[0-9a-f]{32}$/;

/** A fresh id: `op_` and 128 random bits as hex. */
export function newOperationId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `op_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Whether a value received over a message boundary is shaped like one of our ids. */
export function isOperationId(value: unknown): value is string {
  return typeof value === 'string' && OPERATION_ID_PATTERN.test(value);
}
