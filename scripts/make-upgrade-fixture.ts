/**
 * Writes the upgrade fixture (test/fixtures/upgrade/v<version>): launches the built `dist/` with a
 * persistent profile, sets everything up through the product's own paths (the panel's add form,
 * its requests, an OAuth server authorized in the authorization window and its tool run, an agent
 * call approved "always", the chat), closes the browser and copies only
 * the extension's storage directories out of the profile. The secrets are sealed with a
 * non-extractable key kept in the extension's IndexedDB, so only the real storage files carry
 * them: nothing here can be crafted. The OAuth server's authorization server issues the known
 * client id and refresh token of UPGRADE.oauthGrant, which the test's new AS process knows.
 * Run once per release, after `npm run build`:
 *   npx tsx scripts/make-upgrade-fixture.ts
 */
import { cp, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import type { Page, WebWorker } from 'puppeteer-core';
import { addServerInPanel, launchExtension, runToolInPanel, until, waitFor } from '../test/support/browser.js';
import { startDemoServer } from '../test/support/demo-server.js';
import { startOAuthServers, type OAuthServers } from '../test/support/oauth-servers.js';
import { startProviderServer } from '../test/support/provider-server.js';
import { panelRequest } from '../test/support/panel-request.js';
import { DETAIL, clickFresh, openServer, openView, row } from '../test/support/panel-views.js';
import { lastAssistantText, newChat, saveOpenAiProvider, sendChat } from '../test/support/chat-panel.js';
import { CURRENT_SCHEMA_VERSION } from '../src/storage/config-schema.js';
import { UPGRADE, storageDirs } from '../test/support/upgrade-fixture.js';

const OUT = join('test/fixtures/upgrade', `v${CURRENT_SCHEMA_VERSION}`);

async function addServers(panel: Page) {
  await addServerInPanel(panel, {
    name: 'Vault',
    url: `http://127.0.0.1:${UPGRADE.bearerPort}/mcp`,
    authKind: 'bearer',
    token: UPGRADE.bearerToken,
  });
  await openView(panel, 'servers');
  await waitFor(panel, `${row('vault')} >>> mcp-status-badge[status="ready"]`, 20_000);
  const url = `http://127.0.0.1:${UPGRADE.headerPort}/mcp`;
  const added = await panelRequest<{ ok: boolean }>(panel, 'panel:add-server', {
    name: 'Keyed',
    url,
    auth: { kind: 'none' },
    headers: [UPGRADE.header],
  });
  if (!added.ok) throw new Error(`add Keyed: ${JSON.stringify(added)}`);
  await waitFor(panel, `${row('keyed')} >>> mcp-status-badge[status="ready"]`, 20_000);
  const off = await panelRequest<{ ok: boolean }>(panel, 'panel:update-server', {
    serverId: 'keyed',
    name: 'Keyed',
    url,
    auth: { kind: 'none' },
    connectTimeoutMs: null,
    connectOnStartup: false,
  });
  if (!off.ok) throw new Error(`connect on start-up off: ${JSON.stringify(off)}`);
  const disabled = await panelRequest<{ ok: boolean }>(panel, 'panel:set-tool-enabled', {
    serverId: 'vault',
    tool: UPGRADE.disabledTool,
    enabled: false,
  });
  if (!disabled.ok) throw new Error(`disable a tool: ${JSON.stringify(disabled)}`);
}

/** "Secure": added with OAuth, authorized (DCR, the authorization window, the code exchange), its tool run once. */
async function authorizeSecure(panel: Page, secure: OAuthServers) {
  await addServerInPanel(panel, { name: 'Secure', url: secure.mcpUrl, authKind: 'oauth' });
  await waitFor(panel, `${row('secure')} >>> mcp-status-badge[status="needs-auth"]`, 20_000);
  await openServer(panel, 'secure');
  await clickFresh(panel, `${DETAIL} >>> button[data-action="authorize"]`);
  await waitFor(panel, `${row('secure')} >>> mcp-status-badge[status="ready"]`, 30_000);
  const result = await runToolInPanel(panel, 'secure', 'whoami', {});
  if (!result.text?.includes(`client=${UPGRADE.oauthGrant.clientId}`)) throw new Error(`Secure's tool: ${JSON.stringify(result)}`);
  const refresh = secure.issued.refreshTokens;
  if (refresh.length !== 1 || refresh[0] !== UPGRADE.oauthGrant.refreshToken) throw new Error(`refresh tokens: ${refresh.length}`);
}

/** An agent call of Vault's granted tool, allowed "always" on its card in the panel. */
async function grantAlways(panel: Page, worker: WebWorker) {
  await worker.evaluate((name) => {
    const g = globalThis as unknown as Record<string, unknown>;
    void globalThis.remoteMcp!.agentTools.call(name, { text: 'grant me' }).then(() => (g.__granted = true));
  }, `mcp__vault__${UPGRADE.grantedTool}`);
  await waitFor(panel, 'mcp-approval-card >>> button[data-decision="always"]');
  // A tool that does not claim to be harmless folds "Always" under "More options".
  const folded = await panel.$('mcp-approval-card >>> details.more > summary');
  if (folded) await folded.click();
  await panel.click('mcp-approval-card >>> button[data-decision="always"]');
  await until('the granted call', () => worker.evaluate(() => (globalThis as unknown as Record<string, unknown>).__granted === true));
}

async function chat(panel: Page, provider: Awaited<ReturnType<typeof startProviderServer>>) {
  await saveOpenAiProvider(panel, provider.openAiBase, UPGRADE.providerKey);
  await newChat(panel);
  for (const [i, turn] of UPGRADE.chatTurns.entries()) {
    provider.script({ kind: 'stream', text: [UPGRADE.answers[i]!] });
    await sendChat(panel, turn);
    await until(`answer ${i + 1}`, async () => (await lastAssistantText(panel)).includes(UPGRADE.answers[i]!));
  }
  if (provider.requests.at(-1)?.headers.authorization !== `Bearer ${UPGRADE.providerKey}`) throw new Error('the provider got no key');
}

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) total += (await stat(join(e.parentPath, e.name))).size;
  return total;
}

