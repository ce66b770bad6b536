/**
 * Side-panel entry: defines the elements, sets up the views and hands each area's wiring its
 * elements. Each area lives in its own `src/panel/<area>.ts`; this file only connects them.
 */
import { defineAll } from '../components/define.js';
import { t } from '../components/i18n.js';
import { darkTokenDeclarations, tokenDeclarations } from '../components/tokens.js';
import { createCall } from './call.js';
import { setUpUsePanel } from './use-panel.js';
import { setUpAppHost } from './app-host.js';
import { setUpManagePanel } from './manage-panel.js';
import { setUpStepUp } from './step-up.js';
import { setUpServerActions } from './server-actions.js';
import { setUpDefinitionActions } from './definition-actions.js';
import { setUpShell } from './shell.js';
import { setUpPanelPort } from './panel-port.js';
import { wireChatPanel } from './chat.js';
import { isChatApproval } from './chat-approvals.js';
import { setUpServerForms } from './server-forms.js';
import { setUpActivity } from './activity.js';
import { setUpDirectory } from './directory.js';
import { PushRouter } from './push-router.js';
import { PanelPushSchemas } from '../protocol/panel.js';

defineAll();
const page = new CSSStyleSheet();
page.replaceSync(`:root { ${tokenDeclarations} } @media (prefers-color-scheme: dark) { :root { ${darkTokenDeclarations} } }`);
document.adoptedStyleSheets = [page];
document.title = t('panelTitle');

const $ = <K extends keyof HTMLElementTagNameMap>(tag: K) => document.querySelector(tag)!;
const runner = $('mcp-tool-runner');
const shell = setUpShell({ runner });
// The router is built once every area is set up; a Port message cannot arrive before this
// script's first task ends.
const port = setUpPanelPort((message) => router.route(message), {
  // A chat shown as answering must not go silent when the worker stops: reconnecting at once wakes
  // it, and the chat is read again (its run either goes on or was closed as "interrupted").
  dropped: () => chat.running() && port.reconnect(),
  reconnected: () => chat.reattach(),
});
const call = createCall(port.request);
setUpAppHost(call);
const usePanel = setUpUsePanel({
  runner,
  approvals: document.querySelector<HTMLElement>('#approvals')!,
  elicitations: document.querySelector<HTMLElement>('#elicitations')!,
  shownElsewhere: isChatApproval,
  call,
});
const chat = wireChatPanel({ call });
const activityChanged = setUpActivity({ call });
const stepUp = setUpStepUp({ call, after: runner });
setUpServerForms({
  call,
  shown: () => shell.shown,
  added: (serverId, from, note) => shell.showAdded(serverId, from, note),
});
setUpDirectory({ call, directory: $('mcp-directory'), addForm: $('mcp-add-server') });
const ping = setUpManagePanel({ call, importer: $('mcp-import') });
setUpServerActions({ call, servers: () => shell.servers, runner, stepUp, ping });
setUpDefinitionActions(call);

/** Every push type and its one handler (push-router.ts); a type left out does not compile. */
const router = new PushRouter(PanelPushSchemas, {
  'panel:state': ({ state }) => {
    shell.showState(state);
    chat.showServers(state.servers);
    // The guided add tells another account on a saved URL (S3).
    $('mcp-add-server').setKnownServers(state.servers);
  },
  'panel:approvals': ({ approvals }) => {
    usePanel.showApprovals(approvals);
    chat.showApprovals(approvals);
  },
  'panel:elicitations': ({ elicitations }) => usePanel.showElicitations(elicitations),
  'panel:progress': (push) => usePanel.showProgress(push),
  'panel:tasks': ({ tasks }) => ($('mcp-server-detail').tasks = tasks),
  'panel:chat': ({ chat: view }) => chat.showChat(view),
  'panel:chat-text': (push) => chat.showText(push),
  'panel:chat-tool-result': (push) => chat.showToolResult(push),
  'panel:chat-deleted': ({ chatId }) => chat.deleted(chatId),
  'panel:activity-changed': activityChanged,
});
