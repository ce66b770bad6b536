/**
 * Which MCP Registry the directory searches (SPEC S1), in `chrome.storage.local` under
 * {@link DIRECTORY_KEY}: a base URL the user set (a company's registry), or nothing for the
 * official one. Not secret; checked with the server-URL rule when set and again when read.
 */
import { DEFAULT_REGISTRY_URL } from '../protocol/panel-directory.js';
import { checkServerUrl } from '../common/url-rules.js';
import { say, type Said } from '../protocol/wording.js';
import type { KeyValueArea } from './ports.js';

export const DIRECTORY_KEY = 'mcp_directory';

export interface RegistrySettings {
  registryUrl: string;
  isDefault: boolean;
}

/** A registry base URL as typed: HTTPS (or loopback HTTP), no query or fragment, no trailing slash. */
export function checkRegistryUrl(raw: string): { ok: true; url: string } | ({ ok: false } & Said) {
  const checked = checkServerUrl(raw);
  if (!checked.ok) return checked;
  const url = new URL(checked.url);
  if (url.search) return { ok: false, ...say('reasonRegistryUrlQuery') };
  return { ok: true, url: url.href.replace(/\/+$/, '') };
}

export class DirectorySettingsStore {
  constructor(private readonly area: Pick<KeyValueArea, 'get' | 'set' | 'remove'>) {}

  async read(): Promise<RegistrySettings> {
    const stored = (await this.area.get(DIRECTORY_KEY))[DIRECTORY_KEY] as { registryUrl?: unknown } | undefined;
    const checked = typeof stored?.registryUrl === 'string' ? checkRegistryUrl(stored.registryUrl) : undefined;
    return checked?.ok ? { registryUrl: checked.url, isDefault: false } : { registryUrl: DEFAULT_REGISTRY_URL, isDefault: true };
  }

  /** Stores the registry (empty: back to the official one); throws the URL's problem in words. */
  async set(raw: string): Promise<RegistrySettings> {
    if (raw.trim() === '' || raw.trim().replace(/\/+$/, '') === DEFAULT_REGISTRY_URL) {
      await this.area.remove(DIRECTORY_KEY);
      return this.read();
    }
    const checked = checkRegistryUrl(raw);
    if (!checked.ok) throw Object.assign(new Error(checked.message), { code: 'invalid-url', wording: checked.wording });
    await this.area.set({ [DIRECTORY_KEY]: { registryUrl: checked.url } });
    return this.read();
  }
}
