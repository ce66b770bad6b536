/**
 * The Content Security Policy an MCP App view runs under (section Q). The manifest's sandbox CSP
 * is the ceiling for every view; this narrows it to what the view's resource declared
 * (`_meta.ui.csp`), and to no network at all when nothing is declared. The policy is put into the
 * view's HTML as a `<meta>` before any of the view's own markup, so it covers every script.
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

const directive = (name: string, fixed: string[], sources: string[]) => {
  const all = [...fixed, ...sources];
  return `${name} ${all.length ? all.join(' ') : "'none'"}`;
};

/** The view's policy: inline script and style (a view is one HTML file), declared origins only. */
export function viewCsp(csp: UiResourceCsp | undefined): string {
  const resources = cspSources(csp?.resourceDomains);
  return [
    "default-src 'none'",
    directive('script-src', ["'unsafe-inline'"], resources),
    directive('style-src', ["'unsafe-inline'"], resources),
    directive('img-src', ['data:', 'blob:'], resources),
    directive('font-src', ['data:'], resources),
    directive('media-src', ['data:', 'blob:'], resources),
    directive('connect-src', [], cspSources(csp?.connectDomains)),
    directive('frame-src', [], cspSources(csp?.frameDomains)),
    directive('base-uri', [], cspSources(csp?.baseUriDomains)),
    "form-action 'none'",
    "object-src 'none'",
  ].join('; ');
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
