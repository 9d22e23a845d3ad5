/**
 * Stand-in for `@xterm/addon-search` in component tests: searches what the fake terminal was
 * written (plain text) and reports results as the real addon does (`onDidChangeResults`).
 */
import type { Terminal } from './xterm';

type Results = { resultIndex: number; resultCount: number };

export interface ISearchOptions {
  caseSensitive?: boolean;
  regex?: boolean;
  wholeWord?: boolean;
  decorations?: Record<string, unknown>;
}

export class SearchAddon {
  static instances: SearchAddon[] = [];
  term: Terminal | null = null;
  queries: string[] = [];
  cleared = 0;
  #listeners = new Set<(r: Results) => void>();
  #index = -1;

  constructor() {
    SearchAddon.instances.push(this);
  }

  activate(term: Terminal): void {
    this.term = term;
  }

  onDidChangeResults = (listener: (r: Results) => void) => {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  };

  #find(query: string, options: ISearchOptions = {}, step: number): boolean {
    this.queries.push(query);
    // eslint-disable-next-line no-control-regex
    const text = (this.term?.written.join('') ?? '').replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
    const hay = options.caseSensitive ? text : text.toLowerCase();
    const needle = options.caseSensitive ? query : query.toLowerCase();
    let count = 0;
    for (let at = hay.indexOf(needle); needle && at >= 0; at = hay.indexOf(needle, at + 1)) count++;
    this.#index = count === 0 ? -1 : (this.#index + step + count) % count;
    for (const l of this.#listeners) l({ resultIndex: this.#index, resultCount: count });
    return count > 0;
  }

  findNext(query: string, options?: ISearchOptions): boolean {
    return this.#find(query, options, 1);
  }

  findPrevious(query: string, options?: ISearchOptions): boolean {
    return this.#find(query, options, -1);
  }

  clearDecorations(): void {
    this.cleared++;
  }

  dispose(): void {}
}
