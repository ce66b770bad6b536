/**
 * Attaching long lists of reused row elements a chunk at a time (K2: 1,000 tools): the
 * first rows in the task that asked for them, the rest in later tasks, so no single frame lays
 * out (or builds) the whole list. Every row already attached that is still wanted stays where it
 * is, wherever it sits in the list: re-attaching a row lays it out again, and a keystroke that
 * only narrows the matches then costs just the removals. Rows are detached, never hidden: every
 * attached row is in the accessibility tree, and showing hundreds of hidden rows again cost far
 * more style and layout than attaching them (measured with 1,000 rows).
 */

/** The rows a parent should hold, in order; `at` may build a row on first use, `built` never does. */
export interface WantedChildren {
  parent: Element;
  length: number;
  at: (index: number) => Element;
  built: (index: number) => Element | undefined;
}

/** Removes `from` and the `count - 1` siblings after it: one DOM change for a run, not one per row. */
function removeRun(from: Element, count: number) {
  if (count === 1) return from.remove();
  const range = document.createRange();
  range.setStartBefore(from);
  let last = from;
  for (let k = 1; k < count; k++) last = last.nextElementSibling!;
  range.setEndAfter(last);
  range.deleteContents();
}

/**
 * Detaches the parent's children that are not wanted (or out of order), then inserts up to
 * `budget` missing wanted rows where they belong, among the list's first `reach` rows only.
 */
function sync(list: WantedChildren, budget: number, reach = list.length): { added: number; missing: number } {
  const { parent, length, at, built } = list;
  const index = new Map<Element, number>();
  for (let i = 0; i < length; i++) {
    const e = built(i);
    if (e?.parentNode === parent) index.set(e, i);
  }
  // Keep an in-order subsequence of the wanted rows; remove every other child in runs.
  let next = -1;
  let child = parent.firstElementChild;
  while (child) {
    let run = 0;
    let c: Element | null = child;
    while (c && !((index.get(c) ?? -1) > next)) {
      run++;
      c = c.nextElementSibling;
    }
    if (run) removeRun(child, run);
    if (c) next = index.get(c)!;
    child = c?.nextElementSibling ?? null;
  }
  let missing = 0;
  let added = 0;
  let at0 = parent.firstElementChild;
  const add: Element[] = [];
  const flush = () => {
    if (!add.length) return;
    if (at0) at0.before(...add);
    else parent.append(...add);
    add.length = 0;
  };
  for (let i = 0; i < length; i++) {
    const have = built(i);
    if (have && have === at0) {
      flush();
      at0 = at0.nextElementSibling;
    } else if (budget > 0 && i < reach) {
      add.push(at(i));
      added++;
      budget--;
    } else missing++;
  }
  flush();
  return { added, missing };
}

/** Makes `parent`'s children `want`, keeping the children already in place. */
export function syncChildren(parent: Element, want: readonly Element[]) {
  sync({ parent, length: want.length, at: (i) => want[i]!, built: (i) => want[i] }, want.length);
}

export class ChunkedChildren {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lists: readonly WantedChildren[] = [];

  /** `first` new rows are attached at once, then `chunk` per later task; `afterStep` runs after each step. */
  constructor(
    private readonly first: number,
    private readonly chunk: number,
    private readonly afterStep: (done: boolean) => void = () => undefined,
  ) {}

  /**
   * Brings each parent's children to its wanted rows, in order. This task attaches only the missing
   * rows among the first `first` wanted rows (across the lists, in order: the rows in view); every
   * later row waits for the next tasks, `chunk` at a time. A keystroke that widens a search while
   * earlier rows are kept, or that comes while a long list is still being filled, then attaches no
   * row out of view in its own task: with 20 servers × 500 tools, 60 such rows cost each keystroke
   * ≈ 5 ms more style and layout (traced in Chromium), which took it past 16 ms.
   */
  show(lists: readonly WantedChildren[]) {
    this.#lists = lists;
    this.#step(this.first, this.first);
  }

  cancel() {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #step(budget: number, reach = Infinity) {
    this.cancel();
    let more = false;
    for (const list of this.#lists) {
      const { added, missing } = sync(list, budget, reach);
      budget -= added;
      reach -= list.length;
      if (missing) more = true;
    }
    this.afterStep(!more);
    if (more) this.#timer = setTimeout(() => this.#step(this.chunk));
  }
}
