/**
 * Adding a server from the panel's form: the URL by the URL rules, the same URL under the same
 * name refused (another name on a saved URL is another account, S3),
 * a stable id slugged from the name (B5), and every secret (bearer token, header values, an OAuth
 * client secret) sealed before it is stored (B1: no plaintext secret at rest).
 */
import { say } from '../../protocol/wording.js';
import type { PanelParams } from '../../protocol/panel.js';
import { RemoteError } from '../../protocol/result.js';
import type { McpServerConfig } from '../../storage/config-schema.js';
import { slugify, type ConfigStore } from '../../storage/config-store.js';
import { sealHeader } from '../../storage/seal.js';
import { checkServerUrl } from '../../common/url-rules.js';
import { duplicateOf } from '../../common/accounts.js';
import { sealBearer } from '../chrome/credentials.js';
import { newOAuthAuth } from './panel-oauth.js';

type AddParams = PanelParams<'panel:add-server'>;

export async function addServer(configStore: Pick<ConfigStore, 'update'>, p: AddParams): Promise<{ serverId: string }> {
  const checked = checkServerUrl(p.url);
  if (!checked.ok)
    throw new RemoteError({ code: 'invalid-url', message: checked.message, ...(checked.wording ? { wording: checked.wording } : {}) });
  let serverId = '';
  await configStore.update(async (servers, { takenIds }) => {
    const twin = duplicateOf(servers, { name: p.name, url: checked.url });
    if (twin) throw new RemoteError({ code: 'duplicate', ...say('reasonDuplicateAccount', { name: twin.name.slice(0, 120) }) });
    serverId = slugify(p.name, takenIds);
    return [...servers, await newServerConfig(serverId, checked.url, p)];
  });
  return { serverId };
}

/** The stored entry of a new server: enabled, connecting at start, its secrets sealed for this id. */
export async function newServerConfig(serverId: string, url: string, p: AddParams): Promise<McpServerConfig> {
  const auth = p.auth;
  const config: McpServerConfig = {
    id: serverId,
    name: p.name.trim(),
    url,
    auth:
      auth.kind === 'oauth'
        ? await newOAuthAuth(serverId, auth)
        : auth.kind === 'bearer'
          ? { kind: 'bearer', token: await sealBearer(serverId, auth.token) }
          : { kind: 'none' },
    enabled: true,
    disabledTools: [],
    connectOnStartup: true,
    ...(p.connectTimeoutMs !== undefined ? { connectTimeoutMs: p.connectTimeoutMs } : {}),
  };
  if (p.headers?.length) {
    config.headers = await Promise.all(
      p.headers.map(async (h) => ({
        name: h.name,
        value: await sealHeader(serverId, h.name, h.value),
      })),
    );
  }
  return config;
}
