/**
 * The diagnostics report a user can send a maintainer (V3): versions, each server's state,
 * reason and capabilities, recent errors with their codes, the worker's starts and adoptions,
 * and the offscreen document's heap. What it leaves out is the point: no tokens, keys or header
 * values (none are read to build it), no tool arguments or results (errors name the method and
 * tool only), no URL query strings, fragments or user info (every URL, also inside a message,
 * is cut to origin and path), and token-shaped strings inside messages are masked.
 */
import type { ServerView } from '../../protocol/panel.js';
import { MAX_DIAGNOSTICS_CHARS } from '../../protocol/panel-diagnostics.js';
import type { WorkerStarts } from './worker-starts.js';

export type ReportServer = Pick<
  ServerView,
  | 'id'
  | 'name'
  | 'url'
  | 'authKind'
  | 'enabled'
  | 'status'
  | 'reason'
  | 'tools'
  | 'prompts'
  | 'resources'
  | 'resourceTemplates'
  | 'disabledTools'
  | 'warnings'
  | 'staleSince'
>;

export interface ReportError {
  serverName: string;
  at: number;
  method: string;
  subject?: string;
  status: 'ok' | 'error' | number;
  error?: string;
}

export interface DiagnosticsInput {
  version: string;
  userAgent: string;
  locale: string;
  now: number;
  workerStartedAt: number;
  starts: WorkerStarts;
  offscreen: { open: boolean; heap?: { usedBytes: number; totalBytes: number } };
  servers: ReportServer[];
  errors: ReportError[];
  configErrors: number;
}

const MAX_ERRORS = 30;
const MAX_TEXT = 300;

/** A URL as origin and path only: no user info, query string or fragment. */
export function urlForReport(raw: string): string {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? `${url.origin}${url.pathname}` : `${url.protocol}…`;
  } catch {
    return '(not a URL)';
  }
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>)\]]+/gi;
const TOKEN_SHAPES = [
  /\b(Bearer|Basic|DPoP)\s+[^\s,;"']+/gi,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
  /\b(sk|pk|rk|ghp|gho|github_pat|xox[abposr])[-_][A-Za-z0-9_-]{12,}/g,
];

/** Server or error text as it may appear in the report: URLs cut, token shapes masked, one bounded line. */
export function scrubText(text: string): string {
  let out = text.replace(URL_IN_TEXT, (u) => urlForReport(u));
  for (const shape of TOKEN_SHAPES)
    out = out.replace(shape, (m, scheme?: string) =>
      scheme && /^(Bearer|Basic|DPoP)$/i.test(scheme) ? `${scheme} [redacted]` : '[redacted]',
    );
  out = out.replace(/\s+/g, ' ').trim();
  return out.length > MAX_TEXT ? `${out.slice(0, MAX_TEXT)}…` : out;
}

const iso = (ms: number) => new Date(ms).toISOString();
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

function serverLines(s: ReportServer): string[] {
  const off = s.disabledTools.length ? ` (${s.disabledTools.length} off)` : '';
  const lines = [
    `- ${scrubText(s.name)} [${s.id}] — ${s.enabled ? s.status : 'switched off'} · auth ${s.authKind} · ${urlForReport(s.url)}`,
    `  tools ${s.tools.length}${off}, prompts ${s.prompts.length}, resources ${s.resources.length}, templates ${s.resourceTemplates.length}` +
      (s.staleSince ? ` · catalog kept since ${iso(s.staleSince)}` : ''),
  ];
  if (s.reason)
    lines.push(`  reason [${s.reason.kind}${s.reason.httpStatus ? ` HTTP ${s.reason.httpStatus}` : ''}]: ${scrubText(s.reason.message)}`);
  if (s.warnings?.length) lines.push(`  catalog warnings: ${s.warnings.length}`);
  return lines;
}

function errorLine(e: ReportError): string {
  const status = typeof e.status === 'number' ? `HTTP ${e.status}` : e.status;
  const subject = e.subject ? ` ${scrubText(e.subject)}` : '';
  return `- ${iso(e.at)} ${scrubText(e.serverName)}: ${scrubText(e.method)}${subject} → ${status}${e.error ? `: ${scrubText(e.error)}` : ''}`;
}

function workerLines(input: DiagnosticsInput): string[] {
  const { starts } = input;
  return [
    `Worker: this instance started ${iso(input.workerStartedAt)}; ${starts.count} start(s) in this browser session (each after the first follows a stop)`,
    ...starts.recent.slice(-10).map((s) => `- ${iso(s.at)}: ${s.held} live session(s) offered for adoption`),
    input.offscreen.open
      ? `Offscreen document: open${input.offscreen.heap ? `; JS heap ${mib(input.offscreen.heap.usedBytes)} used of ${mib(input.offscreen.heap.totalBytes)}` : '; heap not reported'}`
      : 'Offscreen document: not open',
  ];
}

export function diagnosticsReport(input: DiagnosticsInput): string {
  const errors = input.errors.filter((e) => e.status !== 'ok').slice(-MAX_ERRORS);
  const text = [
    'Remote MCP for Chrome — diagnostics',
    `Extension ${input.version} · ${scrubText(input.userAgent)} · UI ${input.locale}`,
    `Written ${iso(input.now)}. Leaves out tokens, keys, header values, tool arguments and results, and URL query strings.`,
    '',
    ...workerLines(input),
    '',
    `Servers (${input.servers.length})${input.configErrors ? `; ${input.configErrors} stored entr${input.configErrors === 1 ? 'y' : 'ies'} could not be read` : ''}:`,
    ...input.servers.flatMap(serverLines),
    '',
    `Recent errors (${errors.length}${errors.length === MAX_ERRORS ? ', newest' : ''}):`,
    ...(errors.length ? errors.map(errorLine) : ['- none']),
    '',
  ].join('\n');
  return text.length > MAX_DIAGNOSTICS_CHARS ? `${text.slice(0, MAX_DIAGNOSTICS_CHARS - 2)}…\n` : text;
}
