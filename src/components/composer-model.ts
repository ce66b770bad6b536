/**
 * The DOM-free half of the composer (SPEC G2, G3, K4): which `/server:prompt` or `@resource`
 * the text at the caret asks for, the matching catalog entries, a prompt's argument schema, and
 * the message object an agent engine would receive. Catalog strings are the server's: they are
 * only compared and displayed, never interpreted.
 */
import type { ServerView } from '../protocol/panel.js';
import type { ContextBlockView } from '../protocol/panel-composer.js';

export type Trigger = { kind: '/' | '@'; query: string; start: number; end: number };

export type Suggestion =
  | {
      kind: 'prompt';
      serverId: string;
      serverName: string;
      name: string;
      label: string;
      description?: string;
      arguments: Array<{ name: string; description?: string; required?: boolean }>;
    }
  | { kind: 'resource'; serverId: string; serverName: string; uri: string; label: string; description?: string }
  | { kind: 'template'; serverId: string; serverName: string; uriTemplate: string; label: string; description?: string };

const MAX_SUGGESTIONS = 50;

/** The `/word` or `@word` that ends at the caret and starts a word, if any. */
export function triggerAt(text: string, caret: number): Trigger | undefined {
  const before = text.slice(0, caret);
  const m = /(^|\s)([/@])(\S*)$/.exec(before);
  if (!m) return undefined;
  const start = caret - m[2]!.length - m[3]!.length;
  return { kind: m[2] as '/' | '@', query: m[3]!, start, end: caret };
}

const has = (hay: string | undefined, q: string) => !!hay && hay.toLowerCase().includes(q);

/** Entries of ready servers matching the query (case-insensitive substring), bounded. */
export function suggestionsFor(trigger: Trigger, servers: ServerView[]): Suggestion[] {
  const q = trigger.query.toLowerCase();
  const out: Suggestion[] = [];
  for (const s of servers) {
    if (s.status !== 'ready') continue;
    if (trigger.kind === '/') {
      for (const p of s.prompts) {
        const label = `${s.id}:${p.name}`;
        if (has(label, q) || has(p.title, q)) {
          out.push({
            kind: 'prompt',
            serverId: s.id,
            serverName: s.name,
            name: p.name,
            label,
            ...(p.description ? { description: p.description } : {}),
            arguments: (p.arguments ?? []).map((a) => ({
              name: a.name,
              ...(a.description ? { description: a.description } : {}),
              ...(a.required ? { required: true } : {}),
            })),
          });
        }
      }
    } else {
      for (const r of s.resources) {
        if (has(r.name, q) || has(r.uri, q) || has(r.title, q))
          out.push({
            kind: 'resource',
            serverId: s.id,
            serverName: s.name,
            uri: r.uri,
            label: `${r.title ?? r.name} · ${r.uri}`,
            ...(r.description ? { description: r.description } : {}),
          });
      }
      for (const r of s.resourceTemplates) {
        if (has(r.name, q) || has(r.uriTemplate, q) || has(r.title, q))
          out.push({
            kind: 'template',
            serverId: s.id,
            serverName: s.name,
            uriTemplate: r.uriTemplate,
            label: `${r.title ?? r.name} · ${r.uriTemplate}`,
            ...(r.description ? { description: r.description } : {}),
          });
      }
    }
    if (out.length >= MAX_SUGGESTIONS) break;
  }
  return out.slice(0, MAX_SUGGESTIONS);
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
