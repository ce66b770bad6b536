/**
 * Messages between the side panel and the service worker. The panel never talks to the
 * offscreen document (one-way data flow, docs/architecture.md). Everything travels on the
 * panel's own Port named {@link PANEL_PORT}: its requests ({@link PanelPortRequestSchema}, each
 * answered on the same Port) and the worker's pushes (state and the areas' updates). A Port
 * message reaches only the other end, where `chrome.runtime.sendMessage` reached every extension
 * context with a listener (the offscreen document, other panel windows) through a new channel each time.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { ServerIdSchema as serverId } from './server-id.js';
import { CallToolResultSchema, ToolSchema, PromptSchema, ResourceSchema, ResourceTemplateSchema } from './mcp-shapes.js';
import { resultSchema } from './result.js';
import { ErrorActionSchema, WireErrorCodeSchema } from './error-codes.js';
import { WordingSchema } from './wording.js';
import { UsePanelPushSchemas, UsePanelRequestSchemas, UsePanelResponseSchemas } from './panel-use.js';
import { OAuthPanelRequestSchemas, OAuthPanelResponseSchemas } from './panel-oauth.js';
import { ManagePanelRequestSchemas, ManagePanelResponseSchemas } from './panel-manage.js';
import { DefinitionChangeSchema, MAX_CHANGES_SHOWN, PinsPanelRequestSchemas, PinsPanelResponseSchemas } from './panel-pins.js';
import { ChatPanelPushSchemas, ChatPanelRequestSchemas, ChatPanelResponseSchemas } from './panel-chat.js';
import { EditPanelRequestSchemas, EditPanelResponseSchemas } from './panel-edit.js';
import { ActivityPanelPushSchemas, ActivityPanelRequestSchemas, ActivityPanelResponseSchemas } from './panel-activity.js';
import { DiagnosticsPanelRequestSchemas, DiagnosticsPanelResponseSchemas } from './panel-diagnostics.js';
import { AppsPanelRequestSchemas, AppsPanelResponseSchemas } from './panel-apps.js';
import { DirectoryPanelRequestSchemas, DirectoryPanelResponseSchemas } from './panel-directory.js';

export const PANEL_PORT = 'mcp-panel';
/**
 * Sent by a worker that just started: a panel left open while the worker was stopped reconnects
 * its state Port now rather than on the user's next action, so what the start brings shows.
 */
export const PANEL_RECONNECT = 'panel:reconnect';

/**
 * Why a server is not usable, and the button that helps (`action`, never read from `message`).
 * `wording` is `message` as a code + parameters the panel translates; `message` stays English for logs.
 */
const StateReasonSchema = lazySchema(() =>
  z.object({
    kind: WireErrorCodeSchema,
    message: z.string().check(z.maxLength(4096)),
    httpStatus: z.optional(z.number()),
    action: z.optional(ErrorActionSchema),
    wording: WordingSchema,
  }),
);

const ServerStatusSchema = lazySchema(() => z.enum(['disconnected', 'connecting', 'ready', 'needs-auth', 'error']));

/** Bounds of the catalog warnings a server view carries; the manager trims to them before sending. */
export const MAX_SERVER_WARNINGS = 20;
export const MAX_WARNING_LENGTH = 2048;

/** A catalog warning: English `message` (may quote server strings) and its `wording` to translate. */
const WarningSchema = lazySchema(() => z.object({ message: z.string().check(z.maxLength(MAX_WARNING_LENGTH)), wording: WordingSchema }));

