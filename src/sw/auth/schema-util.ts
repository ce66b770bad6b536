/**
 * Turns `zod/mini` issues into a short plain-words list. `zod/mini` ships no messages (that is
 * part of why it is small), so we say which field failed and how.
 */
import type * as z from 'zod/mini';

/** e.g. `client_id: too_small; scope: invalid_type`. */
export function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(body)'}: ${i.code.replace(/_/g, ' ')}`)
    .join('; ');
}
