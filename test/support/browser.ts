/**
 * Launches Debian's Chromium with the built extension: one launch per test file.
 * The extension is loaded from a copy of `dist/` whose manifest grants the loopback origins up
 * front, because a permission prompt cannot be clicked by automation; the shipped manifest keeps
 * them optional. Every console error, page error and CSP violation in any extension context is
 * collected so a test can assert there were none.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import puppeteer, { TargetType, type Browser, type ElementHandle, type Page, type Target, type WebWorker } from 'puppeteer-core';
import { asText } from '../../src/common/as-text.js';
import { openTool, openView } from './panel-views.js';

export interface ExtensionBrowser {
  browser: Browser;
  extensionId: string;
  errors: string[];
  openPanel(): Promise<Page>;
  serviceWorker(): Promise<WebWorker>;
  close(): Promise<void>;
}

export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim();
}

/** Extension id from the manifest's public key: sha256(DER), first 32 hex digits mapped to a–p. */
function extensionIdFromKey(key: string): string {
  const hex = createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex').slice(0, 32);
  return [...hex].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join('');
}

export async function launchExtension(
  options: {
    grantLoopback?: boolean;
    locale?: string;
    headless?: boolean;
    /**
     * false: Puppeteer never attaches DevTools to the service worker, so Chrome stops it when idle
     * (~30 s) exactly as it does for users. Every lifecycle test uses this; reach the worker with
     * the brief attaches in `worker-lifecycle.ts` instead of `serviceWorker()`.
     */
    workerDevTools?: boolean;
    /** Extra Chromium switches (the bench trusts its own throwaway certificate with one). */
    extraArgs?: string[];
    /** Host permissions granted beside loopback (a test's HTTPS server under a mapped hostname). */
    hostPermissions?: string[];
    /** A profile directory to use (and keep) instead of a fresh throwaway one: the upgrade fixture and test. */
    profileDir?: string;
  } = {},
): Promise<ExtensionBrowser> {
  const dist = resolve(process.env.OUT_DIR || 'dist');
  const dir = await mkdtemp(join(tmpdir(), 'remote-mcp-ext-'));
  const extDir = join(dir, 'ext');
  const profile = options.profileDir ?? join(dir, 'profile');
  await cp(dist, extDir, { recursive: true });
  const manifest = JSON.parse(await readFile(join(extDir, 'manifest.json'), 'utf8')) as { key: string; host_permissions?: string[] };
  if (options.grantLoopback !== false) manifest.host_permissions = ['http://127.0.0.1/*', 'http://localhost/*', 'https://127.0.0.1/*'];
  if (options.hostPermissions) manifest.host_permissions = [...(manifest.host_permissions ?? []), ...options.hostPermissions];
  await writeFile(join(extDir, 'manifest.json'), JSON.stringify(manifest));
  const extensionId = extensionIdFromKey(manifest.key);

  const browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: options.headless ?? true,
    pipe: true,
    defaultViewport: options.headless === false ? null : { width: 420, height: 900 },
    userDataDir: profile,
    ...(options.workerDevTools === false ? { targetFilter: (t: Target) => t.type() !== TargetType.SERVICE_WORKER } : {}),
    ignoreDefaultArgs: ['--disable-extensions'],
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--disable-extensions-except=${extDir}`,
      `--load-extension=${extDir}`,
      ...(options.locale ? [`--lang=${options.locale}`] : []),
      ...(options.extraArgs ?? []),
    ],
  });

  const errors: string[] = [];
  const origin = `chrome-extension://${extensionId}/`;
  const watch = async (target: Target) => {
    if (!target.url().startsWith(origin)) return;
    const where = target.url().slice(origin.length) || target.type();
    try {
      if (target.type() === TargetType.SERVICE_WORKER) {
        // Puppeteer reports the worker whatever the targetFilter says; listening to its console
        // would attach DevTools and keep it alive, which lifecycle tests must not do.
        if (options.workerDevTools === false) return;
        const worker = await target.worker();
        worker?.on('console', (m) => {
          if (m.type() === 'error') errors.push(`[${where}] ${m.text()}`);
        });
      } else if (target.type() === TargetType.PAGE || target.type() === TargetType.OTHER || target.type() === TargetType.BACKGROUND_PAGE) {
        const page = await target.asPage();
        page.on('console', (m) => {
          if (m.type() === 'error') errors.push(`[${where}] ${m.text()}`);
        });
        page.on('pageerror', (e) => errors.push(`[${where}] ${e instanceof Error ? e.message : String(e)}`));
      }
    } catch {
      // A target that closed while we attached has nothing to report.
    }
  };
  browser.on('targetcreated', (t) => void watch(t));
  for (const t of browser.targets()) await watch(t);

  /**
   * The extension's worker, once its script has run. Right after launch (or a restart) the
   * target can exist before the extension APIs are bound, and a worker whose script failed
   * still answers one evaluate: so poll until `chrome.runtime.id` is seen twice.
   */
  const serviceWorker = async () => {
    if (options.workerDevTools === false) throw new Error('This browser never attaches to the worker: use worker-lifecycle.ts');
    const deadline = Date.now() + 20_000;
    let lastError: unknown;
    while (Date.now() < deadline) {
      try {
        const target = await browser.waitForTarget((t) => t.type() === TargetType.SERVICE_WORKER && t.url() === `${origin}sw.js`, {
          timeout: 15_000,
        });
        const worker = await target.worker();
        if (worker) {
          let seen = 0;
          for (let i = 0; i < 2; i++)
            if (await worker.evaluate(() => typeof chrome !== 'undefined' && typeof chrome.runtime?.id === 'string')) seen++;
          if (seen === 2) return worker;
        }
      } catch (e) {
        lastError = e;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`The extension's service worker did not become ready: ${asText(lastError ?? 'extension APIs never appeared')}`);
  };

  return {
    browser,
    extensionId,
    errors,
    serviceWorker,
    async openPanel() {
      if (options.workerDevTools !== false) await serviceWorker();
      const page = await browser.newPage();
      await page.goto(`${origin}sidepanel.html`);
      await waitFor(page, 'mcp-add-server');
      return page;
    },
    async close() {
      await browser.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Waits for a deep (`>>>`) selector by polling `page.$`. Puppeteer's own `waitForSelector`
 * builds its predicate with `new Function` inside the page, which the extension's CSP refuses;
 * bypassing the CSP instead would blind the tests to real violations.
 */
export async function waitFor(page: Page, selector: string, timeoutMs = 15_000): Promise<ElementHandle<Element>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const handle = await page.$(selector);
    if (handle) return handle;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${selector}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Text of the first element matching a deep (`>>>`) selector. */
export async function textOf(page: Page, selector: string): Promise<string> {
  const handle = await waitFor(page, selector);
  return (await handle.evaluate((el) => el.textContent ?? '')).trim();
}

/**
 * Adds a server the way a user does with the guided add: types the URL, clicks Continue, then
 * fills the name and the auth select (`authKind`, "None" when not given, whatever the probe
 * proposed) and the fields it reveals (OAuth ones under "Advanced"), and clicks Add. Unless
 * `probe` is set, the worker's probe is skipped (the form gets a "none" proposal), so a test's
 * server sees exactly the requests of the add itself; guided-add.test.ts covers the probe.
 * Opens the Add view first, and leaves the panel there.
 */
export async function addServerInPanel(
  page: Page,
  server: {
    name: string;
    url: string;
    authKind?: 'none' | 'bearer' | 'oauth';
    token?: string;
    clientId?: string;
    clientSecret?: string;
    clientMetadataUrl?: string;
    probe?: boolean;
  },
): Promise<void> {
  await openView(page, 'add');
  // A previous add that failed leaves the details step open.
  await page.$eval('mcp-add-server >>> .details-step', (el) => {
    if (!(el as HTMLElement).hidden) (el.querySelector('button[name="change-url"]') as HTMLButtonElement).click();
  });
  await page.$eval('mcp-add-server >>> input[name="url"]', (el) => (el.value = ''));
  await page.type('mcp-add-server >>> input[name="url"]', server.url);
  if (!server.probe) {
    await page.evaluate(`(() => {
      const form = document.querySelector('mcp-add-server');
      form.addEventListener('mcp-probe-server', (e) => { e.stopPropagation(); form.showProbe({ ok: true, authKind: 'none' }); }, { once: true });
    })()`);
  }
  await page.click('mcp-add-server >>> button[name="continue"]');
  await waitFor(page, 'mcp-add-server >>> .details-step:not([hidden])');
  await page.$eval('mcp-add-server >>> input[name="name"]', (el) => (el.value = ''));
  await page.type('mcp-add-server >>> input[name="name"]', server.name);
  await (await waitFor(page, 'mcp-add-server >>> select[name="auth-kind"]')).select(server.authKind ?? 'none');
  if (server.token !== undefined) await page.type('mcp-add-server >>> input[name="token"]', server.token);
  if (server.clientId !== undefined || server.clientSecret !== undefined || server.clientMetadataUrl !== undefined)
    await page.$eval('mcp-add-server >>> details', (el) => (el.open = true));
  if (server.clientId !== undefined) await page.type('mcp-add-server >>> input[name="client-id"]', server.clientId);
  if (server.clientSecret !== undefined) await page.type('mcp-add-server >>> input[name="client-secret"]', server.clientSecret);
  if (server.clientMetadataUrl !== undefined)
    await page.type('mcp-add-server >>> input[name="client-metadata-url"]', server.clientMetadataUrl);
  await page.click('mcp-add-server >>> button[name="add"]');
}

/** Polls `probe` every 100 ms until it returns a truthy value; fails naming `what` after the timeout. */
export async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Runs a tool from its view's runner (opened from the Tools view) with raw JSON arguments, as a
 * user would; resolves with the result text or the error message the runner shows.
 */
export async function runToolInPanel(
  page: Page,
  serverId: string,
  tool: string,
  args: unknown,
): Promise<{ text?: string; error?: string }> {
  await openTool(page, serverId, tool);
  const select = await waitFor(page, 'mcp-tool-runner >>> select');
  await select.select(JSON.stringify([serverId, tool]));
  await page.$eval(
    'mcp-tool-runner >>> textarea',
    (el, value) => {
      el.value = value;
    },
    JSON.stringify(args),
  );
  await page.$eval('mcp-tool-runner >>> .output', (el) => el.replaceChildren());
  await page.click('mcp-tool-runner >>> button[type="submit"]');
  return until('the tool result', () =>
    page.$eval('mcp-tool-runner >>> .output', (el) => {
      const out = el.querySelector('pre.text')?.textContent;
      const error = el.querySelector('p.error')?.textContent;
      return out != null ? { text: out } : error != null ? { error } : undefined;
    }),
  );
}
