import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseImport } from '../../../src/import/parse-import.js';
import { DUPLICATE, EXISTS, SSE, STDIO } from '../../../src/import/reasons.js';
import { entry, fixture, outcomes } from './helpers.js';

const HTTP_ONLY_LOOPBACK = 'invalid URL: must use https (http is allowed only for localhost, 127.0.0.1 or [::1])';

describe('Claude Code .mcp.json', () => {
  const preview = parseImport(fixture('claude-code.json'), []);

  it('adds http entries and skips SSE, stdio and plain-http ones with their reasons', () => {
    assert.equal(preview.dialect, 'claude-code');
    assert.deepEqual(preview.errors, []);
    assert.deepEqual(outcomes(preview), {
      github: 'add',
      'internal-api': 'add',
      sentry: 'add',
      'asana-legacy': `skip: ${SSE.message}`,
      filesystem: `skip: ${STDIO.message}`,
      'plain-http': `skip: ${HTTP_ONLY_LOOPBACK}`,
    });
  });

  it('turns "Authorization: Bearer ${VAR}" into bearer auth with a secret field to fill', () => {
    const github = entry(preview, 'github');
    assert.equal(github.authKind, 'bearer');
    assert.equal(github.bearerToken, '${GITHUB_PAT}');
    assert.deepEqual(github.headers, []);
    assert.deepEqual(github.placeholders, [{ field: 'bearerToken', token: '${GITHUB_PAT}', label: 'GITHUB_PAT', secret: true }]);
  });

  it('keeps a ${VAR:-default} URL with the default prefilled', () => {
    const internal = entry(preview, 'internal-api');
    assert.deepEqual(
      internal.placeholders.map((p) => [p.field, p.token, p.defaultValue]),
      [
        ['url', '${API_BASE_URL:-https://api.example.com}', 'https://api.example.com'],
        ['header:X-API-Key', '${API_KEY}', undefined],
      ],
    );
  });

  it('reads oauth.clientId as a pre-registered OAuth client', () => {
    const sentry = entry(preview, 'sentry');
    assert.equal(sentry.authKind, 'oauth');
    assert.equal(sentry.clientId, 'claude-code-sentry');
  });
});

describe('Cursor mcp.json', () => {
  const preview = parseImport(fixture('cursor.json'), []);

  it('adds url entries, allows http on localhost, adds a repeated URL under another name as another account and skips stdio', () => {
    assert.equal(preview.dialect, 'cursor');
    assert.deepEqual(outcomes(preview), {
      linear: 'add',
      notion: 'add',
      'local-dev': 'add',
      'Linear copy': 'add',
      puppeteer: `skip: ${STDIO.message}`,
    });
    assert.equal(entry(preview, 'Linear copy').anotherAccountOf, 'linear', 'the preview says it is another account (S3)');
    assert.equal(entry(preview, 'linear').anotherAccountOf, undefined);
  });

  it('skips a repeated name in the same paste, whatever its URL', () => {
    const repeated = parseImport('{"mcpServers":{"a":{"url":"https://a.example/mcp"},"A ":{"url":"https://b.example/mcp"}}}', []);
    assert.deepEqual(
      repeated.entries.map((e) => `${e.name}: ${e.status}`),
      ['a: add', 'A: skip'],
    );
    assert.equal(repeated.entries[1]!.reason, DUPLICATE.message);
  });

  it('extracts a lowercase "bearer" token and keeps the other header', () => {
    const notion = entry(preview, 'notion');
    assert.equal(notion.authKind, 'bearer');
    assert.equal(notion.bearerToken, 'ntn_1234567890abcdef');
    assert.deepEqual(notion.headers, [{ name: 'Notion-Version', value: '2022-06-28' }]);
  });
});

