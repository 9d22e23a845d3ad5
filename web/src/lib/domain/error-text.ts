/**
 * The backend's message as the user reads it: without a leading raw `CODE:` (some doors format
 * errors as `"<CODE>: <message>"`); the code itself stays available to the caller (a tooltip).
 * An empty message reads as the code.
 */
export function plainMessage(code: string, message: string): string {
  const text = message.trim();
  const prefix = `${code}:`;
  const plain = text.startsWith(prefix) ? text.slice(prefix.length).trim() : text;
  return plain || code;
}
