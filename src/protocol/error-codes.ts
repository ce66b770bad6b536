/**
 * The one vocabulary of error codes that crosses context boundaries, and the actions the panel
 * can turn into a button. Every context names its failures from this list, so a code the panel
 * switches on cannot silently drift from the code the worker or the offscreen document sends.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import type { ReasonCode } from './wording.js';

export const WIRE_ERROR_CODES = [
  // Requests and envelopes.
  'bad-request',
  'bad-arguments',
  'internal',
  'unknown',
  // Reaching the server and speaking MCP with it.
  'network',
  'http-status',
  'protocol',
  'timeout',
  'cancelled',
  'offscreen-lost',
  'session-lost',
  'stale-connection',
  'superseded',
  'not-ready',
  'not-connected',
  // Configuration, permissions and the user's decisions.
  'config-invalid',
  'invalid-url',
  'duplicate',
  'permission',
  'denied',
  'import-integrity',
  'unknown-server',
  'unknown-tool',
  'tool-disabled',
  'not-found',
  // Authorization: a server's refusal, and the worker's OAuth steps (src/sw/auth/errors.ts).
  'auth',
  'insufficient-scope',
  'needs-auth',
  'auth-discovery',
  'resource-mismatch',
  'multiple-authorization-servers',
  'auth-metadata',
  'registration',
  'client-id-required',
  'client-issuer-changed',
  'token',
  'auth-denied',
  'auth-response',
  'auth-cancelled',
  'insecure-endpoint',
  'redirect-refused',
  'response-too-large',
  'bad-response',
  'step-up-limit',
  'forbidden',
  'bearer-rejected',
  // The chat's model provider (src/sw/chat/providers): its refusals as the chat names them.
  'invalid-key',
  'rate-limit',
  'model-not-found',
  'provider-server',
] as const;

export type WireErrorCode = (typeof WIRE_ERROR_CODES)[number];

/** Names a subset of the codes; a member that is not a wire code fails to compile. */
export type WireErrorCodeOf<T extends WireErrorCode> = T;

const CODES: ReadonlySet<string> = new Set(WIRE_ERROR_CODES);

export function isWireErrorCode(value: unknown): value is WireErrorCode {
  return typeof value === 'string' && CODES.has(value);
}

/** A code received from another context that this build does not know becomes `unknown`. */
export const WireErrorCodeSchema = lazySchema(() => z.catch(z.enum(WIRE_ERROR_CODES), 'unknown'));

/**
 * How a chat run failed, as its error entry names it: the provider's failures, `internal` for
 * anything else the run threw, and `unknown` for a kind a newer build sent. Each kind has its own
 * words, for an entry that came without a wording (SPEC K6: nothing is shown untranslated).
 */
export const CHAT_ERROR_REASONS = {
  'invalid-key': 'reasonChatErrorInvalidKey',
  'rate-limit': 'reasonChatErrorRateLimit',
  'model-not-found': 'reasonChatErrorModelNotFound',
  network: 'reasonChatErrorNetwork',
  'provider-server': 'reasonChatErrorProviderServer',
  'bad-response': 'reasonChatErrorBadResponse',
  timeout: 'reasonChatErrorTimeout',
  cancelled: 'reasonChatStopped',
  internal: 'reasonChatFailed',
  unknown: 'reasonChatFailed',
} as const satisfies Partial<Record<WireErrorCode, ReasonCode>>;

export type ChatErrorKind = keyof typeof CHAT_ERROR_REASONS;

export const CHAT_ERROR_KINDS = Object.keys(CHAT_ERROR_REASONS) as [ChatErrorKind, ...ChatErrorKind[]];

/** A chat error kind this build does not know becomes `unknown`, as any other code does. */
export const ChatErrorKindSchema = lazySchema(() => z.catch(z.enum(CHAT_ERROR_KINDS), 'unknown'));

/**
 * What the user can do about an error, as a closed set the panel renders as a button:
 * `authorize` (first sign-in), `reauthorize` (sign in again), `edit` (the server's settings
 * need changing: token, URL, timeout), `retry` (the same request again), `grant-permission`
 * (Chrome's host permission is missing), `connect` (open the connection again).
 */
export const ERROR_ACTIONS = ['authorize', 'reauthorize', 'edit', 'retry', 'grant-permission', 'connect'] as const;

export type ErrorAction = (typeof ERROR_ACTIONS)[number];

const ACTIONS: ReadonlySet<string> = new Set(ERROR_ACTIONS);

export function isErrorAction(value: unknown): value is ErrorAction {
  return typeof value === 'string' && ACTIONS.has(value);
}

/** An action this build does not know is dropped: the message still says what to do. */
export const ErrorActionSchema = lazySchema(() =>
  z.pipe(
    z.unknown(),
    z.transform((v): ErrorAction | undefined => (isErrorAction(v) ? v : undefined)),
  ),
);
