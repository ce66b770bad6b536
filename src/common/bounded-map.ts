/**
 * A Map that keeps at most `limit` entries: adding one beyond it drops the oldest (by first
 * insertion). For bookkeeping whose entries normally end on their own (a closed session, an
 * answered question) but must not pile up when they do not (N5: every store bounded).
 */
export class BoundedMap<K, V> extends Map<K, V> {
  readonly #limit: number;

  constructor(limit: number) {
    super();
    this.#limit = limit;
  }

  override set(key: K, value: V): this {
    super.set(key, value);
    if (this.size > this.#limit) this.delete(this.keys().next().value!);
    return this;
  }
}
