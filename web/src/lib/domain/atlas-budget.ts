/**
 * How far the WebGL renderer's glyph atlas may grow before IdeA clears or recycles it (ADR 016).
 *
 * `@xterm/addon-webgl` shares one texture atlas between the terminals of a page that have the
 * same font and theme (`CharAtlasCache.ts`) and caches one glyph per character × foreground ×
 * background, forever: truecolor output grows it without limit. Per glyph the JS cache costs
 * more than the pixels (measured: ~1.2 KB of live heap per glyph next to ~0.5 KB of page).
 * - Every `ATLAS_CLEAR_BYTES` of new pages, the hub calls `clearTextureAtlas()`: the glyph
 *   cache is emptied and the pages are reused (they are not freed).
 * - Past `ATLAS_BYTES_MAX` of pages, it recycles: clears, then disposes every terminal's WebGL
 *   renderer (losing their contexts) and loads new ones, which start from one small page.
 */
export const ATLAS_CLEAR_BYTES = 8 * 1024 * 1024;
export const ATLAS_BYTES_MAX = 32 * 1024 * 1024;

/** One atlas page as the addon's `onAddTextureAtlasCanvas` / `onRemove…` events give it. */
export interface AtlasPage {
  width: number;
  height: number;
}

const bytesOf = (page: AtlasPage) => page.width * page.height * 4; // RGBA

/**
 * The pages of the shared atlas, counted once each however many terminals report them
 * (the atlas forwards its events to every renderer using it), and the bytes of pages added
 * since the last clear.
 */
export class AtlasBudget<P extends AtlasPage = AtlasPage> {
  readonly clearBytes: number;
  readonly maxBytes: number;
  #pages = new Set<P>();
  #grown = 0;
  /** How many times the atlas was cleared, and recycled. */
  clears = 0;
  recycles = 0;

  constructor(clearBytes: number = ATLAS_CLEAR_BYTES, maxBytes: number = ATLAS_BYTES_MAX) {
    this.clearBytes = clearBytes;
    this.maxBytes = maxBytes;
  }

  added(page: P): void {
    if (this.#pages.has(page)) return;
    this.#pages.add(page);
    this.#grown += bytesOf(page);
  }

  removed(page: P): void {
    this.#pages.delete(page);
  }

  /** The glyph cache was emptied: count new pages from zero again. */
  cleared(): void {
    this.#grown = 0;
    this.clears += 1;
  }

  /** Forget every page (the atlas they belonged to is gone); `recycled`: count a recycle. */
  reset(recycled = false): void {
    this.#pages.clear();
    this.#grown = 0;
    if (recycled) this.recycles += 1;
  }

  get pages(): number {
    return this.#pages.size;
  }

  /** Bytes of the pages now (a page's canvas keeps its size for its whole life). */
  get bytes(): number {
    let total = 0;
    for (const page of this.#pages) total += bytesOf(page);
    return total;
  }

  /** More than `clearBytes` of pages were added since the last clear. */
  get needsClear(): boolean {
    return this.#grown > this.clearBytes;
  }

  /** The pages take more than `maxBytes`. */
  get needsRecycle(): boolean {
    return this.bytes > this.maxBytes;
  }
}
