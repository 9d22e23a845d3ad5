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
  /** Toasts with a key are counted, not repeated: one per key while it is shown (see `bump`). */
  key?: string;
  /** How many events a keyed toast stands for. */
  count: number;
}

/** What a toast says, given how many events it stands for. */
export type ToastContent = Omit<Toast, 'id' | 'key' | 'count'>;

/** The window's toasts, newest last; each goes away by itself after `TOAST_MS` (not while held). */
export class Toasts {
  #list = $state.raw<Toast[]>([]);
  #nextId = 1;
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- timers, never rendered
  #timers = new Map<number, ReturnType<typeof setTimeout>>();

  get list(): readonly Toast[] {
    return this.#list;
  }

  show(toast: ToastContent): Toast {
    return this.#add({ ...toast, count: 1 });
  }

  /**
   * One toast per `key` while it is shown: a new event updates it (`content(count)`, count from
   * 1) and gives it its full time again, instead of piling up another toast.
   */
  bump(key: string, content: (count: number) => ToastContent): Toast {
    const existing = this.#list.find((t) => t.key === key);
    if (!existing) return this.#add({ ...content(1), key, count: 1 });
    const count = existing.count + 1;
    const updated: Toast = { ...content(count), id: existing.id, key, count };
    this.#list = this.#list.map((t) => (t.id === existing.id ? updated : t));
    this.#arm(existing.id);
    return updated;
  }

  /** The pointer or the focus is on toast `id`: it stays until `release`d. */
  hold(id: number): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
  }

  /** The pointer or the focus left toast `id`: it goes away `TOAST_MS` later. */
  release(id: number): void {
    if (this.#list.some((t) => t.id === id)) this.#arm(id);
  }

  dismiss(id: number): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
    if (this.#list.some((t) => t.id === id)) this.#list = this.#list.filter((t) => t.id !== id);
  }

  #add(toast: Omit<Toast, 'id'>): Toast {
    const shown: Toast = { id: this.#nextId++, ...toast };
    this.#list = [...this.#list, shown];
    this.#arm(shown.id);
    return shown;
  }

  /** (Re)starts the toast's timer. */
  #arm(id: number): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.set(
      id,
      setTimeout(() => this.dismiss(id), TOAST_MS),
    );
  }

  /** Drops the toasts about project `root` (its tab closed). */
  dismissProject(root: string): void {
    for (const toast of this.#list) if (toast.root === root) this.dismiss(toast.id);
  }
}
