/**
 * Panel ↔ worker messages for *using* servers (SPEC G1, H1, H2, K3): tool-call approvals, call
 * progress and cancellation. Kept apart from `panel.ts` so the connection-management protocol
 * stays readable; its request schemas are spread into the one panel request table there.
 * Pushes travel over the same panel Port as `panel:state`, each validated on receipt by the schema of its `type`.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import type { PushOf } from './push.js';
import { ServerIdSchema as serverId } from './server-id.js';
import { CallToolResultSchema, ToolSchema } from './mcp-shapes.js';
import { ComposerPanelRequestSchemas, ComposerPanelResponseSchemas } from './panel-composer.js';
import { WordingSchema } from './wording.js';
import { TaskListSchema } from './tasks.js';

const id = lazySchema(() => z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)));

/** `view`: allow the asking MCP App view to call this tool while it is open (U1); only a view's card offers it. */
const APPROVAL_DECISIONS = ['once', 'always', 'deny', 'view'] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

/** One call waiting for the user's decision, as the approval card shows it. */
const ApprovalViewSchema = lazySchema(() =>
  z.object({
    id,
    serverId,
    serverName: z.string().check(z.maxLength(256)),
    tool: z.string().check(z.maxLength(128)),
    toolTitle: z.optional(z.string().check(z.maxLength(512))),
    agentName: z.string().check(z.maxLength(128)),
    /** The caller's name in the user's language, when the caller is the extension's own (the chat, a view). */
    agentWording: WordingSchema,
    /** The caller's run (the chat's id for a chat): the card is shown with that run, never with another. */
    runId: z.optional(z.string().check(z.maxLength(128))),
    /** The arguments as pretty JSON, cut to a bounded length for display. */
    argumentsJson: z.string().check(z.maxLength(20_000)),
    annotations: z.optional(ToolSchema.shape.annotations),
    requestedAt: z.number(),
    /** An MCP App view asks: the card offers "Allow this view to call … while it is open" (U1). */
    viewGrant: z.optional(z.literal(true)),
    /** The tool's definition changed since it was pinned: its "always" grant is suspended (S2). */
    definitionChanged: z.optional(z.literal(true)),
    /** How many identical requests of the view this one card answers (U1: coalesced, not queued). */
    repeats: z.optional(z.number().check(z.int(), z.gte(2))),
    /**
     * `gone`: the agent call that asked ended when the worker restarted, and nothing was run; the
     * card stays, without its decision buttons, until the user dismisses it. Absent means `pending`.
     */
    status: z.optional(z.enum(['pending', 'gone'])),
  }),
);
export type ApprovalView = z.infer<typeof ApprovalViewSchema>;

const ELICITATION_ACTIONS = ['accept', 'decline', 'cancel'] as const;

/**
 * A server's form-mode question during a tool call (SPEC I1), or one that could no longer be
 * answered because the worker restarted (I3, `status: 'failed'` with the reason). `message` and
 * `requestedSchema` are the server's, untrusted: shown as text and a generated form.
 */
const ElicitationViewSchema = lazySchema(() =>
  z.object({
    id,
    serverId,
    serverName: z.string().check(z.maxLength(256)),
    tool: z.optional(z.string().check(z.maxLength(128))),
    /**
     * The operationId of the tool call during which the server asked, when known: the panel shows
     * the card next to the runner that started that call.
     */
    operationId: z.optional(z.string().check(z.maxLength(128))),
    message: z.string().check(z.maxLength(4096)),
    requestedSchema: z.unknown(),
    /** A URL-mode question (R5): the page the server asks the user to open; the card checks it again. */
    url: z.optional(z.string().check(z.maxLength(2048))),
    status: z.enum(['pending', 'failed']),
    reason: z.optional(z.string().check(z.maxLength(2048))),
    /** Whether the original call is known, so it can be re-run after the user's confirmation. */
    canRerun: z.boolean(),
    /** When the server asked (epoch ms): an open card shows how long it has waited. */
    askedAt: z.optional(z.number()),
    /** The server ended the call this long after asking: it stopped waiting for the answer (I1). */
    stoppedAfterSec: z.optional(z.number()),
  }),
);
export type ElicitationView = z.infer<typeof ElicitationViewSchema>;

/** The use area's pushes, by `type` (protocol/push.ts). */
export const UsePanelPushSchemas = {
  'panel:elicitations': lazySchema(() => z.object({ elicitations: z.array(ElicitationViewSchema).check(z.maxLength(100)) })),
  'panel:approvals': lazySchema(() => z.object({ approvals: z.array(ApprovalViewSchema).check(z.maxLength(100)) })),
  'panel:progress': lazySchema(() =>
    z.object({
      operationId: id,
      progress: z.number(),
      total: z.optional(z.number()),
      message: z.optional(z.string().check(z.maxLength(1024))),
    }),
  ),
  /** Every task the offscreen document runs and has run, oldest first (SPEC R6). */
  'panel:tasks': lazySchema(() => z.object({ tasks: TaskListSchema })),
} as const;
export type UsePanelPush = PushOf<typeof UsePanelPushSchemas>;

export const UsePanelRequestSchemas = {
  'panel:answer-approval': lazySchema(() => z.object({ approvalId: id, decision: z.enum(APPROVAL_DECISIONS) })),
  /** Removes a `gone` approval card the user has read. */
  'panel:dismiss-approval': lazySchema(() => z.object({ approvalId: id })),
  'panel:cancel-call': lazySchema(() => z.object({ serverId, operationId: id })),
  'panel:answer-elicitation': lazySchema(() =>
    z.object({
      interactionId: id,
      action: z.enum(ELICITATION_ACTIONS),
      content: z.optional(z.record(z.string(), z.unknown())),
    }),
  ),
  /** Re-sends the tool call of a failed interaction; `confirmSafe` is the user's explicit "retry is safe" (H3, I3). */
  'panel:rerun-interaction': lazySchema(() => z.object({ interactionId: id, confirmSafe: z.literal(true) })),
  'panel:dismiss-interaction': lazySchema(() => z.object({ interactionId: id })),
  /** Forgets the server's ended tasks ("Clear" in its task list); running ones stay. */
  'panel:clear-tasks': lazySchema(() => z.object({ serverId })),
  ...ComposerPanelRequestSchemas,
} as const;

export const UsePanelResponseSchemas = {
  'panel:answer-approval': lazySchema(() => z.object({ settled: z.boolean() })),
  'panel:dismiss-approval': lazySchema(() => z.object({ dismissed: z.boolean() })),
  'panel:cancel-call': lazySchema(() => z.object({ cancelled: z.boolean() })),
  'panel:answer-elicitation': lazySchema(() => z.object({ delivered: z.boolean() })),
  'panel:rerun-interaction': CallToolResultSchema,
  'panel:dismiss-interaction': lazySchema(() => z.object({ dismissed: z.boolean() })),
  'panel:clear-tasks': lazySchema(() => z.object({ tasks: TaskListSchema })),
  ...ComposerPanelResponseSchemas,
} as const;
