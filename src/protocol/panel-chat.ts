/**
 * Panel ↔ worker messages of the chat (section P). The conversation lives in the worker, which
 * runs the loop; the panel sends the user's message and Stop, and renders what is pushed: the
 * whole chat when its shape changes (`panel:chat`), and the growing text of the answer being
 * streamed (`panel:chat-text`, the entry's full text so far, so a lost push loses nothing).
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import type { PushOf } from './push.js';
import { ContextBlockViewSchema } from './panel-composer.js';
import { CallToolResultSchema } from './mcp-shapes.js';
import { WordingSchema, type Said } from './wording.js';
import { CHAT_ERROR_REASONS, ChatErrorKindSchema } from './error-codes.js';

const id = lazySchema(() => z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)));
const MAX_TEXT = 400_000;
const text = lazySchema(() => z.string().check(z.maxLength(MAX_TEXT)));

/** `builtin`: Chrome's own model (Prompt API), offered only where the browser has one; no URL, key or tools. */
export const PROVIDER_KINDS = ['openai', 'anthropic', 'builtin'] as const;
export const DEFAULT_MAX_STEPS = 20;
/** The most models a model list offers (T5). */
export const MAX_MODELS = 1000;

const UsageSchema = lazySchema(() => z.object({ inputTokens: z.optional(z.number()), outputTokens: z.optional(z.number()) }));
const ToolCallSchema = lazySchema(() =>
  z.object({ id: z.string().check(z.maxLength(256)), name: z.string().check(z.maxLength(256)), arguments: text }),
);

/** The longest tool-search query kept (T2). */
export const MAX_QUERY = 200;

/** `waiting-approval`: the call's approval card is open; it runs only once the user allows it (T1). */
const TOOL_STATUSES = ['running', 'done', 'error', 'denied', 'cancelled', 'waiting-approval'] as const;

/** A step not settled yet: running, or waiting for its approval card; every other status is final. */
export function stepInFlight(status: (typeof TOOL_STATUSES)[number]): boolean {
  return status === 'running' || status === 'waiting-approval';
}

/** T2: this turn uses tool search, chosen for the chat or because the selection is over the provider's limit. */
const ToolSearchLineSchema = lazySchema(() =>
  z.object({ kind: z.literal('tool-search'), id, reason: z.enum(['chosen', 'over-limit']), offered: z.number(), limit: z.number() }),
);
/** T2: the tools a search loaded for the turn's next requests (display names, server-written: shown as text). */
const ToolsLoadedLineSchema = lazySchema(() =>
  z.object({
    kind: z.literal('tools-loaded'),
    id,
    query: z.string().check(z.maxLength(MAX_QUERY)),
    tools: z.array(z.string().check(z.maxLength(600))).check(z.maxLength(64)),
  }),
);

export const ChatEntrySchema = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('user'),
      id,
      text,
      /** Attached prompt/resource blocks: a label for display and the fenced text sent to the model. */
      blocks: z.array(z.object({ label: z.string().check(z.maxLength(2048)), text })).check(z.maxLength(20)),
      edited: z.optional(z.boolean()), // T5: edited and resent; what followed the old version was dropped
    }),
    z.object({
      kind: z.literal('assistant'),
      id,
      text,
      toolCalls: z.array(ToolCallSchema).check(z.maxLength(64)),
      usage: z.optional(UsageSchema),
      /** Still arriving. */
      streaming: z.optional(z.boolean()),
      /** The model's reasoning (reasoning fields, thinking blocks): shown collapsed as "Thinking", never sent back as text (T3). */
      reasoning: z.optional(text),
    }),
    z.object({
      kind: z.literal('tool'),
      id,
      callId: z.string().check(z.maxLength(256)),
      /** The agent-facing tool name the model used. */
      name: z.string().check(z.maxLength(256)),
      /** Which server the tool is on: the panel finds the tool's MCP App view with it. */
      serverId: z.optional(z.string().check(z.maxLength(256))),
      serverName: z.optional(z.string().check(z.maxLength(256))),
      toolName: z.optional(z.string().check(z.maxLength(256))),
      toolTitle: z.optional(z.string().check(z.maxLength(256))), // the tool's own title: steps are named like the panel
      arguments: text,
      status: z.enum(TOOL_STATUSES),
      /** What the model was told: fenced, truncated result text, or why there is none. */
      result: z.optional(text),
      /** When `result` says why there is none: the same in the user's language (the model keeps the English). */
      resultWording: WordingSchema,
      startedAt: z.number(),
      durationMs: z.optional(z.number()),
    }),
    z.object({
      kind: z.literal('error'),
      id,
      errorKind: ChatErrorKindSchema,
      /** English; `wording` is the same in the user's language, `detail` the provider's own words (already in `message`). */
      message: z.string().check(z.maxLength(4096)),
      wording: WordingSchema,
      detail: z.optional(z.string().check(z.maxLength(4096))),
    }),
    z.object({ kind: z.literal('notice'), id, notice: z.enum(['stopped', 'interrupted', 'step-limit', 'no-tools']) }),
    ToolSearchLineSchema,
    ToolsLoadedLineSchema,
  ]),
);
export type ChatEntry = z.infer<typeof ChatEntrySchema>;

