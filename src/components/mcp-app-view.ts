/**
 * An MCP App view (section Q): the interactive HTML a tool ships, rendered with its call's result.
 * The view runs in the extension's sandbox page (`app-sandbox.html`, no extension APIs, opaque
 * origin) inside an inner frame sandboxed to scripts only, under the CSP its resource declared
 * and nothing more ({@link viewCsp}). Messages from the frame are accepted only when their
 * `source` is this element's sandbox window and they are the sandbox page's bounded envelope;
 * the {@link AppBridge} checks and answers them. Inline under the result by default; "Full panel"
 * (or the view's own request, made while the user interacts with it) fills the side panel; a link
 * the view offers opens only on the user's click, in a new tab; a message it sends is a suggestion
 * the user may insert into the chat draft (U4). A view whose frame navigates is closed and says so
 * (U2); the sources its policy left out are noted (U2, U3). {@link close} asks the view to tear
 * down, with a timeout.
 */
import { ElementBase } from './element-base.js';
import { el, sheet } from './dom.js';
import { t } from './i18n.js';
import { AppHostRequestEvent, type AppViewHost } from './events.js';
import { AppBridge, type BridgeCall } from './app-bridge.js';
import { viewCsp, withCsp, type DroppedSources } from '../common/app-csp.js';
import { SandboxToPanelSchema } from '../protocol/app-view.js';
import { APP_SANDBOX_PAGE } from '../protocol/mcp-apps.js';
import { randomId } from '../common/random-id.js';
import type { CallToolResult } from '../protocol/mcp-shapes.js';

const css = sheet(`
:host { display: grid; gap: var(--space-1); border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-1); background: var(--bg); }
:host([fullscreen]) { position: fixed; inset: 0; z-index: 1000; border-radius: 0; display: flex; flex-direction: column; padding: var(--space-2); }
.bar { display: flex; gap: var(--space-2); align-items: center; min-width: 0; }
.bar .label { flex: 1; min-width: 0; font-size: var(--text-small); font-weight: 600; color: var(--fg-muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.bar button { padding: 0 var(--space-2); font-size: var(--text-small); }
.link, .suggestion, .offer { display: grid; gap: var(--space-1); border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-1) var(--space-2); background: var(--bg-raised); }
.link .url { overflow-wrap: anywhere; font-family: ui-monospace, monospace; font-size: var(--text-small); margin: 0; }
.link .actions, .suggestion .actions, .offer .actions { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; }
.suggestion .from { font-size: var(--text-small); font-weight: 600; color: var(--fg-muted); }
.suggestion .text { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 8em; overflow: auto; }
.notes { display: grid; gap: var(--space-1); font-size: var(--text-small); }
.notes p { overflow-wrap: anywhere; }
.link a { color: var(--accent); }
p { margin: 0; }
iframe { display: block; width: 100%; height: 160px; border: 0; background: transparent; }
:host([fullscreen]) iframe { flex: 1 1 auto; height: auto !important; min-height: 0; }
`);

export interface AppViewCall extends BridgeCall {
  serverId: string;
}

