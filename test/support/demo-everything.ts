/**
 * What `npm start`'s demo server offers beyond echo/add/slow, so a newcomer can try every feature
 * the panel advertises in a couple of minutes: a question with a multi-select of titled options
 * (elicitation), an image, a resource link and an embedded resource, structured output, a tool
 * that says it is destructive, prompts with arguments, resources and a resource template.
 * Registered only when `startDemoServer({ everything: true })` asks for it, so the tests that
 * count the default demo server's tools are unaffected.
 */
import { deflateSync } from 'node:zlib';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { z } from 'zod';

/** Notes the demo tools and resources share, per session: deleting one is visible right away. */
const STARTING_NOTES = [
  { id: 'welcome', title: 'Welcome', text: 'This note is served by the demo MCP server.' },
  { id: 'shopping', title: 'Shopping list', text: 'Tuna, rice, nori, ginger.' },
  { id: 'ideas', title: 'Ideas', text: 'Try the destructive tool on this note: the panel asks before an agent may run it.' },
];

export function registerEverything(server: McpServer): void {
  const notes = STARTING_NOTES.map((note) => ({ ...note }));

  server.registerTool(
    'order_sushi',
    {
      title: 'Order sushi',
      description: 'Asks you what to order (elicitation with a multi-select of titled options), then confirms the order.',
      inputSchema: { table: z.number().int().min(1).max(20).default(4).describe('Table number') },
    },
    async ({ table }) => {
      const answer = await server.server.elicitInput({
        message: `What would you like at table ${table}?`,
        requestedSchema: {
          type: 'object',
          properties: {
            fish: {
              type: 'array',
              title: 'Fish',
              description: 'Pick one or more.',
              minItems: 1,
              items: {
                anyOf: [
                  { const: 'fish-1', title: 'Tuna' },
                  { const: 'fish-2', title: 'Salmon' },
                  { const: 'fish-3', title: 'Mackerel' },
                  { const: 'fish-4', title: 'Eel' },
                ],
              },
            },
            size: {
              type: 'string',
              title: 'Size',
              oneOf: [
                { const: 's', title: 'Small (6 pieces)' },
                { const: 'm', title: 'Medium (12 pieces)' },
                { const: 'l', title: 'Large (18 pieces)' },
              ],
              default: 'm',
            },
            guests: { type: 'integer', title: 'Guests', minimum: 1, maximum: 8, default: 2 },
            email: { type: 'string', title: 'Receipt by email', format: 'email' },
            wasabi: { type: 'boolean', title: 'Wasabi', default: true },
          },
          required: ['fish', 'guests'],
        },
      });
      if (answer.action !== 'accept') return { content: [{ type: 'text', text: `No order: you chose ${answer.action}.` }] };
      return { content: [{ type: 'text', text: `Ordered for table ${table}: ${JSON.stringify(answer.content ?? {})}` }] };
    },
  );

  server.registerTool(
    'show_image',
    {
      title: 'Show an image',
      description: 'Returns a small generated PNG image (an image content part).',
      inputSchema: { colour: z.enum(['blue', 'green', 'orange']).default('blue') },
      annotations: { readOnlyHint: true },
    },
    async ({ colour }) => ({
      content: [
        { type: 'text', text: `A ${colour} square with a white diagonal.` },
        { type: 'image', data: squarePng(COLOURS[colour]).toString('base64'), mimeType: 'image/png' },
      ],
    }),
  );

  server.registerTool(
    'find_note',
    {
      title: 'Find a note',
      description: 'Returns a resource link to the matching note and the note itself as an embedded resource.',
      inputSchema: { query: z.string().default('shopping').describe('Words of the note title') },
      annotations: { readOnlyHint: true },
    },
    async ({ query }) => {
      const note = notes.find((n) => n.title.toLowerCase().includes(query.toLowerCase())) ?? notes[0];
      if (!note) return { content: [{ type: 'text', text: 'There are no notes left.' }], isError: true };
      const uri = `demo://notes/${note.id}`;
      return {
        content: [
          { type: 'resource_link', uri, name: note.id, title: note.title, mimeType: 'text/plain', description: 'The matching note' },
          { type: 'resource', resource: { uri, mimeType: 'text/plain', text: note.text } },
        ],
      };
    },
  );

  server.registerTool(
    'weather',
    {
      title: 'Weather',
      description: 'Made-up weather for a city, as structured output validated against an output schema.',
      inputSchema: { city: z.string().default('Lisbon') },
      outputSchema: {
        city: z.string(),
        temperatureC: z.number(),
        conditions: z.enum(['sunny', 'cloudy', 'rainy']),
        forecast: z.array(z.object({ day: z.string(), highC: z.number(), lowC: z.number() })),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ city }) => {
      const seed = [...city].reduce((sum, ch) => sum + ch.charCodeAt(0), 0);
      const structured = {
        city,
        temperatureC: 10 + (seed % 20),
        conditions: (['sunny', 'cloudy', 'rainy'] as const)[seed % 3]!,
        forecast: ['Mon', 'Tue', 'Wed'].map((day, i) => ({ day, highC: 14 + ((seed + i) % 12), lowC: 6 + ((seed + i) % 6) })),
      };
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    },
  );

  server.registerTool(
    'delete_note',
    {
      title: 'Delete a note',
      description: 'Deletes a note for good. Marked destructive, so agents must ask before using it.',
      inputSchema: { id: z.string().describe('Note id, e.g. "ideas"') },
      annotations: { destructiveHint: true, idempotentHint: true, readOnlyHint: false },
    },
    async ({ id }) => {
      const at = notes.findIndex((n) => n.id === id);
      if (at < 0)
        return { content: [{ type: 'text', text: `No note "${id}". Notes: ${notes.map((n) => n.id).join(', ')}` }], isError: true };
      notes.splice(at, 1);
      server.sendResourceListChanged();
      return { content: [{ type: 'text', text: `Deleted note "${id}".` }] };
    },
  );

  server.registerPrompt(
    'summarize_notes',
    {
      title: 'Summarize the notes',
      description: 'Asks for a summary of the demo notes in a style and length you choose.',
      argsSchema: {
        style: z.string().describe('bullet points, one paragraph, or a haiku'),
        // Completable (R8): the panel's form offers these as the user types.
        maxWords: completable(z.string().optional().describe('Upper bound on the length, in words'), (value) =>
          ['50', '100', '200'].filter((n) => n.startsWith(value ?? '')),
        ),
      },
    },
    ({ style, maxWords }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Summarize these notes as ${style}${maxWords ? ` in at most ${maxWords} words` : ''}:\n${notes.map((n) => `- ${n.title}: ${n.text}`).join('\n')}`,
          },
        },
      ],
    }),
  );

  server.registerPrompt(
    'review_code',
    {
      title: 'Review code',
      description: 'A code review request with the language and the code as arguments.',
      argsSchema: { language: z.string().describe('e.g. TypeScript'), code: z.string().describe('The code to review') },
    },
    ({ language, code }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Please review this ${language} code:\n\n${code}` } }],
    }),
  );

  server.registerResource(
    'notes',
    'demo://notes',
    { title: 'All notes', description: 'Every note, as JSON.', mimeType: 'application/json' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(notes, null, 2) }] }),
  );

  server.registerResource(
    'logo',
    'demo://logo.png',
    { title: 'Logo', description: 'A small PNG, as a binary (blob) resource.', mimeType: 'image/png' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: squarePng(COLOURS.blue).toString('base64') }] }),
  );

  server.registerResource(
    'note',
    new ResourceTemplate('demo://notes/{id}', {
      list: async () => ({
        resources: notes.map((n) => ({ uri: `demo://notes/${n.id}`, name: n.id, title: n.title, mimeType: 'text/plain' })),
      }),
      complete: { id: (value) => notes.map((n) => n.id).filter((id) => id.startsWith(value)) },
    }),
    { title: 'A note by id', description: 'One note as plain text.', mimeType: 'text/plain' },
    async (uri, { id }) => {
      const note = notes.find((n) => n.id === String(id));
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: note ? note.text : `No note "${String(id)}".` }] };
    },
  );
}

const COLOURS = { blue: [11, 87, 208], green: [19, 115, 51], orange: [232, 113, 10] } as const;

/** A 32×32 PNG of one colour with a white diagonal, encoded here so the demo needs no image file. */
function squarePng([r, g, b]: readonly number[]): Buffer {
  const size = 32;
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0);
    for (let x = 0; x < size; x++) rows.push(...(Math.abs(x - y) <= 1 ? [255, 255, 255] : [r!, g!, b!]));
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
