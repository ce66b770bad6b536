/**
 * Turns a server's sealed credentials into request headers at connect time (SPEC E1, F2). The
 * plaintext exists only in memory for the request; it is sent to the offscreen document, never
 * written anywhere.
 */
import type { McpServerConfig } from '../../storage/config-schema.js';
import { open, purposeFor, seal } from '../../storage/seal.js';
import type { SealedBlob } from '../../storage/config-schema.js';

export async function headersFor(config: McpServerConfig): Promise<Record<string, string>> {
  const headers: Record<string, string> = {};
  for (const h of config.headers ?? []) {
    headers[h.name] = await open(h.value, purposeFor('header', { serverId: config.id, headerName: h.name }));
  }
  if (config.auth.kind === 'bearer') {
    const token = await open(config.auth.token, purposeFor('bearer', { serverId: config.id }));
    headers.Authorization = `Bearer ${token}`;
  }
  return headers;
}

export function sealBearer(serverId: string, token: string): Promise<SealedBlob> {
  return seal(token, purposeFor('bearer', { serverId }));
}
