/**
 * The tool calls in flight, by operationId, so a server's question during one can name it and
 * keep it for a re-run (I3). The manager tells its observers of every call, whichever path (panel
 * runner, AgentTools, re-runs) started it; this is one such observer.
 */
import type { CallObserver, ObservedCall } from '../manager/mcp-manager.js';
import type { CallInfo } from './elicitations.js';

export class CallsInFlight implements CallObserver {
  readonly #calls = new Map<string, CallInfo>();

  /** `onSettled` runs after the call is forgotten, with its error if it failed. */
  constructor(private readonly onSettled: (operationId: string, error?: unknown) => void) {}

  started(operationId: string, call: ObservedCall): void {
    this.#calls.set(operationId, { tool: call.tool, arguments: call.arguments });
  }

  settled(operationId: string, error?: unknown): void {
    this.#calls.delete(operationId);
    this.onSettled(operationId, error);
  }

  get(operationId: string): CallInfo | undefined {
    return this.#calls.get(operationId);
  }
}