type ErrorEntry = Extract<ChatEntry, { kind: 'error' }>;

/** What an error entry says: its own wording, else its kind's words with the English message as the error. */
export function chatErrorSaid(entry: Pick<ErrorEntry, 'errorKind' | 'message' | 'wording'>): Required<Said> {
  return {
    message: entry.message,
    wording: entry.wording ?? { code: CHAT_ERROR_REASONS[entry.errorKind], params: { error: entry.message } },
  };
}

/** The user's system prompt (per provider, or per chat), in characters. */
export const MAX_SYSTEM_PROMPT = 20_000;
/** What a request to set a chat's prompt may carry (section N): enough to say how much too long it was. */
const MAX_SYSTEM_PROMPT_WIRE = 100_000;
/** The per-provider timeouts (T1), in ms: at least a second, at most half an hour. */
const timeoutMs = lazySchema(() => z.number().check(z.int(), z.gte(1000), z.lte(1_800_000)));

const ChatPhaseSchema = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('waiting-model'), since: z.number() }),
    /** `until`: epoch ms when the retry goes out; `status`: the refusal's HTTP status. */
    z.object({ kind: z.literal('retrying'), until: z.number(), attempt: z.number(), status: z.optional(z.number()) }),
  ]),
);

export const ChatViewSchema = lazySchema(() =>
  z.object({
    id,
    title: z.string().check(z.maxLength(200)),
    createdAt: z.number(),
    updatedAt: z.number(),
    /** Which provider and model answered last. */
    provider: z.optional(
      z.object({ kind: z.enum(PROVIDER_KINDS), model: z.string().check(z.maxLength(256)), host: z.string().check(z.maxLength(256)) }),
    ),
    /** Tools hidden from the model in this chat, as `serverId:toolName`. */
    disabledTools: z.array(z.string().check(z.maxLength(300))).check(z.maxLength(2000)),
    /** T2: servers (ids) whose tools are all hidden from the model in this chat. */
    disabledServers: z.optional(z.array(z.string().check(z.maxLength(256))).check(z.maxLength(500))),
    /** T2: the model finds its tools through tool search in every turn (without it: only above the tool limit). */
    toolSearch: z.optional(z.boolean()),
    status: z.enum(['idle', 'running']),
    entries: z.array(ChatEntrySchema).check(z.maxLength(1000)),
    /** Set by the worker while a turn waits for the model's first token, or waits to retry (T1); absent otherwise. */
    phase: z.optional(ChatPhaseSchema),
    /** This chat's own system prompt, instead of the provider's (T5). */
    systemPrompt: z.optional(z.string().check(z.maxLength(MAX_SYSTEM_PROMPT))),
  }),
);
export type ChatView = z.infer<typeof ChatViewSchema>;

const ChatSummarySchema = lazySchema(() =>
  z.object({
    id,
    title: z.string().check(z.maxLength(200)),
    updatedAt: z.number(),
    status: z.enum(['idle', 'running']),
    createdAt: z.number(),
    /** Which provider and model answered last (T5: the history shows it). */
    provider: z.optional(
      z.object({ kind: z.enum(PROVIDER_KINDS), model: z.string().check(z.maxLength(256)), host: z.string().check(z.maxLength(256)) }),
    ),
    /** With a search: where the words were found in the chat's messages (absent when the title matched). */
    snippet: z.optional(z.string().check(z.maxLength(300))),
  }),
);
export type ChatSummary = z.infer<typeof ChatSummarySchema>;

