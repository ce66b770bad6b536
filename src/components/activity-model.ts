/**
 * What the Activity log shows of a request-log entry (SPEC J2), kept apart from the element so it
 * can be tested without a DOM: the JSON-RPC method with its subject, the direction, the outcome,
 * the order (newest start first), the search and the export document. Entries stored before the
 * log spoke JSON-RPC carry internal names; they are shown under the protocol's names too.
 */
import type { RequestLogEntryView } from '../protocol/request-log-view.js';

/** Internal names of older entries → the MCP message they stood for. */
const LEGACY_METHODS: Record<string, string> = {
  connect: 'initialize',
  'call-tool': 'tools/call',
  'get-prompt': 'prompts/get',
  'read-resource': 'resources/read',
  cancel: 'notifications/cancelled',
  'list-category': 'list',
  close: 'session:close',
  'set-authorization': 'session:set-authorization',
};

export type Outcome = 'ok' | 'error';

export interface ActivityRow {
  /** Stable within one list: start time, server and position. */
  key: string;
  entry: RequestLogEntryView;
  /** `tools/call echo`, `resources/read file:///…`, `initialize`, `oauth:token`. */
  label: string;
  method: string;
  subject: string | undefined;
  /** `out`: the extension sent it; `in`: the server asked or notified. */
  direction: 'out' | 'in';
  notification: boolean;
  oauth: boolean;
  outcome: Outcome;
  /** The HTTP status, `ok` or `error`, as text. */
  status: string;
}

export function toRow(entry: RequestLogEntryView, index: number): ActivityRow {
  const method = LEGACY_METHODS[entry.method] ?? entry.method;
  const subject = entry.subject;
  const failed = entry.status === 'error' || (typeof entry.status === 'number' && entry.status >= 400) || entry.error !== undefined;
  return {
    key: `${entry.at}:${entry.serverId}:${index}`,
    entry,
    label: subject ? `${method} ${subject}` : method,
    method,
    subject,
    direction: entry.direction === 'in' ? 'in' : 'out',
    notification: entry.notification === true || method.startsWith('notifications/'),
    oauth: method.startsWith('oauth:'),
    outcome: failed ? 'error' : 'ok',
    status: String(entry.status),
  };
}

/** Rows by start time, newest first; entries that started together keep their stored order reversed. */
export function activityRows(entries: readonly RequestLogEntryView[]): ActivityRow[] {
  return entries
    .map((e, i) => ({ row: toRow(e, i), i }))
    .sort((a, b) => b.row.entry.at - a.row.entry.at || b.i - a.i)
    .map((x) => x.row);
}

/**
 * Whether a row matches every word of the search (case-insensitive) in its method, subject,
 * server, status or error. Payloads are not searched: they are large and already redacted.
 */
export function matchesSearch(row: ActivityRow, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = [row.label, row.entry.serverName, row.entry.serverId, row.status, row.entry.error ?? '', row.oauth ? 'oauth' : '']
    .join('\n')
    .toLowerCase();
  return words.every((w) => hay.includes(w));
}

/** A payload as readable text: strings as they are, anything else as indented JSON. */
export function payloadText(body: unknown): string {
  if (typeof body === 'string') return body;
  try {
    return JSON.stringify(body, null, 2) ?? String(body);
  } catch {
    return String(body);
  }
}

/** Milliseconds as the log shows them: `12 ms`, `1.4 s`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The exported file: the shown entries (already redacted by the worker), newest first. */
export function exportDocument(serverId: string | undefined, rows: readonly ActivityRow[], exportedAt: number): string {
  return JSON.stringify(
    {
      format: 'remote-mcp-for-chrome/request-log',
      version: 2,
      exportedAt: new Date(exportedAt).toISOString(),
      ...(serverId ? { serverId } : {}),
      entries: rows.map((r) => ({ ...r.entry, method: r.method })),
    },
    null,
    2,
  );
}
