/** The MIME type a session dragged from the sessions panel carries; a cell drop shows it there. */
export const SESSION_DRAG_TYPE = 'application/x-idea-session';

/** The session id a drag carries, or `null` when it carries none. */
export function draggedSession(event: DragEvent): string | null {
  const types = event.dataTransfer?.types ?? [];
  if (!Array.from(types).includes(SESSION_DRAG_TYPE)) return null;
  return event.dataTransfer?.getData(SESSION_DRAG_TYPE) || null;
}

/** Whether a drag (during dragover, where the data cannot be read yet) carries a session. */
export function carriesSession(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes(SESSION_DRAG_TYPE);
}
