/**
 * Panel ↔ worker messages of MCP App views (section Q): the view's HTML with its declared CSP,
 * and what a view may ask of its own server — a tool call (through the approval policy, with an
 * operationId the panel chose so Abort can name it) and a resource read. The panel always sends
 * the view's own `serverId`; a view cannot name another server.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { ServerIdSchema as serverId } from './server-id.js';
import { CallToolResultSchema } from './mcp-shapes.js';
import { UiResourceMetaSchema } from './mcp-apps.js';

const toolName = lazySchema(() => z.string().check(z.minLength(1), z.maxLength(128)));
const uri = lazySchema(() => z.string().check(z.minLength(1), z.maxLength(2048)));
const viewSession = lazySchema(() => z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/)));

/** Largest view HTML the panel will render. */
export const MAX_VIEW_HTML = 4 * 1024 * 1024;

const AppViewResourceSchema = lazySchema(() =>
  z.object({
    html: z.string().check(z.maxLength(MAX_VIEW_HTML)),
    meta: UiResourceMetaSchema,
    /** The server's name, for the words around the view ("Suggested by the view of …"). */
    serverName: z.string().check(z.maxLength(256)),
    /** U3: the server is on loopback, so its view may reach loopback origins it declared. */
    serverOnLoopback: z.boolean(),
  }),
);
export type AppViewResource = z.infer<typeof AppViewResourceSchema>;

const ResourceContentsSchema = lazySchema(() =>
  z.looseObject({
    uri: z.optional(z.string().check(z.maxLength(2048))),
    mimeType: z.optional(z.string().check(z.maxLength(256))),
    text: z.optional(z.string()),
    blob: z.optional(z.string()),
  }),
);

export const AppsPanelRequestSchemas = {
  /** The view of `tool` (its `_meta.ui.resourceUri`), read from the server when the result is shown. */
  'panel:app-view': lazySchema(() => z.object({ serverId, tool: toolName })),
  /** A `tools/call` from the view of `viewTool`. */
  'panel:app-call-tool': lazySchema(() =>
    z.object({
      serverId,
      viewTool: toolName,
      tool: toolName,
      arguments: z.record(z.string(), z.unknown()),
      operationId: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)),
      /** The mounted view's session (made by the panel, unseen by the view): keys the per-view grant (U1). */
      viewSession: z.optional(viewSession),
    }),
  ),
  /** The mounted view of that session closed: its per-view grants end (U1). */
  'panel:app-view-closed': lazySchema(() => z.object({ viewSession })),
  /** A `resources/read` from a view, of its own server. */
  'panel:app-read-resource': lazySchema(() => z.object({ serverId, uri })),
} as const;

export const AppsPanelResponseSchemas = {
  'panel:app-view': AppViewResourceSchema,
  'panel:app-call-tool': CallToolResultSchema,
  'panel:app-read-resource': lazySchema(() => z.looseObject({ contents: z.array(ResourceContentsSchema).check(z.maxLength(256)) })),
  'panel:app-view-closed': lazySchema(() => z.object({})),
} as const;
