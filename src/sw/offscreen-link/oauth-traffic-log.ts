/**
 * The worker's own OAuth traffic in the server's request log (SPEC J2): discovery,
 * registration, token and revocation requests, and the unauthenticated `initialize` that asks
 * the server for its challenge. A row holds the step, the HTTP method, the URL with every
 * secret-looking query value removed, the status, the duration and the authorization server's
 * `error` code — never a body, a header, a token, a secret or a code. Logging never fails a request.
 */
import type { FetchLike } from '../auth/ports.js';
import type { RequestLogEntry } from '../../storage/request-log.js';
import type { LogScheduler } from './request-logging.js';

/** Query parameters whose values are credentials or would let someone replay a step. */
const SECRET_PARAM = /code|state|token|secret|verifier|assertion|password|key|sig|session/i;
/** An OAuth error code is ASCII without quotes or backslashes (RFC 6749 §5.2); anything else is not shown. */
const ERROR_CODE = /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/;
/** Enough of an error body to find its `error` member. */
const MAX_ERROR_BODY_BYTES = 4096;

/** The URL as logged: no user info, no fragment, and no value of a secret-looking query parameter. */
export function redactedUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '[unparseable URL]';
  }
  u.username = '';
  u.password = '';
  u.hash = '';
  for (const name of new Set(u.searchParams.keys())) if (SECRET_PARAM.test(name)) u.searchParams.set(name, '[redacted]');
  return u.toString();
}

/** Which step a request is, from its shape alone (the body is read for this, never logged). */
function stepOf(init: RequestInit | undefined): string {
  const method = (init?.method ?? 'GET').toUpperCase();
  if (method === 'GET') return 'oauth:discovery';
  const body = typeof init?.body === 'string' ? init.body : '';
  if (method === 'POST' && body.startsWith('{')) return /"method"\s*:\s*"initialize"/.test(body) ? 'oauth:probe' : 'oauth:register';
  if (method === 'POST') return new URLSearchParams(body).has('grant_type') ? 'oauth:token' : 'oauth:revoke';
  return `oauth:${method.toLowerCase()}`;
}

/** The `error` member of an error response, if it is a well-formed OAuth error code. */
async function errorCodeOf(res: Response): Promise<string | undefined> {
  if (res.status < 400 || !/json/i.test(res.headers.get('content-type') ?? '')) return undefined;
  const reader = res.clone().body?.getReader();
  if (!reader) return undefined;
  const decoder = new TextDecoder();
  let text = '';
  let total = 0;
  try {
    while (total < MAX_ERROR_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      total += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  try {
    const code = (JSON.parse(text) as { error?: unknown }).error;
    return typeof code === 'string' && ERROR_CODE.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

/** `fetchFn`, with each request it makes for one server recorded through `append`. */
export function withOAuthTrafficLog(
  fetchFn: FetchLike,
  append: (entry: RequestLogEntry) => Promise<void>,
  now: () => number = Date.now,
  schedule: LogScheduler = (write) => write(),
): FetchLike {
  return async (url, init) => {
    const at = now();
    const request = { httpMethod: (init?.method ?? 'GET').toUpperCase(), url: redactedUrl(url) };
    const record = (status: number | 'error', error: string | undefined, responseBytes: number) => {
      const durationMs = now() - at;
      schedule(() => {
        try {
          const entry: RequestLogEntry = { at, method: stepOf(init), durationMs, status, requestBytes: 0, responseBytes, request };
          if (error !== undefined) entry.error = error;
          append(entry).catch(() => undefined);
        } catch {
          // Logging never fails a request, nor the worker.
        }
      });
    };
    let res: Response;
    try {
      res = await fetchFn(url, init);
    } catch (e) {
      record('error', 'network error, or a redirect that was not followed', 0);
      throw e;
    }
    const length = Number(res.headers.get('content-length'));
    void errorCodeOf(res)
      .catch(() => undefined)
      .then((code) => record(res.status, code, Number.isFinite(length) ? length : 0));
    return res;
  };
}