/**
 * Copies the extension's storage out of the closed profile, without the files Chrome recreates.
 * Only the profile part is replaced: the folder's README.md stays when a fixture is rewritten.
 */
async function copyStorage(profile: string, extensionId: string) {
  await rm(join(OUT, 'Default'), { recursive: true, force: true });
  for (const rel of storageDirs(extensionId)) {
    if (!existsSync(join(profile, rel))) continue;
    await cp(join(profile, rel), join(OUT, rel), { recursive: true, filter: (src) => !/[/\\](LOCK|LOG|LOG\.old)$/.test(src) });
  }
}

async function main() {
  const bearer = await startDemoServer({ port: UPGRADE.bearerPort, bearerToken: UPGRADE.bearerToken, name: 'vault' });
  const keyed = await startDemoServer({ port: UPGRADE.headerPort, requiredHeader: UPGRADE.header, name: 'keyed' });
  const provider = await startProviderServer(UPGRADE.providerPort);
  const secure = await startOAuthServers({
    approval: 'auto',
    ports: { mcp: UPGRADE.oauthMcpPort, as: UPGRADE.oauthAsPort },
    knownGrant: UPGRADE.oauthGrant,
  });
  const profile = await mkdtemp(join(tmpdir(), 'remote-mcp-upgrade-'));
  const ext = await launchExtension({ profileDir: profile });
  try {
    const worker = await ext.serviceWorker();
    const panel = await ext.openPanel();
    await addServers(panel);
    await authorizeSecure(panel, secure);
    await grantAlways(panel, worker);
    await chat(panel, provider);
    await ext.close();
    await copyStorage(profile, ext.extensionId);
  } finally {
    await ext.close();
    await Promise.all([bearer.close(), keyed.close(), provider.close(), secure.close()]);
    await rm(profile, { recursive: true, force: true });
  }
  const commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  await writeFile(join(OUT, 'WRITTEN-BY.json'), JSON.stringify({ commit, mcp_schema_version: CURRENT_SCHEMA_VERSION }, null, 2) + '\n');
  console.log(`Wrote ${OUT} (${await sizeOf(OUT)} bytes) from ${commit}`);
}

await main();
