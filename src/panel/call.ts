/**
 * The panel's one way to ask the worker: a typed request on the panel's Port (panel-port.ts),
 * the answer validated against the method's result schema. Sending connects the Port if it is
 * down (a click is when the panel wakes a stopped worker, not a timer).
 */
import { t, tReason } from '../components/i18n.js';
import { panelResultSchema, type PanelMethod, type PanelParams, type PanelValue } from '../protocol/panel.js';
import type { WireErrorCode } from '../protocol/error-codes.js';
import { WorkerGoneError } from './port-requests.js';

export type CallResult<M extends PanelMethod> = { ok: true; value: PanelValue<M> } | { ok: false; message: string; code?: WireErrorCode };
export type Call = <M extends PanelMethod>(type: M, params: PanelParams<M>) => Promise<CallResult<M>>;

export function createCall(request: (type: string, params: unknown) => Promise<unknown>): Call {
  return async (type, params) => {
    try {
      const parsed = panelResultSchema(type).safeParse(await request(type, params));
      if (!parsed.success) return { ok: false, message: t('malformedAnswer') };
      return parsed.data.ok
        ? { ok: true, value: parsed.data.value as PanelValue<typeof type> }
        : { ok: false, message: tReason(parsed.data.error), code: parsed.data.error.code };
    } catch (e) {
      // The worker stopped after it took the request: it may have acted on it, and it is not retried.
      if (e instanceof WorkerGoneError)
        return { ok: false, message: t(type === 'panel:call-tool' ? 'workerRestartedCall' : 'workerRestarted') };
      return { ok: false, message: e instanceof Error ? e.message : String(e) };
    }
  };
}
