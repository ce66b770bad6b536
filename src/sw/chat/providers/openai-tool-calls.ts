/**
 * Tool calls of an OpenAI-compatible stream, assembled from `delta.tool_calls` pieces (T3). The
 * reference shape sends `index`, `id`, `type` and `function.name` on a call's first piece and
 * only `function.arguments` fragments after; real servers differ, and each difference below is
 * one a public endpoint has shown:
 * - the id on every piece, or `id: ""` on the later ones (Qwen compatible mode);
 * - the name repeated on every piece (it must not become `get_weatherget_weather`);
 * - no `index` at all, parallel calls told apart only by their ids;
 * - one `index` for every call, or a first index that differs from the later ones (SGLang):
 *   a piece without an id continues the latest call;
 * - arguments split anywhere, or sent whole as an object;
 * - the legacy `delta.function_call` (one call, no id).
 */

export interface ToolCallPiece {
  index?: number;
  id?: string | null;
  type?: string;
  function?: { name?: string | null; arguments?: unknown } | null;
}

interface Call {
  id: string;
  name: string;
  arguments: string;
}

export class ToolCallAssembler {
  readonly #calls: Call[] = [];
  readonly #byId = new Map<string, Call>();
  readonly #byIndex = new Map<number, Call>();
  #last: Call | undefined;

  add(piece: ToolCallPiece): void {
    const id = typeof piece.id === 'string' && piece.id ? piece.id : undefined;
    const index = typeof piece.index === 'number' ? piece.index : undefined;
    const call = this.#callFor(id, index);
    if (id && !call.id) {
      call.id = id;
      this.#byId.set(id, call);
    }
    if (index !== undefined) this.#byIndex.set(index, call);
    mergeName(call, piece.function?.name);
    mergeArguments(call, piece.function?.arguments);
    this.#last = call;
  }

  /** The calls in the order they began; a call without an id gets one, as the model must see it again. */
  calls(): Array<{ id: string; name: string; arguments: string }> {
    return this.#calls.map((c, i) => ({ id: c.id || `call_${i}`, name: c.name, arguments: c.arguments || '{}' }));
  }

  /** The piece's call: by id, else by index unless the ids differ, else (no id) the latest one, else a new one. */
  #callFor(id: string | undefined, index: number | undefined): Call {
    const known = id ? this.#byId.get(id) : undefined;
    if (known) return known;
    const atIndex = index !== undefined ? this.#byIndex.get(index) : undefined;
    if (atIndex && (!id || !atIndex.id)) return atIndex;
    if (!id && this.#last) return this.#last;
    const call: Call = { id: '', name: '', arguments: '' };
    this.#calls.push(call);
    return call;
  }
}

/** A repeated name is the same name; a name that extends the one so far replaces it; anything else is a fragment. */
function mergeName(call: Call, name: string | null | undefined) {
  if (typeof name !== 'string' || !name || call.name === name) return;
  call.name = !call.name || name.startsWith(call.name) ? name : call.name + name;
}

function mergeArguments(call: Call, args: unknown) {
  if (typeof args === 'string') call.arguments += args;
  // A few servers send the arguments as the object itself, once.
  else if (typeof args === 'object' && args !== null) call.arguments = JSON.stringify(args);
}
