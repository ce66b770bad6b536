/**
 * Step-up from a user action (SPEC E7, N5, H3). Background work never opens a window, so a
 * 403 `insufficient_scope` on a tool call the user started in the panel only records the
 * challenge here and fails with code `insufficient-scope`; the panel then offers "Grant more
 * access", whose click runs the interactive step-up (the union of granted and challenged
 * scopes, AuthManager.handleForbidden) and hands the new token to the live session. The call
 * itself is never re-sent: the user runs it again (H3).
 *
 * The retry budget belongs to the call the user is trying to get through — the same server
 * and tool — and survives re-runs until one succeeds, so however the challenge text varies the
 * AuthManager allows at most MAX_STEP_UPS authorizations for it.
 */
import { say } from '../../protocol/wording.js';
import { RemoteError, toWireError } from '../../protocol/result.js';
import type { McpServerConfig } from '../../storage/config-schema.js';
import { newRequestAuthState, type AuthManager, type RequestAuthState } from './auth-manager.js';
import { StepUpLimitError } from './errors.js';
import type { AuthServerConfig } from './ports.js';
import { parseBearerChallenge } from './www-authenticate.js';

export interface StepUpDeps {
  /** The one AuthManager method step-up needs (narrow, so tests can use the real one or a fake). */
  auth: Pick<AuthManager, 'handleForbidden'>;
  configOf(serverId: string): Promise<McpServerConfig | undefined>;
  authConfigOf(config: McpServerConfig): Promise<AuthServerConfig>;
  /** Gives the new token to the server's live sessions; resolves to how many took it. */
  handOver(serverId: string, token: string): Promise<number>;
}

/** Pending step-ups kept at once; older ones are dropped (N: every table is bounded). */
const MAX_PENDING_STEP_UPS = 32;

/** The wire code of a panel call refused for missing scope: the panel offers "Grant more access". */
export const INSUFFICIENT_SCOPE_CODE = 'insufficient-scope';

interface Pending {
  challenge: string;
  state: RequestAuthState;
}

/** Is this wire error a 403 whose challenge asks for more scope? */
function scopeChallengeOf(e: unknown): string | undefined {
  const w = toWireError(e);
  if (w.httpStatus !== 403 || !w.wwwAuthenticate) return undefined;
  return parseBearerChallenge(w.wwwAuthenticate)?.error === 'insufficient_scope' ? w.wwwAuthenticate : undefined;
}

export class StepUpTracker {
  readonly #deps: StepUpDeps;
  readonly #pending = new Map<string, Pending>();

  constructor(deps: StepUpDeps) {
    this.#deps = deps;
  }

  /**
   * Runs a panel-started call. Success forgets any pending step-up for it; a scope challenge
   * is remembered and reported as `insufficient-scope` with what to do next.
   */
  async track<T>(serverId: string, tool: string, run: () => Promise<T>): Promise<T> {
    const key = keyOf(serverId, tool);
    try {
      const value = await run();
      this.#pending.delete(key);
      return value;
    } catch (e) {
      const challenge = scopeChallengeOf(e);
      if (challenge === undefined) throw e;
      const state = this.#pending.get(key)?.state ?? newRequestAuthState();
      this.#pending.delete(key);
      if (this.#pending.size >= MAX_PENDING_STEP_UPS) this.#pending.delete(this.#pending.keys().next().value!);
      this.#pending.set(key, { challenge, state });
      const scope = parseBearerChallenge(challenge)?.scope;
      throw new RemoteError({
        code: INSUFFICIENT_SCOPE_CODE,
        ...say('reasonNeedsMoreAccess', { tool: tool.slice(0, 128), scope: scope ? ` (scope: ${scope.slice(0, 200)})` : '' }),
        httpStatus: 403,
      });
    }
  }

  /** Is a step-up waiting for this call? */
  pending(serverId: string, tool: string): boolean {
    return this.#pending.has(keyOf(serverId, tool));
  }

  /**
   * The user's "Grant more access": the interactive step-up for the remembered challenge. The
   * AuthManager counts it against this call's budget and refuses the fourth (StepUpLimitError).
   */
  async grant(serverId: string, tool: string): Promise<{ granted: true; sessionsUpdated: number }> {
    const key = keyOf(serverId, tool);
    const pending = this.#pending.get(key);
    if (!pending)
      throw new RemoteError({
        code: 'bad-request',
        ...say('reasonNothingWaitingForAccess', { tool: tool.slice(0, 128) }),
      });
    const config = await this.#deps.configOf(serverId);
    if (!config || config.auth.kind !== 'oauth') {
      this.#pending.delete(key);
      throw new RemoteError({ code: 'bad-request', ...say('reasonNoOAuthAnyMore') });
    }
    let token: string;
    try {
      token = await this.#deps.auth.handleForbidden(await this.#deps.authConfigOf(config), pending.challenge, {
        state: pending.state,
        interactive: true,
      });
    } catch (e) {
      // Over the limit: this call's step-up is over; a later run starts afresh from the user.
      if (e instanceof StepUpLimitError) this.#pending.delete(key);
      throw e instanceof RemoteError ? e : new RemoteError(toWireError(e, 'auth'));
    }
    return { granted: true, sessionsUpdated: await this.#deps.handOver(serverId, token) };
  }
}

const keyOf = (serverId: string, tool: string) => `${serverId}\n${tool}`;
