/**
 * The MCP App sandbox page (`app-sandbox.html`, a manifest `sandbox` page): no extension APIs,
 * an opaque origin, and the manifest's sandbox CSP as the ceiling of every view. The panel loads
 * it in an iframe and posts the view's HTML (its own `<meta>` CSP already in front); this page
 * puts it in an inner `srcdoc` iframe sandboxed to scripts only, and relays messages:
 * panel → view as they are, view → panel as one bounded JSON string each, at a bounded rate.
 * It imports nothing, and only its parent (the panel) may load a view into it, once.
 */
const MAX_MESSAGE = 1024 * 1024;
const PER_SECOND = 60;

let view: HTMLIFrameElement | undefined;
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

function fromView(data: unknown) {
  const now = Date.now();
  if (now - windowStart >= 1000) {
    windowStart = now;
    inWindow = 0;
  }
  if (++inWindow > PER_SECOND) return dropped('too-many');
  let json: string | undefined;
  try {
    json = JSON.stringify(data);
  } catch {
    json = undefined;
  }
  if (json === undefined) return dropped('not-json');
  if (json.length > MAX_MESSAGE) return dropped('too-large');
  toPanel({ type: 'from-view', json });
}

function fromPanel(data: unknown) {
  if (typeof data !== 'object' || data === null) return;
  const message = data as { type?: unknown; html?: unknown; message?: unknown };
  if (message.type === 'load' && typeof message.html === 'string' && !view) {
    view = document.createElement('iframe');
    // Scripts only: no same-origin, no top navigation, no popups, no forms.
    view.setAttribute('sandbox', 'allow-scripts');
    view.setAttribute('title', document.title);
    view.srcdoc = message.html;
    document.body.append(view);
  } else if (message.type === 'to-view' && view?.contentWindow) {
    view.contentWindow.postMessage(message.message, '*');
  }
}

window.addEventListener('message', (event) => {
  if (event.source === window.parent) fromPanel(event.data);
  else if (view && event.source === view.contentWindow) fromView(event.data);
});
toPanel({ type: 'sandbox-ready' });
