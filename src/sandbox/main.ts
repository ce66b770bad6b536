/**
 * The MCP App sandbox page (`app-sandbox.html`, a manifest `sandbox` page): no extension APIs,
 * an opaque origin, and the manifest's sandbox CSP as the ceiling of every view. The panel loads
 * it in an iframe and posts the view's HTML (its own `<meta>` CSP already in front); this page
 * puts it in an inner `srcdoc` iframe sandboxed to scripts only, and relays messages:
 * panel → view as they are, view → panel as one bounded JSON string each, at a bounded rate.
 * It imports nothing, and only its parent (the panel) may load a view into it, once.
 *
 * U2: the view's frame holds its own srcdoc document and nothing else. This page's CSP
 * (`frame-src 'none'`, manifest.json) makes Chromium refuse every navigation of that frame to a
 * URL (the embedder's frame-src judges a child frame's navigations, whoever starts them);
 * should a second document ever load in it anyway, or a navigation be refused, this page tears
 * the view down, relays nothing more, and tells the panel (`navigated`).
 */
const MAX_MESSAGE = 1024 * 1024;
const PER_SECOND = 60;
/** JSON-RPC "server error": the code a view gets for a request this page would not relay (U4). */
const REFUSED = -32000;

let view: HTMLIFrameElement | undefined;
let loads = 0;
let left = false;
let windowStart = 0;
let inWindow = 0;
let toldDropped = 0;

function toPanel(message: unknown) {
  // The panel's origin is the extension's; the view cannot navigate this page, so no one else is there.
  window.parent.postMessage(message, '*');
}

function dropped(reason: 'too-large' | 'too-many' | 'not-json') {
  const now = Date.now();
  if (now - toldDropped < 1000) return;
  toldDropped = now;
  toPanel({ type: 'dropped', reason });
}

/** A request this page drops is answered at once, so the view does not wait for its timeout (U4). */
function refuse(data: unknown, message: string) {
  const m = data as { id?: unknown; method?: unknown } | null;
  if (typeof m !== 'object' || m === null || typeof m.method !== 'string') return;
  const id = m.id;
  if ((typeof id === 'string' && id.length <= 128) || typeof id === 'number')
    view?.contentWindow?.postMessage({ jsonrpc: '2.0', id, error: { code: REFUSED, message } }, '*');
}

function fromView(data: unknown) {
  const now = Date.now();
  if (now - windowStart >= 1000) {
    windowStart = now;
    inWindow = 0;
  }
  if (++inWindow > PER_SECOND) {
    refuse(data, `Too many messages: at most ${PER_SECOND} a second are relayed.`);
    return dropped('too-many');
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(data);
  } catch {
    json = undefined;
  }
  if (json === undefined) return dropped('not-json');
  if (json.length > MAX_MESSAGE) {
    refuse(data, `The message is too large: ${json.length} characters, at most ${MAX_MESSAGE}.`);
    return dropped('too-large');
  }
  // Whether the user is interacting with the view right now (a click in it activates this page too):
  // the panel grants display-mode changes only then (U4). The view cannot set this.
  toPanel({ type: 'from-view', json, active: navigator.userActivation?.isActive === true });
}

/** U2: the view's frame got another document, or tried to: it goes, and nothing of it is relayed again. */
function leave() {
  if (left || !view) return;
  left = true;
  view.remove();
  toPanel({ type: 'navigated' });
}

function mount(html: string) {
  const frame = document.createElement('iframe');
  view = frame;
  // Scripts only: no same-origin, no top navigation, no popups, no forms.
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('title', document.title);
  // The first load is the srcdoc document; any later one is another document in its place.
  frame.addEventListener('load', () => {
    if (++loads > 1) leave();
  });
  frame.srcdoc = html;
  document.body.append(frame);
}

function fromPanel(data: unknown) {
  if (typeof data !== 'object' || data === null) return;
  const message = data as { type?: unknown; html?: unknown; message?: unknown };
  if (message.type === 'load' && typeof message.html === 'string' && !view) mount(message.html);
  else if (message.type === 'to-view' && !left && view?.contentWindow) view.contentWindow.postMessage(message.message, '*');
}

window.addEventListener('message', (event) => {
  if (event.source === window.parent) fromPanel(event.data);
  else if (view && !left && event.source === view.contentWindow) fromView(event.data);
});
// A navigation of the view's frame refused by this page's frame-src is reported here (U2).
document.addEventListener('securitypolicyviolation', (event) => {
  if (event.effectiveDirective === 'frame-src' || event.effectiveDirective === 'child-src') leave();
});
toPanel({ type: 'sandbox-ready' });
