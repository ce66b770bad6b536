/**
 * Side-panel entry: defines the elements, sets up the views and hands each area's wiring its
 * elements. Each area lives in its own `src/panel/<area>.ts`; this file only connects them.
 */
import { defineAll } from '../components/define.js';
import { t } from '../components/i18n.js';
import { darkTokenDeclarations, tokenDeclarations } from '../components/tokens.js';
import { createCall } from './call.js';
import { setUpUsePanel } from './use-servers.js';
import { setUpManagePanel } from './manage-panel.js';
import { setUpStepUp } from './step-up.js';
import { setUpServerActions } from './server-actions.js';
import { setUpShell } from './shell.js';
import { setUpStatePort } from './state-port.js';

defineAll();
const page = new CSSStyleSheet();
page.replaceSync(`:root { ${tokenDeclarations} } @media (prefers-color-scheme: dark) { :root { ${darkTokenDeclarations} } }`);
document.adoptedStyleSheets = [page];
document.title = t('panelTitle');

const $ = <K extends keyof HTMLElementTagNameMap>(tag: K) => document.querySelector(tag)!;
const runner = $('mcp-tool-runner');
const shell = setUpShell({ runner });
const onUsePush = setUpUsePanel({
  runner,
  approvals: document.querySelector<HTMLElement>('#approvals')!,
  elicitations: document.querySelector<HTMLElement>('#elicitations')!,
  composer: $('mcp-composer'),
});
const wake = setUpStatePort((message) => {
  onUsePush(message);
  shell.onPush(message);
});
const call = createCall(wake);
const stepUp = setUpStepUp({ call, after: runner });
const ping = setUpManagePanel({ call, importer: $('mcp-import') });
setUpServerActions({ call, servers: () => shell.servers, form: $('mcp-add-server'), runner, stepUp, ping });
