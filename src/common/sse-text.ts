/**
 * The `data` of Server-Sent Events held as text (a whole probe answer, one event of a stream
 * being rewritten): an event's `data:` lines joined with line breaks, one optional space after the
 * colon dropped, as the event-stream format says. Streams read as they arrive use their own
 * readers (offscreen/event-check.ts, the chat's provider reader).
 */

/** The data of one event (its lines, without the blank line that ends it), or undefined when it has none. */
export function sseEventData(event: string): string | undefined {
  const data = event
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''));
  return data.length ? data.join('\n') : undefined;
}

/** The data of every event in a whole event-stream text. */
export function sseDataOf(text: string): string[] {
  return text.split(/\r?\n\r?\n/).flatMap((event) => sseEventData(event) ?? []);
}
