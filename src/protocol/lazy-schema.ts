/**
 * Schemas built on first use. Building the zod schemas of every message at import time was
 * about half of evaluating the service worker's script, which a cold wake waits for before it can
 * read its configuration (docs/architecture.md "Cold wake"). A lazy schema is the very schema it
 * builds, memoised: every boundary validates exactly as before, only the moment it is built moves
 * from import to the first message that needs it.
 */

/**
 * Stands in for what `build` returns, building it on the first access of any member (zod reads
 * `_zod` and calls `safeParse` through it), once. Typed as the schema itself, so `z.infer` and
 * every caller stay unchanged.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const real = () => (built ??= build());
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(real(), key),
    has: (_, key) => Reflect.has(real(), key),
    set: (_, key, value) => Reflect.set(real(), key, value),
    ownKeys: () => Reflect.ownKeys(real()),
    // Reported configurable: a proxy may not claim a non-configurable property its empty target lacks.
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(real(), key);
      return d && { ...d, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(real(), key),
  });
}
