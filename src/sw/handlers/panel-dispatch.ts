/**
 * Answers one panel request by its handler: the envelope and then the parameters are validated
 * by schema before the handler runs, and the answer is always a Result envelope (a thrown error
 * travels as its wire error).
 */
import {
  PanelRequestEnvelopeSchema,
  PanelRequestSchemas,
  type PanelMethod,
  type PanelParams,
  type PanelValue,
} from '../../protocol/panel.js';
import { fail, ok, toWireError, type Result } from '../../protocol/result.js';

export type PanelHandlers = { [M in PanelMethod]: (p: PanelParams<M>) => Promise<PanelValue<M>> };

export function panelDispatcher(handlers: PanelHandlers) {
  return async function handle(message: unknown): Promise<Result<unknown>> {
    const env = PanelRequestEnvelopeSchema.safeParse(message);
    if (!env.success) return fail('bad-request', 'Unknown or malformed request.');
    const method = env.data.type;
    const params = PanelRequestSchemas[method].safeParse(env.data.params);
    if (!params.success) return fail('bad-request', `Invalid parameters for ${method}: ${params.error.issues[0]?.message ?? ''}`);
    try {
      return ok(await (handlers[method] as (p: unknown) => Promise<unknown>)(params.data));
    } catch (e) {
      return { ok: false, error: toWireError(e) };
    }
  };
}
