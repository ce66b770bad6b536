/**
 * `npm start`'s demo server with everything on, through the SDK's own client: every feature the
 * panel advertises is there and answers — a multi-select question, an image, a resource link and
 * an embedded resource, structured output that matches its schema, a destructive tool, prompts
 * with arguments, resources and a template. The default demo server keeps its three tools.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';

let server: DemoServer;
let client: Client;
const asked: unknown[] = [];

before(async () => {
  server = await startDemoServer({ everything: true });
  client = new Client({ name: 'test', version: '1' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    return { action: 'accept', content: { fish: ['fish-1', 'fish-3'], guests: 2 } };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
});

after(async () => {
  await client?.close();
  await server?.close();
});

test('the tools: the three basic ones and the rich ones, one of them destructive', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(
    tools.map((t) => t.name),
    ['echo', 'add', 'slow', 'order_sushi', 'show_image', 'find_note', 'weather', 'delete_note'],
  );
  assert.equal(tools.find((t) => t.name === 'delete_note')!.annotations?.destructiveHint, true);
  assert.ok(tools.find((t) => t.name === 'weather')!.outputSchema);
});

test('order_sushi asks a question with a multi-select of titled options', async () => {
  const result = await client.callTool({ name: 'order_sushi', arguments: { table: 3 } });
  const schema = (asked[0] as { requestedSchema: { properties: Record<string, { items?: { anyOf: { title: string }[] } }> } })
    .requestedSchema;
  assert.deepEqual(
    schema.properties.fish!.items!.anyOf.map((o) => o.title),
    ['Tuna', 'Salmon', 'Mackerel', 'Eel'],
  );
  assert.match((result.content as { text: string }[])[0]!.text, /fish-1/);
});

test('an image, a resource link with an embedded resource, and structured output', async () => {
  const image = (await client.callTool({ name: 'show_image', arguments: {} })).content as { type: string; data?: string }[];
  assert.equal(image[1]!.type, 'image');
  assert.equal(Buffer.from(image[1]!.data!, 'base64').subarray(1, 4).toString(), 'PNG');
  const note = (await client.callTool({ name: 'find_note', arguments: { query: 'shop' } })).content as { type: string }[];
  assert.deepEqual(
    note.map((part) => part.type),
    ['resource_link', 'resource'],
  );
  const weather = await client.callTool({ name: 'weather', arguments: { city: 'Porto' } });
  assert.equal((weather.structuredContent as { city: string }).city, 'Porto');
});

test('prompts with arguments, resources and a template that lists and reads notes', async () => {
  const { prompts } = await client.listPrompts();
  assert.deepEqual(
    prompts.find((p) => p.name === 'summarize_notes')!.arguments!.map((a) => [a.name, a.required]),
    [
      ['style', true],
      ['maxWords', false],
    ],
  );
  const { resources } = await client.listResources();
  assert.ok(resources.some((r) => r.uri === 'demo://notes/ideas'));
  assert.ok(resources.some((r) => r.uri === 'demo://logo.png'));
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.deepEqual(
    resourceTemplates.map((t) => t.uriTemplate),
    ['demo://notes/{id}'],
  );
  const read = await client.readResource({ uri: 'demo://notes/welcome' });
  assert.match((read.contents[0] as { text: string }).text, /demo MCP server/);
  await client.callTool({ name: 'delete_note', arguments: { id: 'ideas' } });
  assert.ok(!(await client.listResources()).resources.some((r) => r.uri === 'demo://notes/ideas'));
});

test('the default demo server keeps its three tools', async () => {
  const plain = await startDemoServer();
  const other = new Client({ name: 'test', version: '1' });
  try {
    await other.connect(new StreamableHTTPClientTransport(new URL(plain.url)));
    assert.deepEqual(
      (await other.listTools()).tools.map((t) => t.name),
      ['echo', 'add', 'slow'],
    );
  } finally {
    await other.close();
    await plain.close();
  }
});
