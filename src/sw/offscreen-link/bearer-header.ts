/**
 * The `Authorization: Bearer` header of a connect request (SPEC E9): the token it carries, and
 * the same headers with a fresh token in its place. Header names are matched whatever their case.
 */
const isAuthorization = (name: string) => name.toLowerCase() === 'authorization';

export function bearerOf(headers: Record<string, string>): string | undefined {
  const value = Object.entries(headers).find(([k]) => isAuthorization(k))?.[1];
  const m = value ? /^bearer\s+(.+)$/i.exec(value.trim()) : null;
  return m?.[1];
}

/** `headers` with any authorization header replaced by `Authorization: Bearer <token>`. */
export function withBearer(headers: Record<string, string>, token: string): Record<string, string> {
  const rest = Object.fromEntries(Object.entries(headers).filter(([k]) => !isAuthorization(k)));
  return { ...rest, Authorization: `Bearer ${token}` };
}