export class McpAppViewElement extends ElementBase {
  readonly #label = el('span', { class: 'label' });
  readonly #full = el('button', { type: 'button', class: 'fullscreen', 'data-role': 'quiet', 'aria-pressed': 'false' }, t('appFullscreen'));
  readonly #status = el('div', { class: 'status', role: 'status' });
  readonly #link = el('div', { class: 'link', hidden: true });
  readonly #notes = el('div', { class: 'notes' });
  readonly #suggestion = el('div', { class: 'suggestion', role: 'status', hidden: true });
  readonly #offer = el('div', { class: 'offer', hidden: true });
  #frame: HTMLIFrameElement | undefined;
  #bridge: AppBridge | undefined;
  #onMessage: ((e: MessageEvent) => void) | undefined;
  #linkAnswer: ((opened: boolean) => void) | undefined;
  #call: AppViewCall | undefined;
  #cancelReason: string | undefined;
  /** Tells the worker the mounted view's session ended, which ends its per-view grants (U1). */
  #endViewSession: (() => void) | undefined;
  /** Where the sandbox page is; component tests point it at a fixture. */
  sandboxUrl = APP_SANDBOX_PAGE;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    this.#full.addEventListener('click', () => this.#setMode(this.hasAttribute('fullscreen') ? 'inline' : 'fullscreen'));
    // A full-panel view covers the panel's tabs: Escape gives them back (and does not also leave the view it is in).
    this.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || !this.hasAttribute('fullscreen')) return;
      e.preventDefault();
      this.#setMode('inline');
      this.#full.focus();
    });
    root.append(el('div', { class: 'bar' }, this.#label, this.#full), this.#status, this.#notes, this.#link, this.#offer, this.#suggestion);
  }

  /** Renders the view of `call.tool` with that call's input and result (or without, until {@link deliverResult}). */
  show(call: AppViewCall) {
    this.#stop();
    this.#call = call;
    this.#cancelReason = undefined;
    const request = new AppHostRequestEvent();
    this.dispatchEvent(request);
    const host = request.host;
    this.#label.textContent = t('appView', call.tool.title ?? call.tool.name);
    if (!host) return this.#fail('no host');
    this.#status.replaceChildren(el('p', { class: 'muted' }, t('appViewLoading')));
    void host.loadView(call.serverId, call.tool.name).then((loaded) => {
      if (!loaded.ok) return this.#fail(loaded.message);
      this.#status.replaceChildren();
      const { policy, dropped } = viewCsp(loaded.value.meta.csp, loaded.value.serverOnLoopback);
      this.#note(dropped);
      this.#mount(call, host, withCsp(loaded.value.html, policy), loaded.value.serverName);
    });
  }

  /** The shown call finished (a chat step): the view gets the result once it is ready for it. */
  deliverResult(result: CallToolResult) {
    if (!this.#call || this.#call.result) return;
    if (this.#bridge) this.#bridge.deliverResult(result);
    else this.#call.result = result;
  }

  /** The shown call ended without a result: the view gets `tool-cancelled` instead. */
  cancelled(reason: string) {
    if (!this.#call || this.#call.result || this.#cancelReason !== undefined) return;
    this.#cancelReason = reason;
    this.#bridge?.cancelled(reason);
  }

  #fail(reason: string) {
    this.#status.replaceChildren(el('p', { class: 'error' }, t('appViewFailed', reason)));
  }

  /** What the view declared and does not get, said beside it (U2, U3). */
  #note(dropped: DroppedSources) {
    this.#notes.replaceChildren(
      ...(dropped.loopback.length ? [el('p', { class: 'muted loopback' }, t('appViewLoopbackDropped', dropped.loopback.join(', ')))] : []),
      ...(dropped.frames.length ? [el('p', { class: 'muted frames' }, t('appViewFramesDropped', dropped.frames.join(', ')))] : []),
    );
  }

  #mount(call: AppViewCall, host: AppViewHost, html: string, serverName: string) {
    const frame = el('iframe', { title: t('appView', call.tool.title ?? call.tool.name) });
    this.#frame = frame;
    // One session per mounted view, made here and never shown to the view (U1).
    const viewSession = randomId();
    this.#endViewSession = () => host.viewClosed?.(viewSession);
    const bridge = new AppBridge(
      call,
      {
        callTool: (name, args, operationId) => host.callTool(call.serverId, call.tool.name, name, args, operationId, viewSession),
        cancel: (operationId) => host.cancel(call.serverId, operationId),
        readResource: (uri) => host.readResource(call.serverId, uri),
        offerLink: (url) => this.#offerLink(url),
        ...(host.message ? { suggest: (text: string) => this.#suggest(text, serverName, host) } : {}),
        setHeight: (px) => (frame.style.height = `${px}px`),
        setDisplayMode: (mode) => this.#setMode(mode),
        offerFullscreen: () => this.#offerFullscreen(),
        stop: () => {
          this.#stop();
          this.#status.replaceChildren(el('p', { class: 'error' }, t('appViewStopped')));
        },
        newOperationId: randomId,
      },
      (message) => frame.contentWindow?.postMessage({ type: 'to-view', message }, '*'),
      () => ({
        theme: matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
        locale: navigator.language,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        platform: 'desktop',
        containerDimensions: { maxHeight: 2000, width: Math.round(this.getBoundingClientRect().width) },
      }),
    );
    this.#bridge = bridge;
    if (this.#cancelReason !== undefined) bridge.cancelled(this.#cancelReason);
    this.#onMessage = (event: MessageEvent) => {
      // Only our sandbox window; a view posting to the panel directly has another `source`.
      if (!frame.contentWindow || event.source !== frame.contentWindow) return;
      const message = SandboxToPanelSchema.safeParse(event.data);
      if (!message.success) return bridge.droppedBySandbox();
      if (message.data.type === 'sandbox-ready') frame.contentWindow.postMessage({ type: 'load', html }, '*');
      else if (message.data.type === 'from-view') bridge.receive(message.data.json, message.data.active === true);
      else if (message.data.type === 'navigated') this.#left();
      else bridge.droppedBySandbox();
    };
    window.addEventListener('message', this.#onMessage);
    frame.src = this.sandboxUrl;
    this.shadowRoot!.append(frame);
  }

  #setMode(mode: 'inline' | 'fullscreen'): 'inline' | 'fullscreen' {
    const full = mode === 'fullscreen';
    this.toggleAttribute('fullscreen', full);
    this.#full.setAttribute('aria-pressed', String(full));
    this.#full.textContent = t(full ? 'appExitFullscreen' : 'appFullscreen');
    // The page floats its approval cards and questions above a full-panel view (sidepanel.css).
    document.documentElement.toggleAttribute('data-app-fullscreen', full);
    this.#bridge?.setDisplayMode(mode);
    return mode;
  }

  /** Shows the link with an Open button (a real link: the user's click opens it) and Dismiss. */
  #offerLink(url: string): Promise<boolean> {
    this.#linkAnswer?.(false);
    return new Promise((resolve) => {
      const done = (opened: boolean) => {
        if (this.#linkAnswer !== answer) return;
        this.#linkAnswer = undefined;
        this.#link.hidden = true;
        this.#link.replaceChildren();
        resolve(opened);
      };
      const answer = done;
      this.#linkAnswer = answer;
      const open = el('a', { class: 'open', href: url, target: '_blank', rel: 'noopener noreferrer' }, t('appLinkOpen'));
      open.addEventListener('click', () => setTimeout(() => done(true), 0));
      const dismiss = el('button', { type: 'button', 'data-role': 'quiet', class: 'dismiss' }, t('appLinkDismiss'));
      dismiss.addEventListener('click', () => done(false));
      this.#link.replaceChildren(
        el('p', {}, t('appLinkOffer')),
        el('p', { class: 'url' }, url),
        el('div', { class: 'actions' }, open, dismiss),
      );
      this.#link.hidden = false;
    });
  }

  /** U4: the view's message, with its server's name, for the user to insert into the chat draft (or not). */
  #suggest(text: string, serverName: string, host: AppViewHost): boolean {
    const insert = el('button', { type: 'button', class: 'insert' }, t('appSuggestionInsert'));
    const dismiss = el('button', { type: 'button', 'data-role': 'quiet', class: 'dismiss' }, t('appLinkDismiss'));
    const done = () => {
      this.#suggestion.hidden = true;
      this.#suggestion.replaceChildren();
    };
    insert.addEventListener('click', () => {
      void host.message?.(text).then((inserted) => {
        if (inserted) this.#suggestion.replaceChildren(el('p', { class: 'muted inserted' }, t('appSuggestionInserted')));
      });
    });
    dismiss.addEventListener('click', done);
    this.#suggestion.replaceChildren(
      el('p', { class: 'from' }, t('appSuggestion', serverName)),
      el('p', { class: 'text' }, text),
      el('div', { class: 'actions' }, insert, dismiss),
    );
    this.#suggestion.hidden = false;
    return true;
  }

  /** U4: the view asked for full panel on its own; the user may grant it here. */
  #offerFullscreen() {
    if (this.hasAttribute('fullscreen')) return;
    const hide = () => {
      this.#offer.hidden = true;
      this.#offer.replaceChildren();
    };
    const grant = el('button', { type: 'button', class: 'grant' }, t('appFullscreen'));
    grant.addEventListener('click', () => {
      hide();
      this.#setMode('fullscreen');
    });
    const dismiss = el('button', { type: 'button', 'data-role': 'quiet', class: 'dismiss' }, t('appLinkDismiss'));
    dismiss.addEventListener('click', hide);
    this.#offer.replaceChildren(el('p', {}, t('appFullscreenOffer')), el('div', { class: 'actions' }, grant, dismiss));
    this.#offer.hidden = false;
  }

  /** U2: the sandbox page removed the view's frame (it navigated, or tried to): nothing of it is relayed again. */
  #left() {
    this.#stop();
    this.#status.replaceChildren(el('p', { class: 'error left' }, t('appViewLeft')));
  }

  /** Asks the view to tear down (bounded wait), then removes it. */
  async close(): Promise<void> {
    const bridge = this.#bridge;
    if (bridge) await bridge.teardown();
    this.#stop();
  }

  #stop() {
    this.#endViewSession?.();
    this.#endViewSession = undefined;
    this.#bridge?.close();
    this.#bridge = undefined;
    this.#linkAnswer?.(false);
    this.#suggestion.hidden = true;
    this.#suggestion.replaceChildren();
    this.#offer.hidden = true;
    this.#offer.replaceChildren();
    if (this.#onMessage) window.removeEventListener('message', this.#onMessage);
    this.#onMessage = undefined;
    this.#frame?.remove();
    this.#frame = undefined;
    if (this.hasAttribute('fullscreen')) this.#setMode('inline');
  }

  disconnectedCallback() {
    this.#stop();
  }
}
