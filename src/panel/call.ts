/**
 * The panel's one way to ask the worker: `chrome.runtime.sendMessage` with a typed request, the
 * answer validated against the method's result schema. Every request first lets the state Port
 * reconnect (a click is when the panel wakes a stopped worker, not a timer).
 */
import { t, tReason } from '../components/i18n.js';
import { panelResultSchema, type PanelMethod, type PanelParams, type PanelValue } from '../protocol/panel.js';
import type { WireErrorCode } from '../protocol/error-codes.js';

export type CallResult<M extends PanelMethod> = { ok: true; value: PanelValue<M> } | { ok: false; message: string; code?: WireErrorCode };
export type Call = <M extends PanelMethod>(type: M, params: PanelParams<M>) => Promise<CallResult<M>>;

/** Chrome's errors for a message whose receiver went away before answering. */
const WORKER_GONE = /message (channel|port) closed before a response was received/i;

export function createCall(beforeSend: () => void): Call {
  return async (type, params) => {
    beforeSend();
    try {
      const raw: unknown = await chrome.runtime.sendMessage({ type, params });
      const parsed = panelResultSchema(type).safeParse(raw);
      if (!parsed.success) return { ok: false, message: t('malformedAnswer') };
      return parsed.data.ok
        ? { ok: true, value: parsed.data.value as PanelValue<typeof type> }
        : { ok: false, message: tReason(parsed.data.error), code: parsed.data.error.code };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      // The worker stopped after it took the request: it may have acted on it, and it is not retried.
      if (WORKER_GONE.test(message))
        return { ok: false, message: t(type === 'panel:call-tool' ? 'workerRestartedCall' : 'workerRestarted') };
      return { ok: false, message };
    }
  };
}
