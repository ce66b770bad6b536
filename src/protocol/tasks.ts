/**
 * One task as the offscreen document holds it and the panel lists it (SPEC R6: the task list).
 * A task is a call of a tool that runs only as a task; the document follows it to its end, also
 * while no worker is there to hear it, and keeps the last ones of each server with a short
 * preview of their result. The same shape goes offscreen → worker (claim, `offscreen:task`) and
 * worker → panel (`panel:tasks`); everything in it but the ids and times is the server's, shown
 * as text.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { WordingSchema } from './wording.js';

/** `working` and `input_required` are running; the other three are ended. */
export const TASK_STATES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;
export type TaskState = (typeof TASK_STATES)[number];
export const isRunningTask = (state: TaskState) => state === 'working' || state === 'input_required';

/** The result preview: the text parts of the result, cut to this many characters. */
export const MAX_TASK_PREVIEW = 4_000;
/** A status message or an error message longer than this is cut. */
export const MAX_TASK_MESSAGE = 1_000;
/** Ended tasks the document keeps per server (the oldest go first); running ones are bounded by the calls in flight. */
export const MAX_ENDED_TASKS_PER_SERVER = 20;
/** Every task the document keeps, running and ended. */
export const MAX_TASKS = 200;

const id = lazySchema(() => z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)));

export const TaskViewSchema = lazySchema(() =>
  z.object({
    /** The call that runs the task: Cancel sends `panel:cancel-call` with it. */
    operationId: id,
    serverId: id,
    tool: z.string().check(z.minLength(1), z.maxLength(1024)),
    /** The server's task id, once it has created the task. */
    taskId: z.optional(z.string().check(z.maxLength(256))),
    state: z.enum(TASK_STATES),
    /** The server's last status message, or the error of a failed task. */
    message: z.optional(z.string().check(z.maxLength(MAX_TASK_MESSAGE + 1))),
    /** Our own words for why a task ended without a result, in the user's language. */
    wording: WordingSchema,
    startedAt: z.number(),
    endedAt: z.optional(z.number()),
    /** The text of a completed task's result, cut to {@link MAX_TASK_PREVIEW}. */
    preview: z.optional(z.string().check(z.maxLength(MAX_TASK_PREVIEW + 1))),
    /** The result is a tool error (`isError`). */
    isError: z.optional(z.literal(true)),
  }),
);
export type TaskView = z.infer<typeof TaskViewSchema>;

export const TaskListSchema = lazySchema(() => z.array(TaskViewSchema).check(z.maxLength(MAX_TASKS)));
