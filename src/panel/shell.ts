/**
 * The panel's shell: the header's views and the state pushes handed to every view that shows
 * servers.
 */
import { t, tReason } from '../components/i18n.js';
import type { McpToolRunnerElement } from '../components/mcp-tool-runner.js';
import { PanelPushSchema, type ServerView } from '../protocol/panel.js';
import { setUpViews } from './views.js';

export interface Shell {
  readonly servers: ServerView[];
  onPush(message: unknown): void;
}

export function setUpShell({ runner }: { runner: McpToolRunnerElement }): Shell {
  const $ = <K extends keyof HTMLElementTagNameMap>(tag: K) => document.querySelector(tag)!;
  const list = $('mcp-server-list');
  const detail = $('mcp-server-detail');
  const toolsView = $('mcp-tools-view');
  const toolView = $('mcp-tool-view');
  const configErrors = document.querySelector<HTMLElement>('#config-errors')!;
  let servers: ServerView[] = [];
  document.querySelector('h1')!.textContent = t('panelTitle');

  const views = setUpViews({
    header: $('mcp-app-header'),
    prepare(target) {
      if (target.view === 'detail') detail.server = servers.find((s) => s.id === target.serverId);
      if (target.view === 'tool') {
        toolView.show(
          servers.find((s) => s.id === target.serverId),
          target.tool,
        );
        runner.select(target.serverId, target.tool);
      }
    },
    focusTarget(view) {
      if (view === 'detail') return detail;
      if (view === 'tool') return toolView;
      return undefined;
    },
  });

  return {
    get servers() {
      return servers;
    },
    onPush(message) {
      const push = PanelPushSchema.safeParse(message);
      if (!push.success) return;
      servers = push.data.state.servers;
      list.servers = servers;
      runner.servers = servers;
      toolsView.servers = servers;
      const current = views.current;
      if (current.view === 'detail' || current.view === 'tool') {
        const server = servers.find((s) => s.id === current.serverId);
        // The server was deleted: its views have nothing left to show.
        if (!server) views.reset('servers');
        else if (current.view === 'detail') detail.server = server;
        else toolView.show(server, current.tool);
      }
      configErrors.replaceChildren(
        ...push.data.state.configErrors.map((c) =>
          Object.assign(document.createElement('p'), { className: 'error', textContent: `${t('configError')} ${tReason(c)}` }),
        ),
      );
    },
  };
}
