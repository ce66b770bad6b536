/**
 * The panel's shell: the header's views and the state pushes handed to every view that shows
 * servers.
 */
import { t, tReason } from '../components/i18n.js';
import type { McpToolRunnerElement } from '../components/mcp-tool-runner.js';
import type { PanelState, ServerView } from '../protocol/panel.js';
import { setUpViews, type Views } from './views.js';

export interface Shell {
  readonly servers: ServerView[];
  /** Handles `panel:state` pushes (push-router.ts). */
  showState(state: PanelState): void;
  /**
   * After Add: the new server's detail in place of the Add view, as soon as the server is in a
   * state push (its next action — Authorize, Update token — is that detail's primary button).
   */
  showAdded(serverId: string, from: object, note?: string): void;
  /** The view shown now; the same object while it stays open (compared by `showAdded`). */
  readonly shown: object;
}

/** The elements the shell fills with servers. */
function shellElements(runner: McpToolRunnerElement) {
  const $ = <K extends keyof HTMLElementTagNameMap>(tag: K) => document.querySelector(tag)!;
  return {
    header: $('mcp-app-header'),
    list: $('mcp-server-list'),
    detail: $('mcp-server-detail'),
    toolsView: $('mcp-tools-view'),
    toolView: $('mcp-tool-view'),
    runner,
    configErrors: document.querySelector<HTMLElement>('#config-errors')!,
  };
}
type ShellElements = ReturnType<typeof shellElements>;

/** The views, filled for their target from the servers last pushed. */
function shellViews(els: ShellElements, servers: () => ServerView[]): Views {
  const find = (serverId: string) => servers().find((s) => s.id === serverId);
  return setUpViews({
    header: els.header,
    prepare(target) {
      if (target.view === 'detail') els.detail.server = find(target.serverId);
      if (target.view === 'tool') {
        els.toolView.show(find(target.serverId), target.tool);
        els.runner.select(target.serverId, target.tool);
      }
    },
    focusTarget(view) {
      if (view === 'detail') return els.detail;
      if (view === 'tool') return els.toolView;
      return undefined;
    },
  });
}

/**
 * Hands new servers to every view showing them; a pushed view of a deleted server is left for the
 * list, whose next row (else its heading) takes the focus — never the page.
 */
function showServers(els: ShellElements, views: Views, servers: ServerView[], before: ServerView[]) {
  els.list.servers = servers;
  els.runner.servers = servers;
  els.toolsView.servers = servers;
  const current = views.current;
  if (current.view === 'detail' || current.view === 'tool') {
    const server = servers.find((s) => s.id === current.serverId);
    // The server was deleted: its views have nothing left to show.
    if (!server) views.reset('servers', () => els.list.focusAfterRemoval(nextIdAfter(before, servers, current.serverId)));
    else if (current.view === 'detail') els.detail.server = server;
    else els.toolView.show(server, current.tool);
  }
}

/** The server listed after `removed` before it went (else the one before it), if any is left. */
function nextIdAfter(before: ServerView[], now: ServerView[], removed: string): string | undefined {
  const left = new Set(now.map((s) => s.id));
  const at = before.findIndex((s) => s.id === removed);
  return [...before.slice(at + 1), ...before.slice(0, Math.max(0, at)).reverse()].find((s) => left.has(s.id))?.id;
}

function showConfigErrors(container: HTMLElement, errors: PanelState['configErrors']) {
  container.replaceChildren(
    ...errors.map((c) =>
      Object.assign(document.createElement('p'), {
        className: 'error',
        // A newer version's whole list is not "an invalid entry": its reason says all.
        textContent: c.scope === 'version' ? tReason(c) : `${t('configError')} ${tReason(c)}`,
      }),
    ),
  );
}

export function setUpShell({ runner }: { runner: McpToolRunnerElement }): Shell {
  const els = shellElements(runner);
  let servers: ServerView[] = [];
  document.querySelector('h1')!.textContent = t('panelTitle');
  const views = shellViews(els, () => servers);
  /** A server just added that no state push has listed yet, and what to say on its detail. */
  let added: { serverId: string; from: object; note: string | undefined } | undefined;
  const openAdded = () => {
    const a = added;
    if (!a || !servers.some((s) => s.id === a.serverId)) return;
    added = undefined;
    // Only from the Add view the click was in: a user who moved on meanwhile stays where they went.
    if (views.current !== a.from) return;
    views.replace({ view: 'detail', serverId: a.serverId });
    if (a.note) els.detail.header.showActionError(a.note);
  };
  return {
    get servers() {
      return servers;
    },
    showState(state) {
      const before = servers;
      servers = state.servers;
      showServers(els, views, servers, before);
      showConfigErrors(els.configErrors, state.configErrors);
      openAdded();
    },
    get shown() {
      return views.current;
    },
    showAdded(serverId, from, note) {
      added = { serverId, from, note };
      openAdded();
    },
  };
}