describe('VS Code mcp.json (JSONC)', () => {
  const preview = parseImport(fixture('vscode.json'), []);

  it('reads servers despite comments and trailing commas', () => {
    assert.equal(preview.dialect, 'vscode');
    assert.deepEqual(outcomes(preview), {
      github: 'add',
      'tenant-docs': 'add',
      'old-sse': `skip: ${SSE.message}`,
      playwright: `skip: ${STDIO.message}`,
    });
  });

  it('labels ${input:id} from the inputs declaration, password included', () => {
    assert.deepEqual(entry(preview, 'github').placeholders, [
      { field: 'bearerToken', token: '${input:github-token}', label: 'GitHub Personal Access Token', secret: true },
    ]);
    const tenant = entry(preview, 'tenant-docs');
    assert.deepEqual(tenant.placeholders[0], { field: 'url', token: '${input:tenant}', label: 'Tenant subdomain', secret: false });
    assert.deepEqual(tenant.placeholders[1], { field: 'header:X-Client', token: '${env:USER}', label: 'USER', secret: true });
  });
});

describe('Windsurf mcp_config.json', () => {
  const preview = parseImport(fixture('windsurf.json'), []);

  it('reads serverUrl, imports disabled entries disabled and skips bad schemes and stdio', () => {
    assert.equal(preview.dialect, 'windsurf');
    assert.deepEqual(outcomes(preview), {
      figma: 'add',
      stripe: 'add',
      broken: 'skip: invalid URL: scheme ftp: is not allowed (https only)',
      git: `skip: ${STDIO.message}`,
    });
    const stripe = entry(preview, 'stripe');
    assert.equal(stripe.enabled, false);
    assert.deepEqual(stripe.disabledTools, ['create_refund']);
    assert.equal(entry(preview, 'figma').enabled, true);
  });

  it('turns ${env:VAR} in the bearer token into a field to fill', () => {
    const figma = entry(preview, 'figma');
    assert.equal(figma.authKind, 'bearer');
    assert.deepEqual(figma.placeholders, [{ field: 'bearerToken', token: '${env:FIGMA_TOKEN}', label: 'FIGMA_TOKEN', secret: true }]);
  });
});

describe('Gemini CLI settings.json', () => {
  const preview = parseImport(fixture('gemini.json'), []);

  it('adds httpUrl entries and skips url (SSE) and command entries', () => {
    assert.equal(preview.dialect, 'gemini');
    assert.deepEqual(outcomes(preview), {
      'cloud-run': 'add',
      docs: 'add',
      events: `skip: ${SSE.message}`,
      'python-tools': `skip: ${STDIO.message}`,
    });
  });

  it('maps excludeTools, timeout and bare $VAR', () => {
    const run = entry(preview, 'cloud-run');
    assert.deepEqual(run.disabledTools, ['delete_service']);
    assert.equal(run.timeoutMs, 30000);
    assert.equal(run.authKind, 'bearer');
    assert.deepEqual(run.placeholders, [{ field: 'bearerToken', token: '$CLOUD_RUN_TOKEN', label: 'CLOUD_RUN_TOKEN', secret: true }]);
  });

  it('keeps includeTools for after connecting and clamps a tiny timeout, with notes', () => {
    const docs = entry(preview, 'docs');
    assert.deepEqual(docs.includeTools, ['search_docs', 'get_page']);
    assert.deepEqual(docs.disabledTools, []);
    assert.equal(docs.timeoutMs, 1000);
    assert.equal(docs.notes?.length, 2);
  });
});

describe('Claude Desktop via mcp-remote', () => {
  const preview = parseImport(fixture('claude-desktop-mcp-remote.json'), []);

  it('imports the URL behind mcp-remote and skips sse-only and plain stdio', () => {
    assert.equal(preview.dialect, 'claude-desktop');
    assert.deepEqual(outcomes(preview), {
      atlassian: `skip: ${SSE.message}`,
      'cloudflare-docs': 'add',
      'remote-example': 'add',
      'env-auth': 'add',
      sqlite: `skip: ${STDIO.message}`,
    });
  });

  it('reads --header pairs, bearer included', () => {
    const remote = entry(preview, 'remote-example');
    assert.equal(remote.url, 'https://remote.mcp.example.com/mcp');
    assert.equal(remote.bearerToken, 'sk-remote-123');
    assert.deepEqual(remote.headers, [{ name: 'X-Team', value: 'platform' }]);
  });

  it('resolves ${VAR} from the entry env and leaves the rest as fields to fill', () => {
    const env = entry(preview, 'env-auth');
    assert.equal(env.authKind, 'bearer');
    assert.equal(env.bearerToken, 'env-token-456');
    assert.deepEqual(env.placeholders, [{ field: 'header:X-Org', token: '${ORG_ID}', label: 'ORG_ID', secret: true }]);
  });
});

