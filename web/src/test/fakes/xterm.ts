/**
 * Stand-in for `@xterm/xterm` in component tests (jsdom has no canvas). Records writes and lets
 * a test type (`emitData`). Aliased in vite.config.ts for the test run only.
 */
type Listener<T> = (value: T) => void;

export class Emitter<T> {
  #listeners = new Set<Listener<T>>();
  event = (listener: Listener<T>) => {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  };
  fire(value: T): void {
    for (const l of [...this.#listeners]) l(value);
  }
}

export interface ITheme {
  [key: string]: string | undefined;
}

export class Terminal {
  static instances: Terminal[] = [];
  written: string[] = [];
  cols = 80;
  rows = 24;
  element: HTMLElement | undefined;
  disposed = false;
  keyHandler: ((event: KeyboardEvent) => boolean) | null = null;
  #data = new Emitter<string>();
  #binary = new Emitter<string>();
  #resize = new Emitter<{ cols: number; rows: number }>();
  #selection = new Emitter<void>();
  onData = this.#data.event;
  onBinary = this.#binary.event;
  onResize = this.#resize.event;
  onSelectionChange = this.#selection.event;

  constructor(public options: Record<string, unknown> = {}) {
    Terminal.instances.push(this);
  }

  open(parent: HTMLElement): void {
    const el = document.createElement('div');
    el.className = 'xterm';
    const input = document.createElement('textarea');
    input.className = 'xterm-helper-textarea';
    el.appendChild(input);
    parent.appendChild(el);
    this.element = el;
  }

  /**
   * As xterm.js does, parse writes later, in order, each write's callback called before the
   * next write is parsed (its WriteBuffer); off by default (writes parse at once).
   */
  static asyncWrites = false;
  /** Each write as parsed, with the terminal's size then. */
  parsed: { text: string; cols: number; rows: number }[] = [];
  #queue: { text: string; callback?: () => void }[] = [];

  write(text: string, callback?: () => void): void {
    this.written.push(text);
    if (!Terminal.asyncWrites) {
      this.#parse(text);
      callback?.();
      return;
    }
    this.#queue.push({ text, callback });
    if (this.#queue.length === 1) setTimeout(() => this.#parseQueued(), 0);
  }

  #parseQueued(): void {
    while (this.#queue.length > 0) {
      const { text, callback } = this.#queue.shift()!;
      this.#parse(text);
      callback?.();
    }
  }

  /** Records a parsed write and, as xterm.js does, answers a device-attributes query in it
   * (`CSI c`) through `onData`. */
  #parse(text: string): void {
    this.parsed.push({ text, cols: this.cols, rows: this.rows });
    for (let i = text.indexOf('\x1b[c'); i >= 0; i = text.indexOf('\x1b[c', i + 1)) this.#data.fire('\x1b[?1;2c');
  }

  loadAddon(addon: { activate?: (t: Terminal) => void }): void {
    addon.activate?.(this);
  }

  attachCustomKeyEventHandler(handler: (event: KeyboardEvent) => boolean): void {
    this.keyHandler = handler;
  }

  /** Every size the terminal was given, in order. */
  resizes: [number, number][] = [];

  resize(cols: number, rows: number): void {
    this.resizes.push([cols, rows]);
    this.cols = cols;
    this.rows = rows;
    this.#resize.fire({ cols, rows });
  }

  selectedAll = false;
  cleared = 0;
  scrolledTo: number | null = null;

  selectAll(): void {
    this.selectedAll = true;
  }

  clear(): void {
    this.cleared++;
  }

  scrollToLine(line: number): void {
    this.scrolledTo = line;
  }

  hasSelection(): boolean {
    return false;
  }

  getSelection(): string {
    return '';
  }

  /** Like xterm.js: the helper textarea inside `.xterm` takes the keyboard focus. */
  focus(): void {
    this.element?.querySelector('textarea')?.focus();
  }

  paste(text: string): void {
    this.#data.fire(text);
  }

  dispose(): void {
    this.disposed = true;
  }

  /** Test helper: the user typed `data`. */
  emitData(data: string): void {
    this.#data.fire(data);
  }

  get buffer() {
    const lines = this.written.join('').split(/\r?\n/);
    return {
      active: {
        length: lines.length,
        viewportY: 0,
        baseY: 0,
        cursorY: lines.length - 1,
        getLine: (i: number) =>
          i < lines.length
            ? { isWrapped: false, translateToString: (trim?: boolean) => (trim ? lines[i].replace(/\s+$/, '') : lines[i]) }
            : undefined,
      },
    };
  }
}
