/**
 * Which era a server speaks (MCP 2026-07-28, versioning: backward compatibility; Streamable HTTP:
 * backward compatibility; SPEC R1). The probe is a `server/discover` with the per-request `_meta`
 * and the standard headers, sent without following redirects and read within bounds:
 *
 * - a result naming `2026-07-28` among its `supportedVersions` → modern, and the result is kept:
 *   the v2 client adopts it instead of asking again;
 * - a recognized modern error (-32020 header mismatch, -32021 missing capability, -32022
 *   unsupported version) in the answer → modern: the server speaks the new wire but refused this
 *   request, and falling back to `initialize` would hide why; a -32022 that lists 2026-07-28 as
 *   supported is asked once more first;
 * - anything else — a 4xx without such a body, a JSON-RPC error of the 2025 era, an HTML page —
 *   → legacy: the 2025 `initialize` handshake follows.
 *
 * A 401/403 decides nothing (the same refusal will come to `initialize`, whose path carries the
 * challenge to authorization); nor does a network failure, which rejects.
 */
import { isModernRevision, MODERN_VERSION, modernHeaders, modernRequest } from '../protocol/modern-wire.js';
import { limitResponse, withManualRedirect } from './response-limits.js';
import type { FetchFn } from './session.js';
import { sseDataOf } from '../common/sse-text.js';
const MODERN_ERRORS = new Set([-32020, -32021, -32022]);
/** A discover answer is small; more than this is not one. */
const MAX_PROBE_BODY = 256 * 1024;

/** `unsure`: the answer decided nothing (a refusal of credentials, a redirect, silence): not to be kept. */
export type EraVerdict =
  | { era: 'modern'; discover: Record<string, unknown> }
  | { era: 'modern-refused'; code: number; message: string }
  | { era: 'legacy'; unsure?: true };

/** A server that answers nothing within this long to the probe is spoken to the 2025 way (its `initialize` has the full connect time). */
export const PROBE_TIMEOUT_MS = 10_000;

export async function probeEra(
  fetchFn: FetchFn,
  url: string,
  headers: Record<string, string>,
  capabilities: Record<string, unknown>,
  signal: AbortSignal,
  silenceMs = PROBE_TIMEOUT_MS,
): Promise<EraVerdict> {
  // A 2025 server that ignores an unknown method instead of answering it must not cost the whole
  // connect time (N5); a server that is down fails the same way at `initialize`.
  const bounded = AbortSignal.any([signal, AbortSignal.timeout(silenceMs)]);
  let message: unknown;
  try {
    message = await askDiscover(fetchFn, url, headers, capabilities, bounded);
  } catch (e) {
    if (signal.aborted || !(e instanceof DOMException && e.name === 'TimeoutError')) throw e;
    return { era: 'legacy', unsure: true };
  }
  // A -32022 that names our version among those it supports is asked once more with it (SEP-2575:
  // the client retries with a supported version); a second refusal stands.
  if (message !== LEGACY && refusedButSupported(message)) message = await askDiscover(fetchFn, url, headers, capabilities, signal);
  return message === LEGACY ? { era: 'legacy', unsure: true } : verdictOf(message);
}

const LEGACY = Symbol('legacy');

/** One `server/discover`: its first JSON-RPC message, or LEGACY for an answer that decides nothing (401, 403, redirect). */
async function askDiscover(
  fetchFn: FetchFn,
  url: string,
  headers: Record<string, string>,
  capabilities: Record<string, unknown>,
  signal: AbortSignal,
): Promise<unknown> {
  const raw = await fetchFn(
    url,
    withManualRedirect({
      method: 'POST',
      headers: { ...headers, ...modernHeaders('server/discover') },
      body: modernRequest('server/discover', 'discover', capabilities),
      signal,
    }),
  );
  if (raw.status === 401 || raw.status === 403 || (raw.status >= 300 && raw.status < 400)) {
    await raw.body?.cancel().catch(() => undefined);
    return LEGACY;
  }
  const text = await bodyText(limitResponse(raw, new URL(url).origin, { maxBodyBytes: MAX_PROBE_BODY }));
  return firstMessage(text, raw.headers.get('content-type') ?? '');
}

/** An "unsupported protocol version" (-32022) whose `data.supported` lists the version we sent. */
function refusedButSupported(message: unknown): boolean {
  const error = (message as { error?: { code?: unknown; data?: { supported?: unknown } } } | undefined)?.error;
  const supported = error?.data?.supported;
  return error?.code === -32022 && Array.isArray(supported) && supported.includes(MODERN_VERSION);
}

async function bodyText(response: Response): Promise<string> {
  try {
    return await response.text();
  } catch {
    return '';
  }
}

/** The first JSON-RPC message of a JSON body or of an event stream's `data:` lines. */
export function firstMessage(text: string, contentType: string): unknown {
  const candidates = contentType.toLowerCase().includes('text/event-stream') ? sseDataOf(text) : [text];
  for (const candidate of candidates) {
    try {
      const parsed: unknown = JSON.parse(candidate);
      if (parsed && typeof parsed === 'object' && ('result' in parsed || 'error' in parsed)) return parsed;
    } catch {
      // Not JSON: look at the next event.
    }
  }
  return undefined;
}

export function verdictOf(message: unknown): EraVerdict {
  const m = message as { result?: { supportedVersions?: unknown }; error?: { code?: unknown; message?: unknown } } | undefined;
  const versions = m?.result?.supportedVersions;
  if (Array.isArray(versions) && versions.includes(MODERN_VERSION))
    return { era: 'modern', discover: m!.result as Record<string, unknown> };
  const code = m?.error?.code;
  // A server that names only 2025-era versions it would speak is answered with `initialize`.
  if (code === -32022 && !supportsModern((m?.error as { data?: { supported?: unknown } }).data?.supported)) return { era: 'legacy' };
  if (typeof code === 'number' && MODERN_ERRORS.has(code)) {
    return { era: 'modern-refused', code, message: typeof m?.error?.message === 'string' ? m.error.message.slice(0, 500) : '' };
  }
  return { era: 'legacy' };
}

function supportsModern(supported: unknown): boolean {
  if (!Array.isArray(supported)) return true;
  return supported.some(isModernRevision);
}
