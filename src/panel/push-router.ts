/**
 * The panel's one router for the worker's pushes: a `type → handler` table over the push schemas
 * of `protocol/panel.ts`. Each push is parsed once, with the schema of its own `type`, and goes to
 * exactly one handler; a push of a type nobody declared, or one that fails its schema, is counted
 * and logged (like a dropped answer in port-requests.ts), never dropped silently.
 */

/** What the router needs of a schema: zod's `safeParse` (a counting stand-in in the unit tests). */
export interface PushSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

type Fields<S> = S extends PushSchema<infer T> ? T : never;

/** One handler per declared push type, given the push's fields as its schema parsed them. */
export type PushHandlers<S extends Record<string, PushSchema<unknown>>> = { [K in keyof S]: (push: Fields<S[K]>) => void };

export class PushRouter<S extends Record<string, PushSchema<unknown>>> {
  /** Pushes dropped because no handler takes their `type`. */
  unknown = 0;
  /** Pushes dropped because they failed the schema of their `type`. */
  malformed = 0;
  readonly #schemas: S;
  readonly #handlers: PushHandlers<S>;
  readonly #log: (message: string) => void;

  constructor(schemas: S, handlers: PushHandlers<S>, log: (message: string) => void = (m) => console.warn(m)) {
    this.#schemas = schemas;
    this.#handlers = handlers;
    this.#log = log;
  }

  route(message: unknown): void {
    const type = (message as { type?: unknown } | null)?.type;
    // Own keys only: a `type` such as "constructor" must not reach the prototype.
    if (typeof type !== 'string' || !Object.hasOwn(this.#schemas, type)) {
      this.unknown++;
      this.#log(`[panel] dropped a push of unknown type ${describe(type)} (${this.unknown} so far)`);
      return;
    }
    const key: keyof S & string = type;
    const push = this.#schemas[key]!.safeParse(message);
    if (!push.success) {
      this.malformed++;
      this.#log(`[panel] dropped a malformed ${key} push (${this.malformed} so far)`);
      return;
    }
    this.#handlers[key](push.data as Fields<S[typeof key]>);
  }
}

/** The type as the log shows it: a string quoted and cut short, anything else by its kind. */
function describe(type: unknown): string {
  return typeof type === 'string' ? JSON.stringify(type.slice(0, 64)) : `(${type === null ? 'null' : typeof type})`;
}
