/**
 * The directory's reading of a registry page (SPEC S1, N8): the documented envelope, only
 * Streamable HTTP remotes offered, every entry bounded and on one line, script and data URLs
 * dropped with a note, not-usable entries with their reason, and a flood cut to one page.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundedText, entryOf, parseRegistryPage } from '../../../../src/sw/directory/registry-parse.js';
import { DIRECTORY_LIMITS, DirectoryPageSchema } from '../../../../src/protocol/panel-directory.js';
import { hostileEntries, packageEntry, sseEntry, streamableEntry } from '../../../support/registry-server.js';

const REG = 'https://registry.example';
const wrap = (server: unknown) => ({ server, _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active' } } });
const codes = (notes: { wording?: { code: string } | undefined }[]) => notes.map((n) => n.wording?.code);

test('a documented page becomes entries with their remote, headers and the next cursor', () => {
  const usable = streamableEntry('io.example/weather', 'https://weather.example/mcp', {
    title: 'Weather',
    websiteUrl: 'https://weather.example',
    remotes: [
      {
        type: 'streamable-http',
        url: 'https://weather.example/mcp',
        headers: [{ name: 'X-Api-Key', description: 'Your key', isRequired: true, isSecret: true, placeholder: 'wk_…' }],
      },
    ],
  });
  const page = parseRegistryPage({ servers: [wrap(usable)], metadata: { nextCursor: 'abc', count: 1 } }, REG)!;
  assert.equal(page.nextCursor, 'abc');
  assert.equal(page.dropped, 0);
  assert.deepEqual(page.entries[0], {
    name: 'io.example/weather',
    title: 'Weather',
    description: 'The io.example/weather server.',
    version: '1.0.0',
    repository: 'https://github.com/example/weather',
    websiteUrl: 'https://weather.example/',
    remotes: [
      {
        url: 'https://weather.example/mcp',
        headers: [{ name: 'X-Api-Key', description: 'Your key', placeholder: 'wk_…', required: true, secret: true }],
      },
    ],
    notes: [],
  });
  assert.ok(DirectoryPageSchema.safeParse(page).success, 'what the worker sends passes the panel’s schema');
});

test('the older `next_cursor` is read too; a cursor over its bound is not kept (it would not page on)', () => {
  assert.equal(parseRegistryPage({ servers: [], metadata: { next_cursor: 'old' } }, REG)!.nextCursor, 'old');
  assert.equal(parseRegistryPage({ servers: [], metadata: { nextCursor: 'x'.repeat(5000) } }, REG)!.nextCursor, undefined);
  assert.equal(parseRegistryPage({ servers: [], metadata: 'nonsense' }, REG)!.nextCursor, undefined);
});

test('an entry with only packages, only SSE, or no remote is not usable, with its reason', () => {
  assert.equal(entryOf(wrap(packageEntry('io.example/files')))!.unusable?.wording?.code, 'reasonDirectoryOnlyPackages');
  assert.equal(entryOf(wrap(sseEntry('io.example/old')))!.unusable?.wording?.code, 'reasonDirectoryOnlySse');
  assert.equal(entryOf(wrap({ name: 'io.example/none' }))!.unusable?.wording?.code, 'reasonDirectoryNoRemotes');
  const mixed = entryOf(
    wrap({
      name: 'io.example/mixed',
      remotes: [
        { type: 'sse', url: 'https://m.example/sse' },
        { type: 'streamable-http', url: 'https://m.example/mcp' },
      ],
    }),
  )!;
  assert.deepEqual(
    mixed.remotes.map((r) => r.url),
    ['https://m.example/mcp'],
  );
  assert.equal(mixed.unusable, undefined);
  assert.deepEqual(codes(mixed.notes), ['reasonDirectorySseDropped']);
});

test('hostile entries: strings cut and on one line, script/data/plain-http URLs dropped with notes, bad header names left out', () => {
  const [big, onlyScript] = hostileEntries().map((e) => entryOf(wrap(e))!);
  const L = DIRECTORY_LIMITS;
  assert.ok(big!.name.length <= L.name && big!.name.endsWith('…'));
  assert.ok(big!.title!.length <= L.title);
  assert.ok(big!.description!.length <= L.description);
  assert.ok(big!.version!.length <= L.version);
  assert.ok(!big!.description!.includes('\u0000') && !big!.description!.includes('\u2028'), 'controls and line separators become spaces');
  assert.equal(big!.websiteUrl, undefined);
  assert.equal(big!.repository, undefined);
  assert.deepEqual(
    big!.remotes.map((r) => r.url),
    ['https://ok.hostile.example/mcp'],
  );
  assert.deepEqual(
    big!.remotes[0]!.headers.map((h) => h.name),
    ['X-Key'],
  );
  assert.ok(big!.remotes[0]!.headers[0]!.description!.length <= L.headerText);
  assert.deepEqual(codes(big!.notes), [
    'reasonDirectoryUrlDropped',
    'reasonDirectoryUrlDropped',
    'reasonDirectoryHeaderDropped',
    'reasonDirectoryUrlDropped',
    'reasonDirectoryUrlDropped',
  ]);
  assert.equal(onlyScript!.unusable?.wording?.code, 'reasonDirectoryNoValidUrl');
  const page = parseRegistryPage({ servers: hostileEntries().map(wrap) }, REG)!;
  assert.ok(DirectoryPageSchema.safeParse(page).success);
  assert.ok(JSON.stringify(page).length < 20_000, 'a page of hostile entries stays small');
});

test('10,000 entries: one page of 100 is kept and the rest counted; nameless and duplicate items are counted', () => {
  const servers = Array.from({ length: 10_000 }, (_, i) => wrap(streamableEntry(`io.flood/s${i}`, `https://s${i}.example/mcp`)));
  const page = parseRegistryPage({ servers }, REG)!;
  assert.equal(page.entries.length, DIRECTORY_LIMITS.entries);
  assert.equal(page.dropped, 10_000 - DIRECTORY_LIMITS.entries);
  const odd = parseRegistryPage(
    {
      servers: [
        42,
        null,
        wrap({ title: 'no name' }),
        wrap(streamableEntry('a/b', 'https://a.example')),
        wrap(streamableEntry('a/b', 'https://a.example')),
      ],
    },
    REG,
  )!;
  assert.equal(odd.entries.length, 1);
  assert.equal(odd.dropped, 4);
});

test('a body that is not the registry envelope is refused', () => {
  for (const body of [null, [], 'text', { servers: 'x' }, { items: [] }]) assert.equal(parseRegistryPage(body, REG), undefined);
});

test('boundedText: non-strings are absent, blanks are absent, long text ends with an ellipsis', () => {
  assert.equal(boundedText(42, 10), undefined);
  assert.equal(boundedText('   ', 10), undefined);
  assert.equal(boundedText('a\nb', 10), 'a b');
  assert.equal(boundedText('abcdefghijkl', 5), 'abcd…');
});
