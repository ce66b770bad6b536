/**
 * "Add from directory" through the real panel (SPEC S1, L1, N1, N2): the registry stand-in set as
 * the registry, nothing fetched before the user searches, search and Load more, an entry chosen
 * into the guided add (URL, name and its declared header), the usual probe, and the server ready —
 * without auth, with a required header, and through OAuth. Not-usable entries say why; a hostile
 * registry stays bounded and inert; a registry that is down says so and loses nothing; and the
 * directory works again after the worker sleeps.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { launchExtension, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { startOAuthServers, type OAuthServers } from '../support/oauth-servers.js';
import { DETAIL, openView, row } from '../support/panel-views.js';
import {
  hostileEntries,
  packageEntry,
  sseEntry,
  startRegistryServer,
  streamableEntry,
  type RegistryServer,
  type ServerJson,
} from '../support/registry-server.js';
import { assertNewWorker, sleepWorker } from '../support/worker-sleep.js';

let weather: DemoServer;
let keyed: DemoServer;
let oauth: OAuthServers;
let reg: RegistryServer;
let ext: ExtensionBrowser;
let panel: Page;
let entries: ServerJson[];

const D = 'mcp-directory';
const ready = (id: string) => `${row(id)} >>> mcp-status-badge[status="ready"]`;

before(async () => {
  weather = await startDemoServer({ name: 'Weather Demo' });
  keyed = await startDemoServer({ requiredHeader: { name: 'X-Api-Key', value: 'k-123' } });
  oauth = await startOAuthServers({ approval: 'auto' });
  const filler = Array.from({ length: 32 }, (_, i) => streamableEntry(`io.example/filler-${i}`, `https://f${i}.example/mcp`));
  entries = [
    ...filler,
    streamableEntry('io.example/weather', weather.url, { title: 'Weather' }),
    streamableEntry('io.example/keyed', keyed.url, {
      title: 'Keyed',
      remotes: [
        {
          type: 'streamable-http',
          url: keyed.url,
          headers: [{ name: 'X-Api-Key', description: 'Your API key.', isRequired: true, isSecret: true, placeholder: 'k-…' }],
        },
      ],
    }),
    streamableEntry('io.example/secure', oauth.mcpUrl, { title: 'Secure' }),
    packageEntry('io.example/local-files'),
    sseEntry('io.example/old-sse'),
  ];
  reg = await startRegistryServer(entries);
  ext = await launchExtension({ workerDevTools: false });
  panel = await ext.openPanel();
});

after(async () => {
  await ext?.close();
  await Promise.all([weather?.close(), keyed?.close(), oauth?.close(), reg?.close()]);
});

const entryCount = () => panel.$$eval(`${D} >>> [role="list"] > .entry`, (els) => els.length);
const status = () => textOf(panel, `${D} >>> .status`);

/** Types `query` and clicks Search; resolves once the status no longer says it is searching. */
async function search(query: string) {
  await openView(panel, 'directory');
  await panel.$eval(`${D} >>> input[name="search"]`, (el) => (el.value = ''));
  if (query) await panel.type(`${D} >>> input[name="search"]`, query);
  await panel.click(`${D} >>> button[name="search"]`);
  await until('the search to end', async () => !(await panel.$eval(`${D} >>> button[name="search"]`, (b) => b.disabled)));
}

/** Clicks "Use" of the only entry listed, Continue in the guided add, and waits for the details step. */
async function useAndContinue(name: string) {
  await panel.click(`${D} >>> .entry[data-name="${name}"] button[name="use"]`);
  await until('the Add view', async () => panel.$eval('section[data-view="add"]', (s) => !s.hidden));
  await panel.click('mcp-add-server >>> button[name="continue"]');
  await waitFor(panel, 'mcp-add-server >>> .details-step:not([hidden])');
}

