/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension, protocol `2026-01-26`): the names and
 * the server-side metadata we read, shared by the worker (visibility, the view resource) and the
 * panel (which tools have a view). A tool's view is named by `_meta.ui.resourceUri` (servers
 * also send the deprecated flat key `_meta["ui/resourceUri"]`); its `visibility` says who may
 * call it: `model` (the agent and the runner), `app` (its own view), both when absent.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';

export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
export const APP_PROTOCOL_VERSION = '2026-01-26';
/** The page of the extension that hosts views (manifest `sandbox.pages`). */
export const APP_SANDBOX_PAGE = 'app-sandbox.html';

const UiToolMetaSchema = lazySchema(() =>
  z.looseObject({
    resourceUri: z.optional(z.string().check(z.maxLength(2048))),
    visibility: z.optional(z.array(z.string().check(z.maxLength(16))).check(z.maxLength(4))),
  }),
);

export interface ToolUi {
  /** The `ui://` resource of the tool's view, when it has one. */
  resourceUri?: string;
  /** Whether the agent and the runner may call the tool. */
  model: boolean;
  /** Whether the tool's view may call it. */
  app: boolean;
}

/** What a tool's `_meta` says about its view and visibility; anything malformed counts as absent. */
export function toolUi(tool: { _meta?: unknown }): ToolUi {
  const meta = tool._meta && typeof tool._meta === 'object' ? (tool._meta as Record<string, unknown>) : {};
  const parsed = UiToolMetaSchema.safeParse(meta['ui']);
  const ui = parsed.success ? parsed.data : {};
  const flat = meta['ui/resourceUri'];
  const uri = ui.resourceUri ?? (typeof flat === 'string' && flat.length <= 2048 ? flat : undefined);
  const visibility = ui.visibility;
  return {
    ...(uri && uri.startsWith('ui://') ? { resourceUri: uri } : {}),
    model: !visibility || visibility.includes('model'),
    app: !visibility || visibility.includes('app'),
  };
}

const domains = lazySchema(() => z.optional(z.array(z.string().check(z.maxLength(512))).check(z.maxLength(32))));

/** The resource's `_meta.ui`: the network origins its view may reach and how to frame it. */
export const UiResourceMetaSchema = lazySchema(() =>
  z.looseObject({
    csp: z.optional(z.looseObject({ connectDomains: domains, resourceDomains: domains, frameDomains: domains, baseUriDomains: domains })),
    permissions: z.optional(z.record(z.string(), z.unknown())),
    domain: z.optional(z.string().check(z.maxLength(512))),
    prefersBorder: z.optional(z.boolean()),
  }),
);
export type UiResourceCsp = NonNullable<z.infer<typeof UiResourceMetaSchema>['csp']>;
