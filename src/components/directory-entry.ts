/**
 * One registry entry as the directory lists it (SPEC S1): title (or name) and version, the
 * reverse-DNS name (its namespace is the publisher), description, source and website as text (no
 * links: a registry's URL is never opened from here), each Streamable HTTP endpoint with its
 * "Use" button, or the reason the entry is not usable here. Every string is registry text, set
 * with textContent only; the worker has already bounded it.
 */
import type { DirectoryEntry } from '../protocol/panel-directory.js';
import { el } from './dom.js';
import { t, tReason } from './i18n.js';

export const directoryEntryCss = `
.entry { display: grid; gap: 2px; padding: var(--space-2); border: 1px solid var(--border); border-radius: var(--radius); min-width: 0; }
.entry.unusable { background: var(--bg-raised); }
.entry h3 { margin: 0; font-size: var(--text-title); display: flex; gap: var(--space-2); align-items: baseline; min-width: 0; }
/* A registry's text is bounded but may be one unbroken word: it wraps anywhere, and is clamped (all of it in the title). */
.entry h3 .title { flex: 1 1 auto; min-width: 0; overflow-wrap: anywhere; display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; overflow: hidden; }
.entry h3 .version { flex: 0 1 auto; max-width: 35%; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-size: var(--text-small); font-weight: normal; }
.entry .name { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; overflow: hidden; }
.entry .description { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 4; overflow: hidden; }
.entry p { margin: 0; overflow-wrap: anywhere; }
.entry .small { font-size: var(--text-small); }
.entry .remote { display: flex; gap: var(--space-2); align-items: center; min-width: 0; margin-top: var(--space-1); }
.entry .remote .url { flex: 1; min-width: 0; font-family: monospace; font-size: var(--text-small); overflow-wrap: anywhere; }
.entry .reason { color: var(--fg); font-size: var(--text-small); }
.entry ul { margin: 0; padding-left: var(--space-4); }
`;

/** The endpoint's line: its URL, the headers it asks for, and the button that takes it to the guided add. */
function remoteLine(entry: DirectoryEntry, remote: DirectoryEntry['remotes'][number], choose: () => void): HTMLElement[] {
  const use = el(
    'button',
    { type: 'button', name: 'use', 'data-url': remote.url, 'aria-label': t('directoryUseNamed', entry.title ?? entry.name, remote.url) },
    t('directoryUse'),
  );
  use.addEventListener('click', choose);
  const line = el('div', { class: 'remote' }, el('span', { class: 'url' }, remote.url), use);
  const names = remote.headers.map((h) => h.name).join(', ');
  return names ? [line, el('p', { class: 'small muted asks' }, t('directoryAsksHeaders', names))] : [line];
}

/** What the registry says about the entry, each line only when it has something to say. */
function infoLines(entry: DirectoryEntry): (HTMLElement | null)[] {
  return [
    entry.title ? el('p', { class: 'small muted name', title: entry.name }, entry.name) : null,
    entry.description ? el('p', { class: 'description', title: entry.description }, entry.description) : null,
    entry.repository ? el('p', { class: 'small muted repository' }, t('directoryRepository', entry.repository)) : null,
    entry.websiteUrl ? el('p', { class: 'small muted website' }, t('directoryWebsite', entry.websiteUrl)) : null,
  ];
}

export function directoryEntry(entry: DirectoryEntry, choose: (remote: DirectoryEntry['remotes'][number]) => void): HTMLElement {
  const heading = el(
    'h3',
    {},
    el('span', { class: 'title', title: entry.title ?? entry.name }, entry.title ?? entry.name),
    entry.version ? el('span', { class: 'version muted', title: entry.version }, entry.version) : null,
  );
  const remotes = entry.remotes.flatMap((r) => remoteLine(entry, r, () => choose(r)));
  const reason = entry.unusable ? el('p', { class: 'reason' }, t('directoryNotUsable', tReason(entry.unusable))) : null;
  const notes = entry.notes.length ? el('ul', { class: 'small muted notes' }, ...entry.notes.map((n) => el('li', {}, tReason(n)))) : null;
  return el(
    'div',
    { role: 'listitem', class: entry.unusable ? 'entry unusable' : 'entry', 'data-name': entry.name },
    heading,
    ...infoLines(entry),
    ...remotes,
    reason,
    notes,
  );
}
