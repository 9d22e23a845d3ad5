/**
 * Stand-in for `@xterm/addon-webgl` in component tests (jsdom has no WebGL): records its
 * instances and lets a test add or remove glyph-atlas pages as the real atlas reports them.
 */
import { Emitter } from './xterm';

type Page = { width: number; height: number };

export class WebglAddon {
  static instances: WebglAddon[] = [];
  disposed = false;
  #loss = new Emitter<void>();
  #add = new Emitter<Page>();
  #remove = new Emitter<Page>();
  onContextLoss = this.#loss.event;
  onAddTextureAtlasCanvas = this.#add.event;
  onRemoveTextureAtlasCanvas = this.#remove.event;

  constructor() {
    WebglAddon.instances.push(this);
  }

  activate(): void {
    this.#add.fire({ width: 512, height: 512 }); // the atlas's first page, as the renderer starts
  }

  dispose(): void {
    this.disposed = true;
  }

  clears = 0;
  clearTextureAtlas(): void {
    this.clears += 1;
  }

  /** The shared atlas grew by one page of `size` x `size` pixels. */
  addPage(size: number): Page {
    const page = { width: size, height: size };
    this.#add.fire(page);
    return page;
  }

  removePage(page: Page): void {
    this.#remove.fire(page);
  }
}
