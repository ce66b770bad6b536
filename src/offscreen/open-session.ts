/**
 * Opens the session of the server's era (SPEC R1): the era is asked once per URL and document
 * with `server/discover` (era-probe.ts) and kept, as the specification advises; the host forgets it
 * when a connect fails, so an upgraded or moved server is asked again. A modern server gets the v2
 * client, which adopts the discover result without asking again; any other server the 2025
 * `initialize` handshake.
 */
import { outgoingFetch } from '../common/outgoing-fetch.js';
import type { OffscreenParams } from '../protocol/offscreen.js';
import { RemoteError } from '../protocol/result.js';
import { say } from '../protocol/wording.js';
import { APP_MIME_TYPE, UI_EXTENSION } from '../protocol/mcp-apps.js';
import { probeEra, type EraVerdict } from './era-probe.js';
import type { FetchFn } from './session.js';

export type EraCache = Map<string, EraVerdict>;

export async function openSession<S>(
  eras: EraCache,
  p: OffscreenParams<'offscreen:connect'>,
  make: (modern: Record<string, unknown> | undefined) => S,
  fetchFn: FetchFn = outgoingFetch,
): Promise<S> {
  let verdict = eras.get(p.url);
  if (!verdict) {
    const capabilities = {
      elicitation: { form: {}, url: {} },
      ...(p.appViews ? { extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } } : {}),
    };
    verdict = await probeEra(fetchFn, p.url, p.headers, capabilities, AbortSignal.timeout(p.timeoutMs));
    // A verdict from an answer that decided nothing (401 before authorization, silence) is asked again next time.
    if (!(verdict.era === 'legacy' && verdict.unsure)) eras.set(p.url, verdict);
  }
  if (verdict.era === 'modern-refused') {
    throw new RemoteError({
      code: 'protocol',
      ...say('reasonModernRefused', { origin: new URL(p.url).origin, code: verdict.code, detail: verdict.message }),
    });
  }
  return make(verdict.era === 'modern' ? verdict.discover : undefined);
}