/** The provider settings as the panel sees them: never the key, only whether one is stored. */
export const ProviderSettingsViewSchema = lazySchema(() =>
  z.object({
    kind: z.enum(PROVIDER_KINDS),
    baseUrl: z.string().check(z.maxLength(2048)),
    model: z.string().check(z.maxLength(256)),
    hasKey: z.boolean(),
    maxSteps: z.number(),
    /** T2: the most tools one request may offer (absent: the kind's default, DEFAULT_TOOL_LIMITS). */
    toolLimit: z.optional(z.number()),
    systemPrompt: z.optional(z.string().check(z.maxLength(MAX_SYSTEM_PROMPT))),
    firstByteTimeoutMs: z.optional(timeoutMs),
    idleTimeoutMs: z.optional(timeoutMs),
  }),
);
export type ProviderSettingsView = z.infer<typeof ProviderSettingsViewSchema>;

/** T2: the tool-count limits (per request) the settings accept, and each kind's default. */
export const MIN_TOOL_LIMIT = 2;
export const MAX_TOOL_LIMIT = 2000;
/**
 * OpenAI documents at most 128 tools per Chat Completions request. Anthropic documents no count
 * for the Messages API, but every definition is paid for in input tokens on every request, and
 * tool choice degrades with very large lists: 128 there too, changeable in the settings.
 */
export const DEFAULT_TOOL_LIMITS = { openai: 128, anthropic: 128 } as const;

/** T2: the chat's server and tool search choices, sent with a message and kept with the chat. */
const ToolSelectionFields = {
  disabledServers: z.optional(z.array(z.string().check(z.maxLength(256))).check(z.maxLength(500))),
  toolSearch: z.optional(z.boolean()),
};

/** T2: what the next request would offer, measured on the definitions as the provider's adapter writes them. */
const ToolBudgetSchema = lazySchema(() =>
  z.object({
    /** The tools the chat's selection keeps (enabled, not switched off here). */
    selected: z.number(),
    /** Tool definitions the first request of a turn carries (with tool search: the search tool). */
    offered: z.number(),
    /** UTF-8 bytes of those definitions as sent, and the estimate in tokens (bytes ÷ 4). */
    bytes: z.number(),
    tokens: z.number(),
    limit: z.number(),
    /** Whether the turn would use tool search, and why. */
    search: z.optional(z.enum(['chosen', 'over-limit'])),
    /** The provider kind the estimate is for; absent when none is set (the OpenAI-compatible shape is measured). */
    kind: z.optional(z.enum(PROVIDER_KINDS)),
  }),
);
export type ToolBudget = z.infer<typeof ToolBudgetSchema>;

