/**
 * Attaching long lists of reused row elements a chunk at a time (issue 19: 1,000 tools): the
 * first rows in the task that asked for them, the rest in later tasks, so no single frame lays
 * out (or builds) the whole list. Rows already in place are kept (re-attaching them would lay
 * them out again) and never hidden: every attached row is in the accessibility tree.
 */

/** The rows a parent should hold, in order; `at` may build a row on first use. */
export interface WantedChildren {
  parent: Element;
  length: number;
  at: (index: number) => Element;
}

/** How many of the parent's first children are already the wanted ones. */
function commonPrefix({ parent, length, at }: WantedChildren): number {
  const have = parent.children;
  let i = 0;
  while (i < have.length && i < length && have[i] === at(i)) i++;
  return i;
}

/** Makes the parent's children its first `n` wanted rows, keeping those already in place. */
function syncFirst(list: WantedChildren, n: number) {
  const i = commonPrefix(list);
  const { parent, at } = list;
  if (parent.children.length > i) {
    // One removal of the whole tail, not one per row.
    const range = document.createRange();
    range.setStartBefore(parent.children[i]!);
    range.setEndAfter(parent.lastChild!);
    range.deleteContents();
  }
  const add: Element[] = [];
  for (let k = i; k < n; k++) add.push(at(k));
  if (add.length) parent.append(...add);
}

/** Makes `parent`'s children `want`, keeping the children already in place. */
export function syncChildren(parent: Element, want: readonly Element[]) {
  syncFirst({ parent, length: want.length, at: (i) => want[i]! }, want.length);
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

  /** Brings each parent's children to its wanted rows, in order; only rows not yet in place count against the budget. */
  show(lists: readonly WantedChildren[]) {
    this.#lists = lists;
    this.#step(this.first);
  }

  cancel() {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #step(budget: number) {
    this.cancel();
    let more = false;
    for (const list of this.#lists) {
      const kept = commonPrefix(list);
      const n = Math.min(list.length, kept + Math.max(0, budget));
      budget -= n - kept;
      syncFirst(list, n);
      if (n < list.length) more = true;
    }
    this.afterStep(!more);
    if (more) this.#timer = setTimeout(() => this.#step(this.chunk));
  }
}