test('the registry is set in the directory; nothing is fetched until the user searches', async () => {
  await openView(panel, 'directory');
  await until('the registry setting', async () =>
    /registry\.modelcontextprotocol\.io/.test(await textOf(panel, `${D} >>> .registry .host`)),
  );
  await panel.click(`${D} >>> .registry summary`);
  await panel.type(`${D} >>> input[name="registry-url"]`, reg.url);
  await panel.click(`${D} >>> button[name="save-registry"]`);
  await until('the registry saved', async () => (await textOf(panel, `${D} >>> .registry-message`)).includes('from now on'));
  assert.equal(await textOf(panel, `${D} >>> .registry .host`), `Registry: ${new URL(reg.url).host}`);
  assert.equal(reg.requests.length, 0, 'opening the directory and setting it fetched nothing');
});

test('search lists a page, Load more follows the cursor, a search narrows it', async () => {
  await search('');
  assert.equal(await entryCount(), 30);
  assert.equal(await status(), '30 servers shown.');
  await panel.click(`${D} >>> button[name="more"]`);
  await until('the second page', async () => (await entryCount()) === entries.length);
  assert.equal(await panel.$eval(`${D} >>> button[name="more"]`, (b) => (b as HTMLElement).hidden), true);
  assert.equal(reg.requests.at(-1)!.cursor !== null, true);
  assert.equal(
    reg.requests.some((r) => r.cookie),
    false,
    'no cookie sent to the registry',
  );
  await search('weather');
  assert.equal(await entryCount(), 1);
  assert.equal(await textOf(panel, `${D} >>> .entry h3 .title`), 'Weather');
  assert.equal(await textOf(panel, `${D} >>> .entry .repository`), 'Source: https://github.com/example/weather');
});

test('an entry chosen fills the guided add; the probe runs; the server is added and ready', async () => {
  await useAndContinue('io.example/weather');
  assert.equal(await textOf(panel, 'mcp-add-server >>> .summary .url'), weather.url);
  assert.equal(await panel.$eval('mcp-add-server >>> input[name="name"]', (el) => el.value), 'Weather');
  assert.equal(weather.stats.sessionsOpened, 1, 'the usual probe ran');
  await panel.click('mcp-add-server >>> button[name="add"]');
  await waitFor(panel, ready('weather'), 20_000);
});

test('a declared header is a field of its own, required, sent only to that server', async () => {
  await search('keyed');
  assert.equal(await textOf(panel, `${D} >>> .entry .asks`), 'Asks for: X-Api-Key');
  await useAndContinue('io.example/keyed');
  const input = 'mcp-add-server >>> input[data-header="X-Api-Key"]';
  assert.equal(await panel.$eval(input, (el) => el.type), 'password');
  // The probe's 403 comes from the missing header, so no bearer token is proposed for it.
  assert.equal(await panel.$eval('mcp-add-server >>> select[name="auth-kind"]', (el) => el.value), 'none');
  assert.match(await textOf(panel, 'mcp-add-server >>> .details-step .note'), /without its X-Api-Key header/);
  await panel.click('mcp-add-server >>> button[name="add"]');
  await until('the field’s error', async () => (await panel.$eval(input, (el) => el.getAttribute('aria-invalid'))) === 'true');
  await panel.type(input, 'k-123');
  await panel.click('mcp-add-server >>> button[name="add"]');
  await waitFor(panel, ready('keyed'), 20_000);
  assert.equal(
    reg.requests.some((r) => JSON.stringify(r).includes('k-123')),
    false,
  );
});

test('an OAuth entry: chosen, authorized, ready', async () => {
  await search('secure');
  await useAndContinue('io.example/secure');
  assert.equal(await panel.$eval('mcp-add-server >>> select[name="auth-kind"]', (el) => el.value), 'oauth');
  await panel.click('mcp-add-server >>> button[name="add"]');
  await (await waitFor(panel, `${DETAIL} >>> button[data-action="authorize"]`, 20_000)).click();
  await waitFor(panel, ready('secure'), 30_000);
});

