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

/** A refusal from the backend: its message and details (`GatewayError`). */
export interface Refusal {
  message: string;
  details: Record<string, unknown>;
}

/**
 * A refusal's message as shown beside the field it names: the backend prefixes it with the
 * field's label in the form (`Layout name: a layout needs a name`, details `{field: 'op.name',
 * label: 'Layout name'}`), or with its path in a file (`agents[2].mdPath: field required`,
 * `{field: 'agents[2].mdPath'}`): noise beside the field itself. A message that does not start
 * with the label, or the path of the field in `details.field`, is kept whole.
 */
export function besideField(refusal: Refusal): string {
  const { message, details } = refusal;
  const label = typeof details.label === 'string' ? `${details.label}: ` : '';
  if (label && message.startsWith(label)) return message.slice(label.length);
  const field = typeof details.field === 'string' ? details.field : '';
  const found = /^([\w$.[\]-]+):\s+/.exec(message);
  if (!field || !found) return message;
  const path = found[1];
  const same = path === field || path.endsWith(`.${field}`) || field.endsWith(`.${path}`);
  return same ? message.slice(found[0].length) : message;
}
