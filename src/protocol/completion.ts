/**
 * `completion/complete` as the panel asks it of the worker and the worker of the offscreen
 * document (SPEC R8): one shape of the question, one bound of the answer (the protocol's own
 * maximum of 100 values, each cut to 1,024 characters).
 */
import * as z from 'zod/mini';

export const MAX_COMPLETIONS = 100;
export const MAX_COMPLETION_LENGTH = 1024;

/** The question's fields, beside whatever names the connection (a server id, a connection id). */
export function completionAskFields() {
  return {
    ref: z.union([
      z.object({ type: z.literal('ref/prompt'), name: z.string().check(z.minLength(1), z.maxLength(128)) }),
      z.object({ type: z.literal('ref/resource'), uri: z.string().check(z.minLength(1), z.maxLength(2048)) }),
    ]),
    argument: z.object({ name: z.string().check(z.minLength(1), z.maxLength(128)), value: z.string().check(z.maxLength(1024)) }),
    /** The other fields' values, for suggestions that depend on them. */
    context: z.optional(z.record(z.string().check(z.maxLength(128)), z.string().check(z.maxLength(1024)))),
  };
}

export function completionValues() {
  return z.array(z.string().check(z.maxLength(MAX_COMPLETION_LENGTH))).check(z.maxLength(MAX_COMPLETIONS));
}