export const ServerViewSchema = lazySchema(() =>
  z.object({
    id: serverId,
    name: z.string(),
    url: z.string(),
    authKind: z.enum(['none', 'bearer', 'oauth']),
    enabled: z.boolean(),
    connectOnStartup: z.boolean(),
    status: ServerStatusSchema,
    reason: z.optional(StateReasonSchema),
    /** The MCP revision the live session speaks (SPEC R1): 2026-07-28 for a stateless server, else what `initialize` agreed. */
    protocolVersion: z.optional(z.string().check(z.maxLength(32))),
    /** Epoch ms the current connect attempt started (while `connecting`); it may predate this worker instance. */
    connectingSince: z.optional(z.number()),
    tools: z.array(ToolSchema),
    prompts: z.array(PromptSchema),
    resources: z.array(ResourceSchema),
    resourceTemplates: z.array(ResourceTemplateSchema),
    disabledTools: z.array(z.string()),
    /** What the catalog limits dropped or trimmed (SPEC N8); may quote server strings. */
    warnings: z.optional(z.array(WarningSchema).check(z.maxLength(MAX_SERVER_WARNINGS))),
    /**
     * Since when (epoch ms) the catalog shown may be out of date: kept from an earlier session
     * until the server connects again, or a category's refresh failed and its last list is kept.
     */
    staleSince: z.optional(z.number()),
    /** Definitions that differ from their pins, and new tools held for review (SPEC S2). */
    changes: z.optional(z.array(DefinitionChangeSchema).check(z.maxLength(MAX_CHANGES_SHOWN))),
    /** Whether new tools of this server wait for review (the setting, or its default). */
    reviewNewTools: z.optional(z.boolean()),
  }),
);
export type ServerView = z.infer<typeof ServerViewSchema>;

/** A stored entry that failed validation: shown to the user, never dropped (SPEC B1). */
const ConfigErrorViewSchema = lazySchema(() =>
  z.object({
    index: z.number(),
    id: z.optional(z.string()),
    message: z.string(),
    wording: WordingSchema,
    /** 'version': not one entry but the whole list, stored by a newer version (a downgrade). */
    scope: z.optional(z.literal('version')),
  }),
);

export const PanelStateSchema = lazySchema(() =>
  z.object({
    servers: z.array(ServerViewSchema),
    configErrors: z.array(ConfigErrorViewSchema),
  }),
);
export type PanelState = z.infer<typeof PanelStateSchema>;

const AddServerAuthSchema = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('none') }),
    z.object({ kind: z.literal('bearer'), token: z.string().check(z.minLength(1), z.maxLength(8192)) }),
    z.object({
      kind: z.literal('oauth'),
      clientId: z.optional(z.string().check(z.maxLength(512))),
      clientSecret: z.optional(z.string().check(z.maxLength(8192))),
      scopes: z.optional(z.array(z.string().check(z.maxLength(256))).check(z.maxLength(64))),
      clientMetadataUrl: z.optional(z.string().check(z.maxLength(2048))),
    }),
  ]),
);

export const PanelRequestSchemas = {
  'panel:get-state': lazySchema(() => z.object({})),
  'panel:add-server': lazySchema(() =>
    z.object({
      name: z.string().check(z.minLength(1), z.maxLength(120)),
      url: z.string().check(z.minLength(1), z.maxLength(2048)),
      auth: AddServerAuthSchema,
      /** Static headers (values sealed in the worker before storage). */
      headers: z.optional(
        z
          .array(
            z.object({
              name: z.string().check(z.regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/)),
              value: z.string().check(z.minLength(1), z.maxLength(8192)),
            }),
          )
          .check(z.maxLength(32)),
      ),
      connectTimeoutMs: z.optional(z.number().check(z.int(), z.gte(1000), z.lte(600_000))),
    }),
  ),
  'panel:remove-server': lazySchema(() => z.object({ serverId })),
  'panel:connect': lazySchema(() => z.object({ serverId })),
  'panel:disconnect': lazySchema(() => z.object({ serverId })),
  'panel:set-enabled': lazySchema(() => z.object({ serverId, enabled: z.boolean() })),
  'panel:set-tool-enabled': lazySchema(() => z.object({ serverId, tool: z.string().check(z.maxLength(128)), enabled: z.boolean() })),
  'panel:call-tool': lazySchema(() =>
    z.object({
      serverId,
      tool: z.string().check(z.minLength(1), z.maxLength(128)),
      arguments: z.record(z.string(), z.unknown()),
      /** Chosen by the panel so its Abort button can name the call (SPEC H2). */
      operationId: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/))),
    }),
  ),
  'panel:ping': lazySchema(() => z.object({ serverId })),
  ...UsePanelRequestSchemas,
  ...OAuthPanelRequestSchemas,
  ...ManagePanelRequestSchemas,
  ...PinsPanelRequestSchemas,
  ...ChatPanelRequestSchemas,
  ...EditPanelRequestSchemas,
  ...ActivityPanelRequestSchemas,
  ...DiagnosticsPanelRequestSchemas,
  ...AppsPanelRequestSchemas,
  ...DirectoryPanelRequestSchemas,
} as const;

