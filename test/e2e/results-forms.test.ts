/**
 * The results viewer and schema forms end to end (section K), with the built extension and the
 * SDK demo server: a tool result with text, structured content, an image and a resource link is
 * shown as labelled parts (the link read through the worker); a multi-select question raised by
 * the call the user started is shown inside the runner, focused, answered by choosing titles; and
 * a server's refusal of the arguments is shown at the field it names.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { launchExtension, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { openTool, storeServersFromPanel } from '../support/panel-views.js';

let server: DemoServer;
let ext: ExtensionBrowser;
let panel: Page;

const VIEW = 'mcp-tool-runner >>> mcp-result-view';

before(async () => {
  server = await startDemoServer({ elicitation: true, results: true });
  ext = await launchExtension();
  panel = await ext.openPanel();
  await storeServersFromPanel(panel, [{ id: 'demo', name: 'Demo', url: server.url }]);
});

after(async () => {
  await ext?.close();
  await server?.close();
});

async function run(tool: string) {
  await openTool(panel, 'demo', tool);
  const select = await waitFor(panel, 'mcp-tool-runner >>> select');
  await select.select(JSON.stringify(['demo', tool]));
  await panel.click('mcp-tool-runner >>> button[type="submit"]');
}

test('a result with text, structured content, an image and a resource link is shown as labelled parts', async () => {
  await run('show_parts');
  await waitFor(panel, `${VIEW} >>> .part-resource_link`);
  const labels = await panel.$$eval(`${VIEW} >>> .part .label`, (els) => els.map((e) => e.textContent));
  assert.deepEqual(labels, ['Text', 'Image', 'Resource link', 'Structured content']);
  assert.equal(await textOf(panel, `${VIEW} >>> pre.text`), 'Weather in Lisbon: sunny');
  assert.match(await panel.$eval(`${VIEW} >>> img`, (img) => img.getAttribute('src') ?? ''), /^data:image\/png;base64,iVBOR/);
  assert.ok(await until('the image to load', () => panel.$eval(`${VIEW} >>> img`, (img) => img.complete && img.naturalWidth === 1)));
  const tree = await textOf(panel, `${VIEW} >>> .json-tree`);
  assert.match(tree, /city: "Lisbon"/);
  assert.match(tree, /temperature: 21\.5/);
  await panel.click(`${VIEW} >>> .part-resource_link button.read`);
  assert.match(
    await until('the resource text', () => panel.$eval(`${VIEW} >>> .read-out`, (el) => el.querySelector('pre')?.textContent ?? undefined)),
    /This is the demo server of Remote MCP for Chrome\./,
  );
  // Opening another tool clears the result.
  await openTool(panel, 'demo', 'echo');
  assert.equal(await panel.$$eval(`${VIEW} >>> .part`, (els) => els.length), 0);
});

test("a multi-select question of the runner's call is shown in the runner, focused, and answered by choosing titles", async () => {
  await run('pick_fish');
  const card = 'mcp-tool-runner > mcp-elicitation-card[status="pending"]';
  await waitFor(panel, `${card} >>> mcp-schema-form >>> fieldset.choices`);
  assert.equal(await panel.$('#elicitations mcp-elicitation-card'), null, 'not in the attention container');
  assert.equal(await textOf(panel, 'mcp-tool-runner >>> .waiting'), 'Waiting for your answer');
  assert.ok(
    await until('the question to be focused', () =>
      panel.evaluate(
        `document.activeElement?.tagName === 'MCP-ELICITATION-CARD' && document.activeElement.shadowRoot.activeElement?.getAttribute('role') === 'dialog'`,
      ),
    ),
  );
  const titles = await panel.$$eval(`${card} >>> mcp-schema-form >>> fieldset.choices label`, (els) => els.map((l) => l.textContent));
  assert.deepEqual(titles, ['Tuna', 'Salmon', 'Trout']);
  // The user chooses by title: Tuna (the default) off, Salmon and Trout on.
  for (const title of ['Tuna', 'Salmon', 'Trout']) {
    const labels = await panel.$$(`${card} >>> mcp-schema-form >>> fieldset.choices label`);
    for (const label of labels) if ((await label.evaluate((l) => l.textContent)) === title) await label.click();
  }
  await panel.click(`${card} >>> button[data-action="accept"]`);
  assert.equal(
    await until('the tool result', () =>
      panel.$eval(`${VIEW} >>> .output`, (el) => el.querySelector('pre.text')?.textContent ?? undefined),
    ),
    'fish accept: {"fish":["fish-2","fish-3"]}',
  );
  assert.deepEqual(server.stats.elicitations?.at(-1), { action: 'accept', content: { fish: ['fish-2', 'fish-3'] } });
  await until('the card to go away', async () => !(await panel.$('mcp-tool-runner > mcp-elicitation-card')));
  assert.equal(await textOf(panel, 'mcp-tool-runner >>> .waiting').catch(() => ''), '');
});

test("the server's refusal of an argument is shown at that field, not as a raw dump", async () => {
  await openTool(panel, 'demo', 'slow');
  const select = await waitFor(panel, 'mcp-tool-runner >>> select');
  await select.select(JSON.stringify(['demo', 'slow']));
  const steps = `mcp-tool-runner >>> mcp-schema-form >>> input[name='${JSON.stringify(['steps'])}']`;
  // The form is given the schema without its maximum, so 500 passes the checks here and reaches the server, which refuses it.
  await panel.$eval(`mcp-tool-runner >>> mcp-schema-form`, (f) => {
    const form = f as unknown as { schema: { properties: { steps: Record<string, unknown> } } };
    const schema = structuredClone(form.schema);
    delete schema.properties.steps.maximum;
    form.schema = schema;
  });
  await panel.$eval(steps, (el) => {
    (el as HTMLInputElement).value = '500';
  });
  await panel.click('mcp-tool-runner >>> button[type="submit"]');
  await until('the field to be marked', () => panel.$eval(steps, (el) => el.getAttribute('aria-invalid') === 'true'));
  const message = await textOf(panel, `mcp-tool-runner >>> mcp-schema-form >>> .field-error[data-path='${JSON.stringify(['steps'])}']`);
  assert.match(message, /100/);
  const output = await textOf(panel, `${VIEW} >>> .output`);
  assert.doesNotMatch(output, /"code"|\[\s*\{/, 'no raw JSON in the result area');
});

test('no extension context logged an error or a CSP violation', () => {
  assert.deepEqual(ext.errors, []);
});
