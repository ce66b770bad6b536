/**
 * Which `prompt` an authorization request carries when another entry shares the server's URL
 * (several accounts on one server, S3). The authorization window shares the browser's cookies,
 * so without a prompt an AS where the user is signed in as the other entry's user would hand
 * this entry a token for that same user, silently.
 *
 * - `select_account` (OpenID Connect Core 3.1.2.1) when the AS lists it in
 *   `prompt_values_supported`: the AS shows its account chooser, where the user can also add an
 *   account, and signed-in users need not type a password again.
 * - `login` otherwise, when listed or when the metadata does not say: every OpenID provider knows
 *   it (it forces a fresh sign-in, where the user can sign in as someone else), and a plain OAuth
 *   AS must ignore a parameter it does not know (RFC 6749 §3.1). `select_account` is not sent
 *   unlisted, because providers that validate `prompt` (oidc-provider among them) refuse a value
 *   they do not support with `invalid_request`.
 * - nothing when the AS lists prompt values but neither of these: it would refuse the request.
 */
export type AccountPrompt = 'select_account' | 'login';

/**
 * `metadata` is the AS's validated metadata with its unknown members kept. A
 * `prompt_values_supported` that is not a bounded list of strings is read as absent rather than
 * failing the metadata: it only picks the prompt, never what is trusted.
 */
export function accountPrompt(metadata: object): AccountPrompt | undefined {
  const value: unknown = (metadata as Record<string, unknown>)['prompt_values_supported'];
  const listed = Array.isArray(value) && value.length <= 64 && value.every((v) => typeof v === 'string') ? value : undefined;
  if (listed === undefined) return 'login';
  if (listed.includes('select_account')) return 'select_account';
  return listed.includes('login') ? 'login' : undefined;
}
