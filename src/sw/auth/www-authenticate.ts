/**
 * A small `WWW-Authenticate` parser (RFC 9110 §11.6.1). Written here rather than taken from
 * the MCP SDK because the service worker bundle must not import the SDK (SPEC A3).
 *
 * The grammar is ambiguous on commas (they separate both challenges and parameters), so the
 * parser looks ahead: after a comma, `token =` continues the current challenge's parameters,
 * anything else starts a new challenge. Malformed parts are skipped, never thrown on: the
 * header comes from an untrusted server and a bad header must only mean "no hints".
 */

/** One challenge: scheme (lower-cased), lower-cased parameter names, or a token68. */
export interface Challenge {
  scheme: string;
  params: Record<string, string>;
  token68?: string;
}

/** What an MCP client needs from a Bearer challenge (RFC 6750, RFC 9728 §5.1). */
export interface BearerChallenge {
  resourceMetadata?: string;
  scope?: string;
  error?: string;
  errorDescription?: string;
}

/** Headers longer than this are ignored entirely (hostile input, SPEC N1). */
const MAX_HEADER_LENGTH = 16 * 1024;

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const TOKEN68_CHAR = /[A-Za-z0-9\-._~+/]/;

class Scanner {
  pos = 0;
  constructor(readonly s: string) {}
  get done(): boolean {
    return this.pos >= this.s.length;
  }
  peek(): string {
    return this.s[this.pos] ?? '';
  }
  skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++;
  }
  /** Skip whitespace and any number of empty list elements (`, ,`). */
  skipSeparators(): void {
    while (this.peek() === ' ' || this.peek() === '\t' || this.peek() === ',') this.pos++;
  }
  readToken(): string {
    const start = this.pos;
    while (!this.done && TCHAR.test(this.peek())) this.pos++;
    return this.s.slice(start, this.pos);
  }
  /** Quoted string at `pos` (which is `"`); `undefined` if unterminated. */
  readQuoted(): string | undefined {
    this.pos++;
    let out = '';
    while (!this.done) {
      const c = this.peek();
      if (c === '\\') {
        this.pos++;
        if (this.done) return undefined;
        out += this.peek();
        this.pos++;
      } else if (c === '"') {
        this.pos++;
        return out;
      } else {
        out += c;
        this.pos++;
      }
    }
    return undefined;
  }
  /** Skip to just past the next top-level comma (used to recover from malformed input). */
  skipElement(): void {
    while (!this.done && this.peek() !== ',') {
      if (this.peek() === '"') {
        if (this.readQuoted() === undefined) return;
      } else this.pos++;
    }
  }
}

/** True if `token BWS =` starts at the scanner position, without moving it. */
function atParam(sc: Scanner): boolean {
  const save = sc.pos;
  const name = sc.readToken();
  sc.skipSpaces();
  const result = name.length > 0 && sc.peek() === '=';
  sc.pos = save;
  return result;
}

/** Try to read a token68 that is the whole rest of the challenge; restore position on failure. */
function tryToken68(sc: Scanner): string | undefined {
  const save = sc.pos;
  while (!sc.done && TOKEN68_CHAR.test(sc.peek())) sc.pos++;
  if (sc.pos === save) return undefined;
  while (sc.peek() === '=') sc.pos++;
  const value = sc.s.slice(save, sc.pos);
  sc.skipSpaces();
  if (sc.done || sc.peek() === ',') return value;
  sc.pos = save;
  return undefined;
}

/** Read `name = value`; returns false (position after the bad element) if malformed. */
function readParam(sc: Scanner, params: Record<string, string>): boolean {
  const name = sc.readToken().toLowerCase();
  sc.skipSpaces();
  if (sc.peek() !== '=') return false;
  sc.pos++;
  sc.skipSpaces();
  let value: string | undefined;
  if (sc.peek() === '"') value = sc.readQuoted();
  else {
    value = sc.readToken();
    if (value === '') value = undefined;
  }
  if (value === undefined) return false;
  // RFC 9110: a parameter name occurs at most once; keep the first, ignore repeats.
  if (!(name in params)) params[name] = value;
  sc.skipSpaces();
  return sc.done || sc.peek() === ',';
}

/** Parse every challenge in a `WWW-Authenticate` value (several headers may be joined by commas). */
export function parseWwwAuthenticate(header: string | null | undefined): Challenge[] {
  if (!header || header.length > MAX_HEADER_LENGTH) return [];
  const sc = new Scanner(header);
  const challenges: Challenge[] = [];
  while (true) {
    sc.skipSeparators();
    if (sc.done) break;
    const scheme = sc.readToken();
    if (!scheme) {
      sc.skipElement();
      continue;
    }
    const challenge: Challenge = { scheme: scheme.toLowerCase(), params: Object.create(null) as Record<string, string> };
    challenges.push(challenge);
    const hadSpace = sc.peek() === ' ' || sc.peek() === '\t';
    sc.skipSpaces();
    if (sc.done) break;
    if (sc.peek() === ',') continue;
    if (!hadSpace) {
      // e.g. `Bearer"x"`: not a valid challenge continuation.
      sc.skipElement();
      continue;
    }
    if (!atParam(sc) || isToken68Ahead(sc)) {
      const t68 = tryToken68(sc);
      if (t68 !== undefined) {
        challenge.token68 = t68;
        continue;
      }
      if (!atParam(sc)) {
        sc.skipElement();
        continue;
      }
    }
    // Parameters: `a=b, c="d"` until something that is not `token =` after a comma.
    while (!sc.done) {
      if (!readParam(sc, challenge.params)) sc.skipElement();
      sc.skipSeparators();
      if (sc.done || !atParam(sc)) break;
    }
  }
  return challenges;
}

/**
 * A token68 ending in `=` (e.g. `abc==`) also looks like `abc =`; it is a token68 when the
 * `=` run is followed by the end, or by a comma and then something other than `name =`.
 */
function isToken68Ahead(sc: Scanner): boolean {
  const save = sc.pos;
  sc.readToken();
  let equals = 0;
  while (sc.peek() === '=') {
    equals++;
    sc.pos++;
  }
  sc.skipSpaces();
  let result = equals > 0 && (sc.done || sc.peek() === ',');
  if (result && !sc.done) {
    // `scope=, error="x"` is an empty parameter followed by more parameters, not a token68.
    sc.skipSeparators();
    result = !atParam(sc);
  }
  sc.pos = save;
  return result;
}

/** The first Bearer challenge's MCP-relevant parameters, or `undefined` if there is none. */
export function parseBearerChallenge(header: string | null | undefined): BearerChallenge | undefined {
  const bearer = parseWwwAuthenticate(header).find((c) => c.scheme === 'bearer');
  if (!bearer) return undefined;
  const p = bearer.params;
  const out: BearerChallenge = {};
  if (p['resource_metadata']) out.resourceMetadata = p['resource_metadata'];
  if (p['scope'] !== undefined) out.scope = p['scope'];
  if (p['error']) out.error = p['error'];
  if (p['error_description'] !== undefined) out.errorDescription = p['error_description'];
  return out;
}
