/** How long a toast stays unless the user clicks or dismisses it. */
export const TOAST_MS = 8000;

/** An in-app notification (the window may not raise OS notifications: Qt denies the permission). */
export interface Toast {
  id: number;
  message: string;
  tone: 'info' | 'error';
  /** The project it is about; clicking goes there. */
  root: string;
  /** The agent it is about; clicking goes to its cell. */
  agentId?: string;
}

/** The window's toasts, newest last; each goes away by itself after `TOAST_MS`. */
export class Toasts {
  #list = $state.raw<Toast[]>([]);
  #nextId = 1;
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- timers, never rendered
  #timers = new Map<number, ReturnType<typeof setTimeout>>();

  get list(): readonly Toast[] {
    return this.#list;
  }

  show(toast: Omit<Toast, 'id'>): Toast {
    const shown: Toast = { id: this.#nextId++, ...toast };
    this.#list = [...this.#list, shown];
    this.#timers.set(
      shown.id,
      setTimeout(() => this.dismiss(shown.id), TOAST_MS),
    );
    return shown;
  }

  dismiss(id: number): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
    if (this.#list.some((t) => t.id === id)) this.#list = this.#list.filter((t) => t.id !== id);
  }

  /** Drops the toasts about project `root` (its tab closed). */
  dismissProject(root: string): void {
    for (const toast of this.#list) if (toast.root === root) this.dismiss(toast.id);
  }
}
