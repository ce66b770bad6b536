/**
 * Side-panel entry: defines the elements, sets up the views and hands each area's wiring its
 * elements. Each area lives in its own `src/panel/<area>.ts`; this file only connects them.
 */
import { defineAll } from '../components/define.js';
import { t } from '../components/i18n.js';
import { darkTokenDeclarations, tokenDeclarations } from '../components/tokens.js';
import { createCall } from './call.js';
import { setUpUsePanel } from './use-servers.js';
import { setUpAppHost } from './app-host.js';
import { setUpManagePanel } from './manage-panel.js';
import { setUpStepUp } from './step-up.js';
import { setUpServerActions } from './server-actions.js';
import { setUpShell } from './shell.js';
import { setUpPanelPort } from './panel-port.js';
import { setUpChat } from './chat.js';
import { isChatApproval } from './chat-approvals.js';
import { setUpServerForms } from './server-forms.js';
import { setUpActivity } from './activity.js';

defineAll();
const page = new CSSStyleSheet();
page.replaceSync(`:root { ${tokenDeclarations} } @media (prefers-color-scheme: dark) { :root { ${darkTokenDeclarations} } }`);
document.adoptedStyleSheets = [page];
document.title = t('panelTitle');

const $ = <K extends keyof HTMLElementTagNameMap>(tag: K) => document.querySelector(tag)!;
const runner = $('mcp-tool-runner');
const shell = setUpShell({ runner });
// Areas join the push handlers as they are set up; a Port message cannot arrive before this
// script's first task ends.
const pushHandlers: ((message: unknown) => void)[] = [];
const port = setUpPanelPort((message) => pushHandlers.forEach((handle) => handle(message)), {
  // A chat shown as answering must not go silent when the worker stops: reconnecting at once wakes
  // it, and the chat is read again (its run either goes on or was closed as "interrupted").
  dropped: () => chat.running() && port.reconnect(),
  reconnected: () => chat.reattach(),
});
const call = createCall(port.request);
setUpAppHost(call);
const onUsePush = setUpUsePanel({
  runner,
  approvals: document.querySelector<HTMLElement>('#approvals')!,
  elicitations: document.querySelector<HTMLElement>('#elicitations')!,
  shownElsewhere: isChatApproval,
  call,
});
pushHandlers.push(onUsePush, (message) => shell.onPush(message));
const chat = setUpChat({ call });
pushHandlers.push(chat.onPush, setUpActivity({ call }));
const stepUp = setUpStepUp({ call, after: runner });
setUpServerForms({ call });
const ping = setUpManagePanel({ call, importer: $('mcp-import') });
setUpServerActions({ call, servers: () => shell.servers, runner, stepUp, ping });
