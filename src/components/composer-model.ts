/**
 * The DOM-free half of the composer (SPEC G2, G3, K4): which `/server:prompt` or `@resource`
 * the text at the caret asks for, the matching catalog entries, a prompt's argument schema, and
 * the message object an agent engine would receive. Catalog strings are the server's: they are
 * only compared and displayed, never interpreted.
 */
import type { ServerView } from '../protocol/panel.js';
import type { ContextBlockView } from '../protocol/panel-composer.js';

export type Trigger = { kind: '/' | '@'; query: string; start: number; end: number };

/**
 * One entry of the suggestion list. `label` is what the user reads: the server's title for the
 * prompt or resource, else its name; `serverName` says where it comes from. Internal server ids
 * are never shown; they travel only in `serverId`, for the request.
 */
export type Suggestion =
  | {
      kind: 'prompt';
      key: string;
      serverId: string;
      serverName: string;
      name: string;
      label: string;
      description?: string;
      arguments: Array<{ name: string; description?: string; required?: boolean }>;
    }
  | { kind: 'resource'; key: string; serverId: string; serverName: string; uri: string; label: string; description?: string }
  | { kind: 'template'; key: string; serverId: string; serverName: string; uriTemplate: string; label: string; description?: string };

const MAX_SUGGESTIONS = 50;

/** The `/word` or `@word` that ends at the caret and starts a word, if any. */
export function triggerAt(text: string, caret: number): Trigger | undefined {
  const before = text.slice(0, caret);
  const m = /(^|\s)([/@])(\S*)$/.exec(before);
  if (!m) return undefined;
  const start = caret - m[2]!.length - m[3]!.length;
  return { kind: m[2] as '/' | '@', query: m[3]!, start, end: caret };
}

/** Every word of the query appears in one of the fields (case-insensitive); `server:prompt` splits at the colon. */
function matches(query: string, fields: Array<string | undefined>): boolean {
  const hay = fields.filter(Boolean).join('\n').toLowerCase();
  return query
    .toLowerCase()
    .split(/[\s:]+/)
    .filter(Boolean)
    .every((word) => hay.includes(word));
}

const origin = (s: ServerView) => ({ serverId: s.id, serverName: s.name });
const described = (d: string | undefined) => (d ? { description: d } : {});

function promptSuggestions(s: ServerView, q: string): Suggestion[] {
  return s.prompts
    .filter((p) => matches(q, [p.title, p.name, s.name, s.id]))
    .map((p) => ({
      kind: 'prompt',
      key: `prompt\n${s.id}\n${p.name}`,
      ...origin(s),
      name: p.name,
      label: p.title || p.name,
      ...described(p.description),
      arguments: (p.arguments ?? []).map((a) => ({ name: a.name, ...described(a.description), ...(a.required ? { required: true } : {}) })),
    }));
}

/** Resources and resource templates alike: one entry per URI (or URI template). */
function resourceSuggestions(s: ServerView, q: string): Suggestion[] {
  const entry = (r: { title?: string; name: string; description?: string }, address: string) =>
    matches(q, [r.title, r.name, address, s.name]) ? { ...origin(s), label: r.title || r.name, ...described(r.description) } : undefined;
  return [
    ...s.resources.flatMap((r) => {
      const e = entry(r, r.uri);
      return e ? [{ kind: 'resource' as const, key: `resource\n${s.id}\n${r.uri}`, uri: r.uri, ...e }] : [];
    }),
    ...s.resourceTemplates.flatMap((r) => {
      const e = entry(r, r.uriTemplate);
      return e ? [{ kind: 'template' as const, key: `template\n${s.id}\n${r.uriTemplate}`, uriTemplate: r.uriTemplate, ...e }] : [];
    }),
  ];
}

/**
 * Entries of ready servers matching the query, by title, name, URI or server name; bounded, and
 * each entry once (a catalog listing the same prompt or URI twice shows it once).
 */
export function suggestionsFor(trigger: Trigger, servers: ServerView[]): Suggestion[] {
  const out = new Map<string, Suggestion>();
  for (const s of servers) {
    if (s.status !== 'ready') continue;
    const found = trigger.kind === '/' ? promptSuggestions(s, trigger.query) : resourceSuggestions(s, trigger.query);
    for (const entry of found) if (!out.has(entry.key) && out.size < MAX_SUGGESTIONS) out.set(entry.key, entry);
  }
  return [...out.values()];
}

/** A prompt's arguments as an object schema of strings, for the shared schema form. */
export function promptArgumentSchema(args: Array<{ name: string; description?: string; required?: boolean }>) {
  const properties: Record<string, unknown> = {};
  for (const a of args) properties[a.name] = { type: 'string', ...(a.description ? { description: a.description } : {}) };
  return { type: 'object', properties, required: args.filter((a) => a.required).map((a) => a.name) };
}

/**
 * The user message as an agent engine would send it: the typed text, then every block as an
 * untrusted context part with its provenance, fenced text and delimiter.
 */
export function messageObject(text: string, blocks: ContextBlockView[]) {
  return {
    role: 'user' as const,
    content: [
      { type: 'text' as const, text },
      ...blocks.map((b) => ({
        type: 'context' as const,
        kind: b.kind,
        untrusted: b.untrusted,
        provenance: { source: 'mcp' as const, ...b.provenance },
        delimiter: b.delimiter,
        text: b.text,
      })),
    ],
  };
}