describe('single object, list and our export', () => {
  it('reads a single object with its name and bearer header', () => {
    const preview = parseImport(fixture('single-object.json'), []);
    assert.equal(preview.dialect, 'single');
    assert.deepEqual(outcomes(preview), { 'Acme tools': 'add' });
    const acme = entry(preview, 'Acme tools');
    assert.equal(acme.bearerToken, 'acme-token');
    assert.deepEqual(acme.headers, [{ name: 'X-Acme-Region', value: 'eu' }]);
  });

  it('names an unnamed object after its host and reads an array of objects', () => {
    const preview = parseImport('[{"url":"https://a.example.com/mcp"},{"name":"B","url":"https://b.example.com/mcp"}]', []);
    assert.equal(preview.dialect, 'list');
    assert.deepEqual(outcomes(preview), { 'a.example.com': 'add', B: 'add' });
  });

  it('reads our export: secrets left out become fields, settings are kept', () => {
    const preview = parseImport(fixture('our-export.json'), []);
    assert.equal(preview.dialect, 'export');
    assert.deepEqual(outcomes(preview), { GitHub: 'add', Sentry: 'add', Internal: 'add', 'Dev box': `skip: ${HTTP_ONLY_LOOPBACK}` });
    const github = entry(preview, 'GitHub');
    assert.equal(github.authKind, 'bearer');
    assert.deepEqual(
      github.placeholders.map((p) => [p.field, p.secret]),
      [['bearerToken', true]],
    );
    assert.deepEqual(github.disabledTools, ['delete_repository']);
    const sentry = entry(preview, 'Sentry');
    assert.deepEqual(
      [sentry.authKind, sentry.clientId, sentry.scopes, sentry.timeoutMs, sentry.connectOnStartup],
      ['oauth', 'ext-client', ['org:read', 'project:read'], 120000, false],
    );
    const internal = entry(preview, 'Internal');
    assert.equal(internal.enabled, false);
    assert.deepEqual(
      internal.placeholders.map((p) => p.field),
      ['header:X-Api-Key'],
    );
  });

  it('refuses an export of another version', () => {
    const preview = parseImport('{"format":"remote-mcp-for-chrome","version":2,"servers":[]}', []);
    assert.equal(preview.entries.length, 0);
    assert.match(preview.errors[0] ?? '', /version 2/);
  });
});

describe('conflicts with saved servers', () => {
  it('marks the same name as conflict; the same URL (case and trailing slash aside) under another name is another account (S3)', () => {
    const existing = [
      { name: 'My Linear', url: 'HTTPS://mcp.linear.app/mcp/' },
      { name: 'NOTION', url: 'https://elsewhere.example.com/mcp' },
    ];
    const preview = parseImport(fixture('cursor.json'), existing);
    assert.equal(entry(preview, 'linear').status, 'add');
    assert.equal(entry(preview, 'linear').anotherAccountOf, 'My Linear');
    assert.equal(entry(preview, 'Linear copy').anotherAccountOf, 'My Linear');
    const sameName = parseImport('{"name":"my linear","url":"https://mcp.linear.app/mcp"}', existing).entries[0]!;
    assert.equal(sameName.status, 'conflict', 'the same URL under the same name still asks');
    assert.equal(sameName.reason, EXISTS.message);
    assert.equal(sameName.conflictWith, 'My Linear');
    assert.equal(entry(preview, 'notion').status, 'conflict');
    assert.equal(entry(preview, 'notion').conflictWith, 'NOTION');
    assert.equal(entry(preview, 'local-dev').status, 'add');
  });

  it('a server at a different path of the same host is not a conflict', () => {
    const preview = parseImport('{"url":"https://mcp.linear.app/other"}', [{ name: 'x', url: 'https://mcp.linear.app/mcp' }]);
    assert.equal(preview.entries[0]?.status, 'add');
  });
});
