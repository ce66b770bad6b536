/** A promise a test settles by hand, so the test chooses the order of every interleaving. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending microtask and promise callback run. */
export const flush = () => new Promise<void>((r) => setImmediate(r));
