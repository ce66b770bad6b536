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

/** Hands new servers to every view showing them; a pushed view of a deleted server is left. */
function showServers(els: ShellElements, views: Views, servers: ServerView[]) {
  els.list.servers = servers;
  els.runner.servers = servers;
  els.toolsView.servers = servers;
  const current = views.current;
  if (current.view === 'detail' || current.view === 'tool') {
    const server = servers.find((s) => s.id === current.serverId);
    // The server was deleted: its views have nothing left to show.
    if (!server) views.reset('servers');
    else if (current.view === 'detail') els.detail.server = server;
    else els.toolView.show(server, current.tool);
  }
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
  return {
    get servers() {
      return servers;
    },
    showState(state) {
      servers = state.servers;
      showServers(els, views, servers);
      showConfigErrors(els.configErrors, state.configErrors);
    },
  };
}
