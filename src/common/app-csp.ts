/**
 * The Content Security Policy an MCP App view runs under (section Q). The manifest's sandbox CSP
 * is the ceiling for every view; this narrows it to what the view's resource declared
 * (`_meta.ui.csp`), and to no network at all when nothing is declared. The policy is put into the
 * view's HTML as a `<meta>` before any of the view's own markup, so it covers every script.
 *
 * U3: a loopback origin (the user's own machine) is kept only when the view's server is itself
 * on loopback; a remote server's view would otherwise reach local services. U2: declared
 * `frameDomains` are refused — a nested document lives under its own server's policy, not the
 * view's, so it would take the view outside what it declared. What is dropped is told to the user.
 */
import type { UiResourceCsp } from '../protocol/mcp-apps.js';

/** An origin a view may declare: https/wss anywhere (one leading `*.` label allowed), http/ws on loopback. */
const SOURCE = /^(?:(?:https|wss):\/\/(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*|(?:http|ws):\/\/(?:localhost|127\.0\.0\.1))(?::\d{1,5})?$/;

/** The declared origins that are well-formed sources; anything else (keywords, paths, `;`) is dropped. */
export function cspSources(list: readonly string[] | undefined): string[] {
  const out = new Set<string>();
  for (const raw of list ?? []) {
    const value = raw.trim().toLowerCase().replace(/\/$/, '');
    if (SOURCE.test(value)) out.add(value);
  }
  return [...out];
}

/**
 * The host of a source may be this machine: `localhost` and its subdomains (Chromium resolves them
 * to loopback), or an IPv4 literal in any form — the URL parser reads a host whose last label is
 * a number (`127.1`, `2130706433`, `0x7f.1`) as an address, so every such host is treated as local.
 */
function reachesLoopback(source: string): boolean {
  const host = (/^[a-z]+:\/\/([^:/]+)/.exec(source)?.[1] ?? '').replace(/^\*\./, '');
  return host === 'localhost' || host.endsWith('.localhost') || /(?:^|\.)(?:0x[0-9a-f]*|\d+)$/.test(host);
}

/** What the view declared but does not get (U2, U3), for the note beside the view. */
export interface DroppedSources {
  /** Loopback origins declared by the view of a server that is not on loopback. */
  loopback: string[];
  /** Declared `frameDomains`: nested frames are never allowed. */
  frames: string[];
}

export interface ViewPolicy {
  policy: string;
  dropped: DroppedSources;
}

const directive = (name: string, fixed: string[], sources: string[]) => {
  const all = [...fixed, ...sources];
  return `${name} ${all.length ? all.join(' ') : "'none'"}`;
};

/**
 * The view's policy: inline script and style (a view is one HTML file), declared origins only,
 * loopback ones only for a server on loopback (`serverOnLoopback`), and no nested frames.
 */
export function viewCsp(csp: UiResourceCsp | undefined, serverOnLoopback = false): ViewPolicy {
  const loopback = new Set<string>();
  const allowed = (list: readonly string[] | undefined) =>
    cspSources(list).filter((source) => {
      if (serverOnLoopback || !reachesLoopback(source)) return true;
      loopback.add(source);
      return false;
    });
  const resources = allowed(csp?.resourceDomains);
  const policy = [
    "default-src 'none'",
    directive('script-src', ["'unsafe-inline'"], resources),
    directive('style-src', ["'unsafe-inline'"], resources),
    directive('img-src', ['data:', 'blob:'], resources),
    directive('font-src', ['data:'], resources),
    directive('media-src', ['data:', 'blob:'], resources),
    directive('connect-src', [], allowed(csp?.connectDomains)),
    "frame-src 'none'",
    "child-src 'none'",
    directive('base-uri', [], allowed(csp?.baseUriDomains)),
    "form-action 'none'",
    "object-src 'none'",
  ].join('; ');
  return { policy, dropped: { loopback: [...loopback], frames: cspSources(csp?.frameDomains) } };
}

const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The view's HTML with the policy first: after a leading doctype (so the document keeps its mode),
 * before anything else — a `<meta>` there starts the head, and the view's later `<head>` merges
 * into it, so no script of the view runs before the policy applies.
 */
export function withCsp(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(policy)}">`;
  const doctype = /^\uFEFF?\s*<!doctype[^>]*>/i.exec(html);
  return doctype ? `${doctype[0]}${meta}${html.slice(doctype[0].length)}` : `${meta}${html}`;
}
