/**
 * The worker's end of the panel's requests on its Port (src/panel/port-requests.ts): each
 * `{ kind: 'request', id, type, params }` is answered `{ kind: 'response', id, result }` on the
 * same Port (or the data channel paired with it, panel-channels.ts). This is the only way the
 * worker takes a panel request (it answers no `chrome.runtime.sendMessage`), and only this
 * extension's side panel page may open that Port.
 */
import { PanelPortRequestSchema } from '../../protocol/panel.js';
import type { LinkPort } from '../../protocol/offscreen-channel.js';

/** Whether `sender` is this extension's side panel page (the only page that drives the manager). */
export function fromPanelPage(sender: chrome.runtime.MessageSender | undefined): boolean {
  return sender?.id === chrome.runtime.id && sender.url?.startsWith(chrome.runtime.getURL('sidepanel.html')) === true;
}

/**
 * Answers the requests `port` carries (the panel's Port, or the link over it and its data channel) with `handle` (which validates the envelope and always
 * settles with a Result). An answer whose Port dropped meanwhile is not sent: the panel already
 * failed that request.
 */
export function answerPanelRequests(port: LinkPort, handle: (envelope: { type: unknown; params: unknown }) => Promise<unknown>) {
  let open = true;
  port.onDisconnect.addListener(() => (open = false));
  port.onMessage.addListener((message: unknown) => {
    const request = PanelPortRequestSchema.safeParse(message);
    // Without an id there is nobody to answer; the sender is the panel page, so this is a bug there.
    if (!request.success) return console.warn('[sw] dropped a malformed request on a panel Port');
    const { id, type, params } = request.data;
    void handle({ type, params }).then((result) => {
      if (open) port.postMessage({ kind: 'response', id, result });
    });
  });
}