const PanelResponseSchemas = {
  'panel:get-state': PanelStateSchema,
  'panel:add-server': lazySchema(() => z.object({ serverId })),
  'panel:remove-server': lazySchema(() => z.object({ removed: z.boolean() })),
  'panel:connect': lazySchema(() => z.object({ status: ServerStatusSchema })),
  'panel:disconnect': lazySchema(() => z.object({ status: ServerStatusSchema })),
  'panel:set-enabled': lazySchema(() => z.object({ enabled: z.boolean() })),
  'panel:set-tool-enabled': lazySchema(() => z.object({ enabled: z.boolean() })),
  'panel:call-tool': CallToolResultSchema,
  'panel:ping': lazySchema(() => z.object({ latencyMs: z.number() })),
  ...UsePanelResponseSchemas,
  ...OAuthPanelResponseSchemas,
  ...ManagePanelResponseSchemas,
  ...PinsPanelResponseSchemas,
  ...ChatPanelResponseSchemas,
  ...EditPanelResponseSchemas,
  ...ActivityPanelResponseSchemas,
  ...DiagnosticsPanelResponseSchemas,
  ...AppsPanelResponseSchemas,
  ...DirectoryPanelResponseSchemas,
} as const;

export type PanelMethod = keyof typeof PanelRequestSchemas;
export type PanelParams<M extends PanelMethod> = z.infer<(typeof PanelRequestSchemas)[M]>;
export type PanelValue<M extends PanelMethod> = z.infer<(typeof PanelResponseSchemas)[M]>;
const PANEL_METHODS = Object.keys(PanelRequestSchemas) as PanelMethod[];

export const PanelRequestEnvelopeSchema = lazySchema(() =>
  z.object({
    type: z.enum(PANEL_METHODS as [PanelMethod, ...PanelMethod[]]),
    params: z.unknown(),
  }),
);

/** Ids the panel gives its requests on its Port: 1, 2, … for the life of the page. */
const requestId = lazySchema(() => z.number().check(z.int(), z.gte(1), z.lte(Number.MAX_SAFE_INTEGER)));

/**
 * A request on the panel Port: `type` and `params` are the envelope {@link PanelRequestEnvelopeSchema}
 * checks (the worker answers an unknown `type` with an error). Pushes are told apart by `kind`:
 * a push never carries one.
 */
export const PanelPortRequestSchema = lazySchema(() =>
  z.object({ kind: z.literal('request'), id: requestId, type: z.unknown(), params: z.unknown() }),
);
/** The worker's answer to the request with the same `id`: `result` is a Result envelope, validated by the panel per method. */
export const PanelPortResponseSchema = lazySchema(() => z.object({ kind: z.literal('response'), id: requestId, result: z.unknown() }));

/**
 * Every push the worker sends a panel, by `type` (protocol/push.ts): the one table the panel's
 * router parses each push with. A push type is declared once, here or in its area's file.
 */
export const PanelPushSchemas = {
  'panel:state': lazySchema(() => z.object({ state: PanelStateSchema })),
  ...UsePanelPushSchemas,
  ...ChatPanelPushSchemas,
  ...ActivityPanelPushSchemas,
} as const;

export function panelResultSchema<M extends PanelMethod>(method: M) {
  return resultSchema(PanelResponseSchemas[method]);
}