test('entries with only a package or only SSE say why they are not usable here, and offer no Use', async () => {
  await search('local');
  assert.match(await textOf(panel, `${D} >>> .entry .reason`), /^Not usable here: It runs as a local package \(stdio\)/);
  await search('sse');
  assert.match(await textOf(panel, `${D} >>> .entry .reason`), /only the older SSE transport/);
  assert.equal(await panel.$(`${D} >>> .entry button[name="use"]`), null);
});

test('a hostile registry is shown bounded and inert; 10,000 entries become one page', async () => {
  reg.entries = hostileEntries();
  await search('');
  const shown = await panel.$eval(D, (el) => {
    const root = el.shadowRoot!;
    return {
      titles: [...root.querySelectorAll('.entry h3 .title')].map((t) => t.textContent.length),
      descriptions: [...root.querySelectorAll('.entry .description')].map((t) => t.textContent.length),
      elements: root.querySelectorAll('.entry img, .entry script, .entry a, .entry iframe').length,
      uses: [...root.querySelectorAll<HTMLElement>('.entry button[name="use"]')].map((b) => b.dataset['url']),
      notes: root.querySelectorAll('.entry .notes li').length,
    };
  });
  assert.ok(shown.titles.every((n) => n <= 200));
  assert.ok(shown.descriptions.every((n) => n <= 1000));
  assert.equal(shown.elements, 0, 'registry text is never markup');
  assert.deepEqual(shown.uses, ['https://ok.hostile.example/mcp'], 'javascript: and plain-http URLs are not offered');
  assert.ok(shown.notes >= 3);
  await reg.setMode('flood');
  await search('');
  assert.equal(await entryCount(), 100);
  assert.match(await textOf(panel, `${D} >>> .dropped`), /^9900 entries were left out/);
  await reg.setMode('ok');
  reg.entries = entries;
  assert.deepEqual(ext.errors, []);
});

test('a registry that is down: a clear error, and the list shown stays', async () => {
  await search('weather');
  assert.equal(await entryCount(), 1);
  await reg.setMode('error-500');
  await search('filler');
  assert.equal(await status(), `The registry could not be searched: The registry at ${reg.origin} answered HTTP 500.`);
  assert.equal(await panel.$eval(`${D} >>> .status`, (el) => el.className), 'status error');
  assert.equal(await entryCount(), 1, 'nothing lost');
  await reg.setMode('refused');
  await search('filler');
  assert.match(await status(), /Could not reach the registry at http:\/\/127\.0\.0\.1:\d+/);
  assert.equal(await entryCount(), 1);
  await reg.setMode('ok');
  await search('filler');
  assert.equal(await entryCount(), 30);
});

test('after the worker sleeps the directory searches and adds again', async () => {
  await sleepWorker(ext, panel);
  await search('weather');
  assert.equal(await entryCount(), 1);
  await assertNewWorker(ext);
  // The same entry again: the guided add opens filled in, with the next name free.
  await useAndContinue('io.example/weather');
  assert.equal(await textOf(panel, 'mcp-add-server >>> .summary .url'), weather.url);
});

test('in Chinese, a registry that is down is said in Chinese', async () => {
  const zh = await launchExtension({ locale: 'zh_CN' });
  try {
    const page = await zh.openPanel();
    await openView(page, 'directory');
    await page.click(`${D} >>> .registry summary`);
    await page.type(`${D} >>> input[name="registry-url"]`, reg.url);
    await page.click(`${D} >>> button[name="save-registry"]`);
    await until('the registry saved', async () => (await textOf(page, `${D} >>> .registry-message`)).startsWith('今后将搜索'));
    await reg.setMode('error-500');
    await page.click(`${D} >>> button[name="search"]`);
    await until('the error', async () => (await textOf(page, `${D} >>> .status`)).startsWith('无法搜索注册表'));
    assert.equal(await textOf(page, `${D} >>> .status`), `无法搜索注册表：位于 ${reg.origin} 的注册表返回了 HTTP 500。`);
    assert.deepEqual(zh.errors, []);
  } finally {
    await reg.setMode('ok');
    await zh.close();
  }
});
