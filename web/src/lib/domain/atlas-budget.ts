/**
 * Bytes the WebGL renderer's glyph atlas may take before IdeA recycles it (ADR 014).
 *
 * `@xterm/addon-webgl` shares one texture atlas between the terminals of a page that have the
 * same font and theme (`CharAtlasCache.ts`) and adds a page for every glyph that does not fit
 * (one per character × foreground × background). Pages merge four by four up to the device's
 * texture size, but once every page has that size a new one is added anyway
 * (`TextureAtlas._createNewPage`): truecolor output grows the atlas without limit, and
 * `clearTextureAtlas()` only clears the pages, it does not free them. Past the budget, the
 * terminal hub disposes every terminal's WebGL renderer (the last owner's release disposes the
 * atlas) and loads new ones, which start from one small page.
 */
export const ATLAS_BYTES_MAX = 32 * 1024 * 1024;

/** One atlas page as the addon's `onAddTextureAtlasCanvas` / `onRemove…` events give it. */
export interface AtlasPage {
  width: number;
  height: number;
}

/**
 * The pages of the shared atlas, counted once each however many terminals report them
 * (the atlas forwards its events to every renderer using it). RGBA: 4 bytes a pixel.
 */
export class AtlasBudget<P extends AtlasPage = AtlasPage> {
  readonly maxBytes: number;
  #pages = new Set<P>();
  /** How many times the atlas went past the budget and was recycled. */
  recycles = 0;

  constructor(maxBytes: number = ATLAS_BYTES_MAX) {
    this.maxBytes = maxBytes;
  }

  added(page: P): void {
    this.#pages.add(page);
  }

  removed(page: P): void {
    this.#pages.delete(page);
  }

  /** Forget every page (the atlas they belonged to is gone); `recycled`: count a recycle. */
  reset(recycled = false): void {
    this.#pages.clear();
    if (recycled) this.recycles += 1;
  }

  get pages(): number {
    return this.#pages.size;
  }

  /** Bytes of the pages now (a page's canvas keeps its size for its whole life). */
  get bytes(): number {
    let total = 0;
    for (const page of this.#pages) total += page.width * page.height * 4;
    return total;
  }

  /** True once the pages take more than `maxBytes`. */
  get over(): boolean {
    return this.bytes > this.maxBytes;
  }
}