export const ChatPanelRequestSchemas = {
  'panel:chat-provider': lazySchema(() => z.object({})),
  /** `apiKey` absent keeps the stored key if the provider's origin did not change. */
  'panel:chat-save-provider': lazySchema(() =>
    z.object({
      kind: z.enum(PROVIDER_KINDS),
      /** Required (non-empty) for every kind but `builtin`; the worker checks. */
      baseUrl: z.string().check(z.maxLength(2048)),
      model: z.string().check(z.maxLength(256)),
      apiKey: z.optional(z.string().check(z.maxLength(8192))),
      maxSteps: z.optional(z.number().check(z.int(), z.gte(1), z.lte(100))),
      toolLimit: z.optional(z.number().check(z.int(), z.gte(MIN_TOOL_LIMIT), z.lte(MAX_TOOL_LIMIT))),
      systemPrompt: z.optional(z.string().check(z.maxLength(MAX_SYSTEM_PROMPT))),
      firstByteTimeoutMs: z.optional(timeoutMs),
      idleTimeoutMs: z.optional(timeoutMs),
    }),
  ),
  /** The saved provider's model list (T5): OpenAI-compatible `GET /models`, Anthropic `GET /v1/models`. */
  'panel:chat-models': lazySchema(() => z.object({})),
  /** `query`: only the chats whose title or message text contains it (case-insensitive, T5). */
  'panel:chat-list': lazySchema(() => z.object({ query: z.optional(z.string().check(z.maxLength(200))) })),
  /** Without `chatId`: the most recent chat, if any. */
  'panel:chat-open': lazySchema(() => z.object({ chatId: z.optional(id) })),
  'panel:chat-new': lazySchema(() => z.object({})),
  'panel:chat-send': lazySchema(() =>
    z.object({
      chatId: id,
      text: z.string().check(z.maxLength(100_000)),
      blocks: z.array(ContextBlockViewSchema).check(z.maxLength(20)),
      disabledTools: z.array(z.string().check(z.maxLength(300))).check(z.maxLength(2000)),
      ...ToolSelectionFields,
    }),
  ),
  /** T2: keeps the chat's tool selection (when `chatId` names a chat) and estimates the tools a request would offer. */
  'panel:chat-tools': lazySchema(() =>
    z.object({
      chatId: z.optional(id),
      disabledTools: z.array(z.string().check(z.maxLength(300))).check(z.maxLength(2000)),
      ...ToolSelectionFields,
    }),
  ),
  'panel:chat-stop': lazySchema(() => z.object({ chatId: id })),
  'panel:chat-rename': lazySchema(() => z.object({ chatId: id, title: z.string().check(z.minLength(1), z.maxLength(200)) })),
  'panel:chat-delete': lazySchema(() => z.object({ chatId: id })),
  /** T5: the last answer is dropped and asked again, with the provider set up now. */
  'panel:chat-regenerate': lazySchema(() => z.object({ chatId: id })),
  /** T5: the user message `entryId` gets `text`; every later entry is dropped (not kept) and the chat answers again. */
  'panel:chat-edit': lazySchema(() => z.object({ chatId: id, entryId: id, text: z.string().check(z.minLength(1), z.maxLength(100_000)) })),
  /**
   * T5: this chat's own system prompt, used from its next request; empty: the provider's again.
   * The wire bound is loose on purpose: the worker refuses a prompt over MAX_SYSTEM_PROMPT in words.
   */
  'panel:chat-system-prompt': lazySchema(() =>
    z.object({ chatId: id, systemPrompt: z.string().check(z.maxLength(MAX_SYSTEM_PROMPT_WIRE)) }),
  ),
} as const;

export const ChatPanelResponseSchemas = {
  /** `builtinAvailable`: Chrome's built-in model can be used where the chat runs (the worker). */
  'panel:chat-provider': lazySchema(() => z.object({ provider: z.optional(ProviderSettingsViewSchema), builtinAvailable: z.boolean() })),
  'panel:chat-save-provider': ProviderSettingsViewSchema,
  'panel:chat-models': lazySchema(() => z.object({ models: z.array(z.string().check(z.maxLength(256))).check(z.maxLength(MAX_MODELS)) })),
  'panel:chat-list': lazySchema(() => z.object({ chats: z.array(ChatSummarySchema).check(z.maxLength(200)) })),
  'panel:chat-open': lazySchema(() => z.object({ chat: z.optional(ChatViewSchema) })),
  'panel:chat-new': ChatViewSchema,
  'panel:chat-send': lazySchema(() => z.object({ started: z.boolean() })),
  'panel:chat-tools': ToolBudgetSchema,
  'panel:chat-stop': lazySchema(() => z.object({ stopped: z.boolean() })),
  'panel:chat-rename': lazySchema(() => z.object({ renamed: z.boolean() })),
  'panel:chat-delete': lazySchema(() => z.object({ deleted: z.boolean() })),
  'panel:chat-regenerate': lazySchema(() => z.object({ started: z.boolean() })),
  'panel:chat-edit': lazySchema(() => z.object({ started: z.boolean() })),
  'panel:chat-system-prompt': lazySchema(() => z.object({ saved: z.boolean() })),
} as const;

/** The chat's pushes, by `type` (protocol/push.ts). */
export const ChatPanelPushSchemas = {
  'panel:chat': lazySchema(() => z.object({ chat: ChatViewSchema })),
  'panel:chat-text': lazySchema(() => z.object({ chatId: id, entryId: id, text })),
  /** A step's result as its MCP App view gets it (cut to the budget, unfenced); never stored. */
  'panel:chat-tool-result': lazySchema(() => z.object({ chatId: id, entryId: id, result: CallToolResultSchema })),
  'panel:chat-deleted': lazySchema(() => z.object({ chatId: id })),
} as const;
export type ChatPanelPush = PushOf<typeof ChatPanelPushSchemas>;
