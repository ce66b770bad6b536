/**
 * A tool's MCP App view out of its `ui://` resource as the server answered it: the entry of that
 * URI with the app MIME type, as text or as base64 of UTF-8, at most 4 MiB, with the view's
 * `_meta.ui` (read by schema; a malformed one counts as none), and who serves it: its name for
 * the panel's words, and whether it is on loopback (U3: only then may the view reach loopback).
 */
import { APP_MIME_TYPE, UiResourceMetaSchema } from '../../protocol/mcp-apps.js';
import type { OffscreenValue } from '../../protocol/offscreen.js';
import { MAX_VIEW_HTML, type AppViewResource } from '../../protocol/panel-apps.js';
import { RemoteError } from '../../protocol/result.js';
import { say } from '../../protocol/wording.js';
import { isLoopbackHost } from '../../common/url-rules.js';

type ResourceContents = OffscreenValue<'offscreen:read-resource'>['contents'];

const mib = (chars: number) => `${(chars / (1024 * 1024)).toFixed(1)} MiB`;

function onLoopback(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** The view of `tool` from the contents of its resource `uri`; throws when there is none or it is too large. */
export function appViewOf(contents: ResourceContents, uri: string, tool: string, server: { name: string; url: string }): AppViewResource {
  const content = contents.find((c) => c.uri === uri && c.mimeType?.replace(/\s+/g, '').toLowerCase() === APP_MIME_TYPE);
  const html = typeof content?.text === 'string' ? content.text : typeof content?.blob === 'string' ? fromBase64(content.blob) : undefined;
  if (html === undefined)
    throw new RemoteError({ code: 'bad-response', message: `The server sent no view (${APP_MIME_TYPE}) for ${uri}.` });
  if (html.length > MAX_VIEW_HTML)
    throw new RemoteError({
      code: 'response-too-large',
      ...say('reasonViewTooLarge', { tool: tool.slice(0, 128), size: mib(html.length), max: mib(MAX_VIEW_HTML) }),
    });
  const meta = UiResourceMetaSchema.safeParse((content as { _meta?: { ui?: unknown } })._meta?.ui ?? {});
  return { html, meta: meta.success ? meta.data : {}, serverName: server.name, serverOnLoopback: onLoopback(server.url) };
}

/** Decodes base64 as UTF-8 text; undefined when it is not base64. */
function fromBase64(blob: string): string | undefined {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(blob), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}
