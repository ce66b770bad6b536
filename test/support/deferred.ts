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

/** How `p` stands a moment from now: its value, its error, or still pending. */
export const settled = async <T>(p: Promise<T>): Promise<{ value: T } | { error: unknown } | 'pending'> =>
  Promise.race([
    p.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    new Promise<'pending'>((r) => setTimeout(() => r('pending'), 5)),
  ]);
