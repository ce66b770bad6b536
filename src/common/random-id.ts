/**
 * The one way the extension makes an id nobody can guess or collide with: operation, channel,
 * owner, document and elicitation ids. 32 lowercase hex digits (a random UUID without its
 * dashes, 122 random bits), so it fits every `[A-Za-z0-9_-]{1,64}` id schema of the protocol.
 */
export function randomId(): string {
  return crypto.randomUUID().replace(/-/g, '');
}
