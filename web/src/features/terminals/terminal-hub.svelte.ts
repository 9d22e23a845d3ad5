import { SvelteMap } from 'svelte/reactivity';
import { Terminal, type ITheme } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { WebglAddon } from '@xterm/addon-webgl';
import { AckBatcher } from '../../lib/domain/ack-counter';
import { ContextBudget } from '../../lib/domain/context-budget';
import { AtlasBudget } from '../../lib/domain/atlas-budget';
import { IdleCollector, exposedGc } from '../../lib/domain/idle-collector';
import { SearchAddon, type ISearchOptions } from '@xterm/addon-search';
import { repaintSteps, type RepaintStep } from '../../lib/domain/repaint';
import { isTerminalReply } from '../../lib/domain/terminal-replies';
import { ScrollKeeper } from '../../lib/domain/scroll-keeper';
import { unseenPart, type PendingChunk } from '../../lib/domain/attach-merge';
import { KeystrokeSequences } from '../../lib/domain/keystroke-sequence';
import { SCREEN_POLL_MS, WritePortal, type Delivery } from '../../lib/domain/write-portal';
import { FeedScheduler, type FeedClock, type FeedDefer } from '../../lib/domain/feed-scheduler';
import { GatewayError, asGatewayError, type AttachResult, type DelegationReady, type Gateway, type PushBatch } from '../../lib/ports';
import { copyText } from './clipboard';
import { isAppShortcut } from '../layout/shortcuts';

/** What a cell knows about its session. */
export interface SessionStatus {
  attached: boolean;
  alive: boolean;
  exitCode: number | null;
  error?: string;
}

/** Where the hub reports failed keystroke writes, and clears them once typing works again. */
export interface HubNotices {
  report(error: unknown, context: string): void;
  resolved(): void;
}

/**
 * What an agent cell's write portal is doing: the overlay shows `delivering` (while it is typed,
 * `typing`, and for a moment after); `queued` deliveries wait for an empty prompt line.
 */
export interface PortalStatus {
  delivering: Delivery | null;
  typing: boolean;
  queued: number;
  /** The screen text the next task waits behind (the CLI waits for its human), if any. */
  waitingScreen?: string | null;
}

/** The first of `texts` on the terminal's visible rows (wrapped rows joined), or null. */
function screenShows(term: Terminal, texts: readonly string[]): string | null {
  const buffer = term.buffer.active;
  let screen = '';
  for (let y = buffer.viewportY; y < buffer.viewportY + term.rows; y++) {
    const line = buffer.getLine(y);
    if (!line) continue;
    screen += (line.isWrapped ? '' : '\n') + line.translateToString(true);
  }
  const flat = screen.replace(/\s+/g, ' ');
  return texts.find((text) => text.trim() !== '' && flat.includes(text.replace(/\s+/g, ' '))) ?? null;
}

/** The WebGL2 contexts of the renderer canvases under `wrapper` (2D canvases give null). */
function webglContexts(wrapper: HTMLElement): WebGL2RenderingContext[] {
  const found: WebGL2RenderingContext[] = [];
  for (const canvas of wrapper.querySelectorAll<HTMLCanvasElement>('.xterm-screen > canvas')) {
    const gl = canvas.getContext('webgl2');
    if (gl) found.push(gl);
  }
  return found;
}

/** One xterm.js instance per session, kept alive while some view shows it. */
interface PooledTerminal {
  sessionId: string;
  term: Terminal;
  fit: FitAddon;
  webgl: WebglAddon | null;
  /** Element xterm was opened in; moved between views instead of re-creating the terminal. */
  wrapper: HTMLDivElement;
  claims: number;
  /** Output received while `attach` is in flight, written after the scrollback. */
  pending: PendingChunk[] | null;
  /** Output offset up to which this view has written (UTF-16 units); later chunks skip below it. */
  end: number;
  /** Last size sent to the PTY, to skip duplicate resizes. */
  sentSize: string;
  disposables: { dispose(): void }[];
  /** Agent sessions only: the single writer of human keys and delegated tasks. */
  portal: WritePortal | null;
  /** The project of an agent session (its portal reports the human line there). */
  root: string | null;
  /** Scrollback search (Ctrl+Shift+F). */
  search: SearchAddon;
  /** Keeps a scrolled-back view in place through a TUI's full repaints. */
  scroll: ScrollKeeper;
  /** The scrollback is being replayed at its own sizes: the PTY is not told the size yet. */
  replaying: boolean;
  /** The scrollback is being replayed: xterm.js's answers to the queries in it are dropped. */
  replayingAnswers: boolean;
  /** The `[process exited …]` line is written (or queued): a session's end is said once per view. */
  exitSaid: boolean;
}

/** What a terminal holds, for the memory bench (`window.__ideaTerminalStats`). */
export interface TerminalStats {
  sessionId: string;
  /** Lines in xterm's active buffer (scrollback + screen). */
  bufferLines: number;
  scrollback: number;
  cols: number;
  rows: number;
  renderer: 'webgl' | 'dom';
}

/** The page's terminals and the WebGL glyph atlas they share (pages, RGBA bytes, recycles). */
export interface TerminalsStats {
  terminals: TerminalStats[];
  atlas: { pages: number; bytes: number; clearBytes: number; maxBytes: number; clears: number; recycles: number };
  /** Idle garbage collections the page ran (`IdleCollector`). */
  collections: number;
}

/** What a search in a terminal found: the match shown (0-based, -1 none) of how many; `invalid`:
 * why the query is no regular expression (regex searches only). */
export interface SearchResults {
  index: number;
  count: number;
  invalid?: string;
}

/** Search options of the find bar, as `@xterm/addon-search` takes them. */
export interface FindOptions {
  caseSensitive?: boolean;
  regex?: boolean;
}

/** Highlights of matches (the addon draws them as decorations). */
const SEARCH_DECORATIONS: ISearchOptions['decorations'] = {
  matchBackground: '#623315',
  matchOverviewRuler: '#d18616',
  activeMatchBackground: '#515c6a',
  activeMatchColorOverviewRuler: '#ffd33d',
};

/**
 * Runs a function in a task of its own, soon: a `MessageChannel` message (not clamped like nested
 * `setTimeout`s); `setTimeout` where there is none.
 */
export function nextTask(): FeedDefer {
  if (typeof MessageChannel === 'undefined') return (run) => void setTimeout(run, 0);
  const channel = new MessageChannel();
  const runs: (() => void)[] = [];
  channel.port1.onmessage = () => runs.shift()?.();
  return (run) => {
    runs.push(run);
    channel.port2.postMessage(null);
  };
}

/**
 * The feed's clock on a real page: `performance.now()`, `nextTask()`, and "after the next frame":
 * a task posted from a `requestAnimationFrame` callback (it runs once the frame was rendered),
 * or a timer when no frame comes.
 */
export function pageClock(): FeedClock {
  const defer = nextTask();
  return {
    now: () => performance.now(),
    defer,
    afterFrame: (run, maxWaitMs) => {
      let done = false;
      const fire = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        run();
      };
      const timer = setTimeout(fire, maxWaitMs);
      if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => defer(fire));
    },
  };
}

/** Acknowledged tickets remembered per session, to ignore a late repeat of one. */
const TYPED_TICKETS_KEPT = 64;

export const TERMINAL_THEME: ITheme = {
  background: '#1e1e1e',
  foreground: '#cccccc',
  cursor: '#aeafad',
  selectionBackground: '#264f78',
  black: '#000000',
  red: '#cd3131',
  green: '#0dbc79',
  yellow: '#e5e510',
  blue: '#2472c8',
  magenta: '#bc3fbc',
  cyan: '#11a8cd',
  white: '#e5e5e5',
  brightBlack: '#666666',
  brightRed: '#f14c4c',
  brightGreen: '#23d18b',
  brightYellow: '#f5f543',
  brightBlue: '#3b8eea',
  brightMagenta: '#d670d6',
  brightCyan: '#29b8db',
  brightWhite: '#e5e5e5',
};

/**
 * Owns the xterm.js terminals of all sessions shown in this window: keystrokes (numbered per
 * session), output from pushes with flow-control acks, re-attach/repaint, resize, clipboard and
 * the WebGL renderer of visible terminals. Views (`TerminalView.svelte`) only lend it a DOM node.
 *
 * Resize discipline: the PTY is resized only once `attach` said the session is alive, and never
 * after the hub knows it ended (`sessionExited`, `attach` → `alive: false`, or a resize answered
 * `NOT_FOUND`, which quietly marks it ended). `sessionReleased` drops all it kept per session.
 *
 * Agent sessions get a write portal (ARCHITECTURE §20): a `delegationReady` addressed to this
 * window's view for a session it shows is typed through the same numbered write path as the
 * human's keys (its writes carrying the ticket), once the human's line is empty; keys typed
 * meanwhile are held and follow the submit. A `delegation` that ended drops out of the portals'
 * queues; the portal reports the human line's transitions (`orchestration.humanLine`). Plain
 * shells have no portal and behave as before.
 */
export class TerminalHub {
  /** What each session's cell shows (attached yet, alive, exit code); per-key reactive. */
  #status = new SvelteMap<string, SessionStatus>();
  /** Write portals of the agent sessions shown, for their overlays; per-key reactive. */
  #portals = new SvelteMap<string, PortalStatus>();

  #gateway: Gateway;
  // Deliberately not reactive: it holds xterm.js instances and DOM nodes, which views reach
  // through methods; what the UI renders from lives in `#status`.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  #pool = new Map<string, PooledTerminal>();
  #sequences = new KeystrokeSequences();
  #notices: HubNotices;
  /** Session whose terminal should take the keyboard focus as soon as a view mounts it. */
  #focusOnMount: string | null = null;
  /** A keystroke write failed and no write succeeded since (the banner shows it). */
  #typingFailed = false;
  /** This window's view id (`app.info().view`), once known. */
  #view: () => string | null;
  /** Tickets this window typed and acknowledged, per session: a late repeat is not retyped. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
  #typed = new Map<string, string[]>();
  /** Flow-control acks of every terminal of this window, batched into one call per tick. */
  #acks: AckBatcher;
  /** WebGL contexts of visible terminals: at most 16 per page, the rest stay on the DOM renderer. */
  #contexts = new ContextBudget();
  /** Pages of the WebGL glyph atlas the visible terminals share, cleared and recycled (ADR 016). */
  #atlas = new AtlasBudget<HTMLCanvasElement>();
  #atlasRecycle: ReturnType<typeof setTimeout> | null = null;
  /** One garbage collection when the output went quiet after a lot of it (ADR 016). */
  #idle: IdleCollector;
  /** Hands output to the terminals so a quiet one's echo never waits behind floods (ADR 020). */
  #feed: FeedScheduler;
  /** Terminal preferences (settings.json `terminal`), applied to every terminal. */
  #fontSize = 13;
  #scrollbackLines = 10_000;
  /** Search results by session, for the find bar; per-key reactive. */
  #searchResults = new SvelteMap<string, SearchResults>();
  /** The options of each session's last search (`caseSensitive/regex`). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
  #findOptions = new Map<string, string>();
  /** Sessions whose screen is looked at for what means its CLI waits for its human (`watchScreen`). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
  #screenWatches = new Map<string, { texts: readonly string[]; timer: ReturnType<typeof setTimeout> | undefined }>();
  /** The text such a screen shows now, by session (absent: none). */
  #screenWaiting = new SvelteMap<string, string>();

  constructor(
    gateway: Gateway,
    notices: HubNotices = { report: () => {}, resolved: () => {} },
    view: () => string | null = () => null,
    collect: () => void = exposedGc(),
    clock: FeedClock = pageClock(),
  ) {
    this.#gateway = gateway;
    this.#notices = notices;
    this.#view = view;
    this.#acks = new AckBatcher((acks) => void this.#gateway.terminals.ackMany(acks).catch(() => {}));
    this.#idle = new IdleCollector(collect);
    this.#feed = new FeedScheduler((sessionId, text, counted, parsed) => {
      const entry = this.#pool.get(sessionId);
      if (entry) this.#writeOutput(entry, text, counted, parsed);
      else parsed?.(Number.NaN);
    }, clock);
  }

  /** The page's feed of output to its terminals (benchmarks tune it: `window.__ideaFeed`). */
  get feed(): FeedScheduler {
    return this.#feed;
  }

  /** The session's state as far as this window knows; `undefined` before any view showed it. */
  statusOf(sessionId: string): SessionStatus | undefined {
    return this.#status.get(sessionId);
  }

  /** The write portal of an agent session shown here; `undefined` for shells and unseen ones. */
  portalOf(sessionId: string): PortalStatus | undefined {
    return this.#portals.get(sessionId);
  }

  /**
   * Shows the session's terminal inside `container`, creating and attaching it if needed.
   * `agentId`: the session runs that agent of project `root`, so its keystrokes go through a
   * write portal (which reports the human line to `root`).
   */
  mount(sessionId: string, container: HTMLElement, agentId?: string, root?: string): void {
    let entry = this.#pool.get(sessionId);
    if (!entry) {
      entry = this.#create(sessionId, container);
    } else if (entry.wrapper.parentElement !== container) {
      // Moving a focused element out of the DOM blurs it: keystrokes typed while the cell
      // re-renders (e.g. after an agent launch) would be lost. Give the focus back.
      const hadFocus = entry.wrapper.contains(document.activeElement);
      container.appendChild(entry.wrapper);
      if (hadFocus) entry.term.focus();
    }
    if (root) entry.root ??= root;
    if (agentId && !entry.portal) this.#addPortal(entry);
    entry.claims += 1;
    this.fit(sessionId);
    if (this.#focusOnMount === sessionId) {
      this.#focusOnMount = null;
      entry.term.focus();
    }
  }

  /** Releases a view; the terminal is disposed when no view took it back by the next tick. */
  unmount(sessionId: string, container: HTMLElement): void {
    const entry = this.#pool.get(sessionId);
    if (!entry) return;
    entry.claims -= 1;
    if (entry.wrapper.parentElement === container && entry.claims === 0) entry.wrapper.remove();
    setTimeout(() => {
      if (entry.claims <= 0 && this.#pool.get(sessionId) === entry) this.#dispose(entry);
    }, 0);
  }

  /** Routes the output of a push batch; output of sessions without a view is acked at the next tick. */
  handlePush(batch: PushBatch): void {
    for (const [sessionId, text] of Object.entries(batch.output ?? {})) {
      if (!text) continue;
      this.#idle.wrote(text.length);
      const entry = this.#pool.get(sessionId);
      if (!entry) {
        // Nobody shows it: the scrollback repaints it on attach; keep the PTY flowing.
        this.#acks.consumed(sessionId, text.length, true);
        continue;
      }
      const offset = batch.offsets?.[sessionId];
      if (entry.pending) {
        entry.pending.push({ text, offset });
        continue;
      }
      this.#writeFrom(entry, text, offset);
    }
    for (const event of batch.events ?? []) {
      if (event.type === 'sessionExited') this.#exited(event.sessionId, event.exitCode);
      else if (event.type === 'sessionReleased') this.#released(event.sessionId);
      else if (event.type === 'delegationReady') this.#delegationReady(event);
      else if (event.type === 'delegation' && (event.state === 'done' || event.state === 'failed')) {
        // Ended before it was typed (cancelled, timed out…): no portal types it any more.
        for (const entry of this.#pool.values()) entry.portal?.cancel(event.ticket);
      }
    }
  }

  /** Fits the terminal to its view; the PTY follows through `onResize`. */
  fit(sessionId: string): void {
    const entry = this.#pool.get(sessionId);
    if (!entry || !entry.wrapper.isConnected) return;
    const box = entry.wrapper.getBoundingClientRect();
    if (box.width < 10 || box.height < 10) return; // hidden tab or collapsed pane
    try {
      const dims = entry.fit.proposeDimensions();
      if (dims && dims.cols > 0 && dims.rows > 0 && (dims.cols !== entry.term.cols || dims.rows !== entry.term.rows)) {
        entry.term.resize(dims.cols, dims.rows);
      }
    } catch {
      // renderer not ready yet; the next observation fits
    }
  }

  /**
   * WebGL only while visible and within the page's budget of 16 contexts (ADR 008); the DOM
   * renderer otherwise. Either way the terminal keeps parsing what is pushed, hidden or not.
   */
  setVisible(sessionId: string, visible: boolean): void {
    const entry = this.#pool.get(sessionId);
    if (!entry) return;
    if (visible && !entry.webgl) {
      if (!this.#contexts.take(sessionId)) return;
      try {
        const webgl = new WebglAddon();
        webgl.onContextLoss(() => this.#dropWebgl(entry));
        // Before loadAddon: the atlas reports its first page while the renderer is created.
        webgl.onAddTextureAtlasCanvas((page) => this.#atlasGrew(page));
        webgl.onRemoveTextureAtlasCanvas((page) => this.#atlas.removed(page));
        entry.term.loadAddon(webgl);
        entry.webgl = webgl;
      } catch {
        entry.webgl = null; // no WebGL here: the DOM renderer stays
        this.#contexts.give(sessionId);
      }
    } else if (!visible) {
      this.#dropWebgl(entry);
    }
  }

  /** A page was added to the shared atlas; past a bound, clear or recycle once this task ends. */
  #atlasGrew(page: HTMLCanvasElement): void {
    this.#atlas.added(page);
    if (!(this.#atlas.needsClear || this.#atlas.needsRecycle) || this.#atlasRecycle !== null) return;
    this.#atlasRecycle = setTimeout(() => this.#boundAtlas(), 0);
  }

  /**
   * Clears the shared atlas (its glyph cache is emptied, its pages reused); past its byte
   * budget, also disposes every WebGL renderer (the atlas goes with its last owner) and loads
   * new ones on the same terminals: they start from one small page and repaint what they show.
   */
  #boundAtlas(): void {
    this.#atlasRecycle = null;
    const holders = [...this.#pool.values()].filter((entry) => entry.webgl);
    if (!this.#atlas.needsClear && !this.#atlas.needsRecycle) return;
    for (const entry of holders) entry.webgl?.clearTextureAtlas(); // one shared atlas: once
    this.#atlas.cleared();
    if (!this.#atlas.needsRecycle) return;
    for (const entry of holders) this.#dropWebgl(entry);
    this.#atlas.reset(true);
    for (const entry of holders) this.setVisible(entry.sessionId, true);
  }

  /** Per terminal its buffer and renderer, and the shared atlas (the memory bench reads it). */
  stats(): TerminalsStats {
    const terminals = [...this.#pool.values()].map((entry) => ({
      sessionId: entry.sessionId,
      bufferLines: entry.term.buffer.active.length,
      scrollback: entry.term.options.scrollback ?? 0,
      cols: entry.term.cols,
      rows: entry.term.rows,
      renderer: entry.webgl ? ('webgl' as const) : ('dom' as const),
    }));
    const { pages, bytes, clearBytes, maxBytes, clears, recycles } = this.#atlas;
    return {
      terminals,
      atlas: { pages, bytes, clearBytes, maxBytes, clears, recycles },
      collections: this.#idle.collections,
    };
  }

  /** The last `count` rows of the buffer up to the cursor's (cheap where `textOf` copies it all). */
  tailOf(sessionId: string, count: number): string {
    const buffer = this.#pool.get(sessionId)?.term.buffer.active;
    if (!buffer) return '';
    const lines: string[] = [];
    const end = Math.min(buffer.length, buffer.baseY + buffer.cursorY + 1);
    for (let i = Math.max(0, end - count); i < end; i++) {
      lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
    }
    return lines.join('\n');
  }

  /** Gives the session's terminal the keyboard focus now, or when a view mounts it. */
  focus(sessionId: string): void {
    const entry = this.#pool.get(sessionId);
    if (entry?.wrapper.isConnected) {
      this.#focusOnMount = null;
      entry.term.focus();
    } else {
      this.#focusOnMount = sessionId;
    }
  }

  /** Where the terminal's view is (rows from the top of its buffer), for e2e checks; null when not mounted. */
  viewOf(sessionId: string): { viewportY: number; baseY: number } | null {
    const entry = this.#pool.get(sessionId);
    if (!entry) return null;
    const { viewportY, baseY } = entry.term.buffer.active;
    return { viewportY, baseY };
  }

  /** Rendered buffer (scrollback + screen): wrapped rows joined, right-trimmed, `\n` between lines. */
  textOf(sessionId: string): string {
    const entry = this.#pool.get(sessionId);
    if (!entry) return '';
    const buffer = entry.term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < buffer.length; i++) {
      const line = buffer.getLine(i);
      if (!line) continue;
      // A row continued on the next one keeps its trailing blanks: they are part of the text.
      const continued = buffer.getLine(i + 1)?.isWrapped ?? false;
      const text = line.translateToString(!continued);
      if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
      else lines.push(text);
    }
    const trimmed = lines.map((l) => l.trimEnd());
    while (trimmed.length > 0 && trimmed[trimmed.length - 1] === '') trimmed.pop();
    return trimmed.join('\n');
  }

  async copySelection(sessionId: string): Promise<void> {
    const entry = this.#pool.get(sessionId);
    if (entry?.term.hasSelection()) await copyText(entry.term.getSelection());
  }

  /** Pastes text as typed input (bracketed paste handled by xterm). */
  paste(sessionId: string, text: string): void {
    this.#pool.get(sessionId)?.term.paste(text);
  }

  #create(sessionId: string, container: HTMLElement): PooledTerminal {
    const wrapper = document.createElement('div');
    wrapper.className = 'xterm-wrapper';
    container.appendChild(wrapper);
    const term = new Terminal({
      allowProposedApi: true,
      cursorBlink: true,
      fontFamily: '"JetBrains Mono", "Cascadia Mono", "DejaVu Sans Mono", "Ubuntu Mono", Menlo, Consolas, monospace',
      fontSize: this.#fontSize,
      lineHeight: 1.15,
      scrollback: this.#scrollbackLines,
      theme: TERMINAL_THEME,
      rightClickSelectsWord: true,
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    const search = new SearchAddon();
    term.loadAddon(search);
    const entry: PooledTerminal = {
      sessionId,
      term,
      fit,
      webgl: null,
      wrapper,
      claims: 0,
      pending: [],
      end: 0,
      sentSize: '',
      disposables: [],
      portal: null,
      root: null,
      search,
      scroll: new ScrollKeeper(),
      replaying: false,
      replayingAnswers: false,
      exitSaid: false,
    };
    entry.disposables.push(
      search.onDidChangeResults(({ resultIndex, resultCount }) =>
        this.#searchResults.set(sessionId, { index: resultIndex, count: resultCount }),
      ),
    );
    this.#pool.set(sessionId, entry);
    term.open(wrapper);
    this.#wireInput(entry);
    this.#status.set(sessionId, { attached: false, alive: true, exitCode: null });
    void this.#attach(entry);
    return entry;
  }

  /**
   * The one write path to the PTY, numbered per session: the human's keys and the portal's
   * deliveries alike (those with their `ticket`). Rejects (without a write) once the session ended.
   */
  #write(entry: PooledTerminal, data: string, ticket?: string): Promise<void> {
    const { sessionId } = entry;
    if (this.#status.get(sessionId)?.alive === false) {
      return Promise.reject(new GatewayError('NOT_FOUND', `session ${sessionId} ended`));
    }
    return this.#gateway.terminals.write(sessionId, this.#sequences.for(sessionId).next(), data, ticket).then(
      () => {
        if (!this.#typingFailed) return;
        this.#typingFailed = false;
        this.#notices.resolved();
      },
      (error: unknown) => {
        this.#typingFailed = true;
        this.#notices.report(error, 'Typing failed');
        throw error;
      },
    );
  }

  #wireInput(entry: PooledTerminal): void {
    const { term, sessionId } = entry;
    let copyTimer: ReturnType<typeof setTimeout> | undefined;
    // xterm.js answering the queries of a replayed scrollback is no input for today's program
    const answersReplay = (data: string) => entry.replayingAnswers && isTerminalReply(data);
    const send = (data: string) => {
      if (this.#status.get(sessionId)?.alive === false || answersReplay(data)) return;
      this.#feed.typed(sessionId);
      if (entry.portal && !entry.portal.keystroke(data)) return; // held: a task is being typed
      void this.#write(entry, data).catch(() => {});
    };
    const sendBinary = (data: string) => {
      if (this.#status.get(sessionId)?.alive === false || answersReplay(data)) return;
      this.#feed.typed(sessionId);
      if (entry.portal && !entry.portal.binary(data)) return;
      void this.#write(entry, data).catch(() => {});
    };
    term.attachCustomKeyEventHandler((event) => {
      if (event.type !== 'keydown') return true;
      if (event.ctrlKey && event.shiftKey && !event.altKey && event.code === 'KeyC') {
        void this.copySelection(sessionId);
        event.preventDefault();
        return false;
      }
      // Ctrl+Shift+V: let the browser raise its native paste event, which xterm handles.
      if (event.ctrlKey && event.shiftKey && !event.altKey && event.code === 'KeyV') return false;
      return !isAppShortcut(event, true);
    });
    entry.disposables.push(
      term.onData(send),
      term.onBinary(sendBinary),
      term.onResize(() => this.#sendSize(entry)),
      term.onSelectionChange(() => {
        // Copy on selection, once the selection settles (it changes on every mouse move).
        clearTimeout(copyTimer);
        copyTimer = setTimeout(() => {
          if (term.hasSelection()) void copyText(term.getSelection());
        }, 150);
      }),
      { dispose: () => clearTimeout(copyTimer) },
    );
  }

  /** Writes the part of a pushed chunk this view has not shown yet; acks the skipped part. */
  #writeFrom(entry: PooledTerminal, text: string, offset: number | undefined): void {
    this.#screenTouched(entry.sessionId);
    const unseen = unseenPart(text, offset, entry.end);
    if (offset !== undefined) entry.end = Math.max(entry.end, offset + text.length);
    if (text.length > unseen.length) this.#ack(entry, text.length - unseen.length);
    if (unseen) this.#feed.feed(entry.sessionId, unseen);
  }

  async #attach(entry: PooledTerminal): Promise<void> {
    const { sessionId } = entry;
    try {
      const result = await this.#gateway.terminals.attach(sessionId);
      if (this.#pool.get(sessionId) !== entry) return;
      const pending = entry.pending ?? [];
      entry.pending = null;
      if (result.scrollback) this.#repaint(entry, result.scrollback, result.sizes);
      entry.end = result.end ?? 0;
      for (const chunk of pending) this.#writeFrom(entry, chunk.text, chunk.offset);
      const alive = result.alive && this.#status.get(sessionId)?.alive !== false;
      const exitCode = this.#status.get(sessionId)?.exitCode ?? result.exitCode;
      this.#status.set(sessionId, { attached: true, alive, exitCode });
      if (alive) this.#sendSize(entry);
      // A process that ended before this view existed (a CLI quitting at once, or a view made
      // after the end) is said ended too, after the scrollback it left.
      else if (result.alive === false) this.#sayExited(entry, exitCode);
      entry.portal?.pump();
      this.#screenTouched(sessionId); // the repainted screen may be one that waits for the human
    } catch (error) {
      entry.pending = null;
      const message = error instanceof Error ? error.message : String(error);
      this.#status.set(sessionId, { attached: true, alive: false, exitCode: null, error: message });
    }
  }

  /**
   * Tells the PTY the terminal's size, once per distinct size, and only between an `attach`
   * that found the session alive and the end of the session. A `NOT_FOUND` answer means the
   * backend has no such PTY any more: the session is marked ended, without a banner.
   */
  #sendSize(entry: PooledTerminal): void {
    const { sessionId, term } = entry;
    const status = this.#status.get(sessionId);
    if (!status?.attached || !status.alive || entry.replaying) return;
    const size = `${term.cols}x${term.rows}`;
    if (size === entry.sentSize) return;
    entry.sentSize = size;
    void this.#gateway.terminals.resize(sessionId, term.cols, term.rows).catch((error: unknown) => {
      if (asGatewayError(error).code === 'NOT_FOUND') this.#endedQuietly(sessionId);
    });
  }

  /** The backend no longer knows the session: shown as ended, no exit line, no banner. */
  #endedQuietly(sessionId: string): void {
    const status = this.#status.get(sessionId);
    if (status?.alive) this.#status.set(sessionId, { ...status, alive: false });
  }

  /**
   * Writes to xterm.js; once parsed, acknowledges the `counted` characters and calls `parsed`
   * (if given) with the parse time (ms): an empty write just before marks when xterm.js's task
   * reached it. Without `parsed`, no empty write: after a keystroke xterm.js parses the first
   * write into an empty buffer at once, and the echo must be that write.
   */
  #writeOutput(entry: PooledTerminal, text: string, counted: number, parsed?: (parseMs: number) => void): void {
    let started = Number.NaN;
    if (parsed) {
      entry.term.write('', () => {
        started = performance.now();
      });
    }
    entry.scroll.before(entry.term, text);
    entry.term.write(text, () => {
      entry.scroll.after(entry.term);
      this.#ack(entry, counted);
      parsed?.(performance.now() - started);
    });
  }

  #ack(entry: PooledTerminal, chars: number): void {
    this.#acks.consumed(entry.sessionId, chars);
  }

  /** `sessionExited`: a session this window shows (or showed) ended; others are not recorded. */
  #exited(sessionId: string, exitCode: number | null): void {
    const previous = this.#status.get(sessionId);
    if (previous) this.#status.set(sessionId, { attached: previous.attached, alive: false, exitCode });
    const entry = this.#pool.get(sessionId);
    if (entry) this.#sayExited(entry, exitCode);
  }

  /** Writes `[process exited with code N]` once, after the output still queued or pending. */
  #sayExited(entry: PooledTerminal, exitCode: number | null): void {
    if (entry.exitSaid) return;
    entry.exitSaid = true;
    const line = `\r\n\x1b[90m[process exited${exitCode === null ? '' : ` with code ${exitCode}`}]\x1b[0m\r\n`;
    if (entry.pending) entry.pending.push({ text: line, offset: undefined });
    else this.#feed.feed(entry.sessionId, line, false);
  }

  /** `sessionReleased`: the backend forgot the session; so does the hub (status, keystroke seq). */
  #released(sessionId: string): void {
    this.#status.delete(sessionId);
    this.#searchResults.delete(sessionId);
    this.#findOptions.delete(sessionId);
    this.#sequences.forget(sessionId);
    this.#typed.delete(sessionId);
  }

  /**
   * A turn starts in an agent session: this window's view types it when it shows the session
   * (another view's, or a session not shown here, is left alone: the backend offers it to the
   * next view that attaches, or types it itself).
   */
  #delegationReady(event: DelegationReady): void {
    const view = this.#view();
    if (view === null || event.view !== view) return;
    const entry = this.#pool.get(event.sessionId);
    if (!entry || this.#typed.get(event.sessionId)?.includes(event.ticket)) return;
    entry.root ??= event.root;
    const portal = entry.portal ?? this.#addPortal(entry);
    const delivery: Delivery = {
      root: event.root,
      agentId: event.agentId,
      sessionId: event.sessionId,
      ticket: event.ticket,
      text: event.text,
      lineDirty: event.lineDirty === true,
    };
    if (event.submitSequence !== undefined) delivery.submitSequence = event.submitSequence;
    if (event.submitDelayMs !== undefined) delivery.submitDelayMs = event.submitDelayMs;
    if (event.waitingScreens?.length) delivery.waitingScreens = event.waitingScreens;
    portal.offer(delivery);
  }

  #addPortal(entry: PooledTerminal): WritePortal {
    const { sessionId } = entry;
    const portal = new WritePortal({
      write: (data, ticket) => this.#write(entry, data, ticket),
      ready: () => {
        const status = this.#status.get(sessionId);
        return status?.attached === true && status.alive;
      },
      delivered: (delivery) => {
        const typed = this.#typed.get(sessionId) ?? [];
        this.#typed.set(sessionId, [...typed.slice(-TYPED_TICKETS_KEPT + 1), delivery.ticket]);
        void this.#gateway.orchestration.delivered(delivery.root, delivery.ticket).catch(() => {});
      },
      changed: () => {
        if (this.#pool.get(sessionId) !== entry) return;
        this.#portals.set(sessionId, {
          delivering: portal.shown,
          typing: portal.current !== null,
          queued: portal.queued.length,
          waitingScreen: portal.waitingScreen,
        });
      },
      screenShows: (texts) => screenShows(entry.term, texts),
      humanLine: (dirty) => {
        if (entry.root === null) return; // no project known yet: nowhere to report it
        void this.#gateway.orchestration.humanLine(entry.root, sessionId, dirty).catch(() => {});
      },
    });
    entry.portal = portal;
    this.#portals.set(sessionId, { delivering: null, typing: false, queued: 0 });
    return portal;
  }

  // -- screens that wait for the human (a sign-in menu, a folder-trust question) --------------

  /**
   * Looks at `sessionId`'s visible rows for one of `texts` (its profile's `waitingScreens`)
   * now and at most every `SCREEN_POLL_MS` ms while output comes; `waitingScreenOf` says which
   * shows. Returns the function that stops looking. A trial saw a Codex agent on its sign-in
   * menu shown as idle.
   */
  watchScreen(sessionId: string, texts: readonly string[]): () => void {
    this.#stopWatching(sessionId);
    const watch = { texts, timer: undefined };
    this.#screenWatches.set(sessionId, watch);
    this.#lookAtScreen(sessionId);
    return () => {
      if (this.#screenWatches.get(sessionId) === watch) this.#stopWatching(sessionId);
    };
  }

  /** The waiting screen's text `sessionId` shows now (see `watchScreen`), or null. */
  waitingScreenOf(sessionId: string): string | null {
    return this.#screenWaiting.get(sessionId) ?? null;
  }

  #stopWatching(sessionId: string): void {
    clearTimeout(this.#screenWatches.get(sessionId)?.timer);
    this.#screenWatches.delete(sessionId);
    this.#screenWaiting.delete(sessionId);
  }

  #screenTouched(sessionId: string): void {
    const watch = this.#screenWatches.get(sessionId);
    if (!watch || watch.timer !== undefined) return;
    watch.timer = setTimeout(() => {
      watch.timer = undefined;
      this.#lookAtScreen(sessionId);
    }, SCREEN_POLL_MS);
  }

  #lookAtScreen(sessionId: string): void {
    const watch = this.#screenWatches.get(sessionId);
    const entry = this.#pool.get(sessionId);
    const shows = watch && entry ? screenShows(entry.term, watch.texts) : null;
    if (shows === null) this.#screenWaiting.delete(sessionId);
    else if (this.#screenWaiting.get(sessionId) !== shows) this.#screenWaiting.set(sessionId, shows);
  }

  // -- workbench: preferences, scrollback search, the terminal's context menu ----------------

  /** Applies `settings.json` `terminal` values to every terminal, and to those created later. */
  setPreferences(preferences: { fontSize?: number; scrollbackLines?: number }): void {
    if (preferences.fontSize !== undefined) this.#fontSize = preferences.fontSize;
    if (preferences.scrollbackLines !== undefined) this.#scrollbackLines = preferences.scrollbackLines;
    for (const entry of this.#pool.values()) {
      entry.term.options.fontSize = this.#fontSize;
      entry.term.options.scrollback = this.#scrollbackLines;
      this.fit(entry.sessionId);
    }
  }

  /** The font size terminals use now. */
  get fontSize(): number {
    return this.#fontSize;
  }

  /** Finds `query` in the session's scrollback, forwards (or `backwards`); false when absent. */
  find(sessionId: string, query: string, options: FindOptions = {}, backwards = false): boolean {
    const entry = this.#pool.get(sessionId);
    if (!entry) return false;
    if (!query) {
      this.clearSearch(sessionId);
      return false;
    }
    const opts: ISearchOptions = { ...options, decorations: SEARCH_DECORATIONS };
    const said = `${options.caseSensitive === true}/${options.regex === true}`;
    if (this.#findOptions.get(sessionId) !== said) {
      // @xterm/addon-search 0.16 records new options before comparing them with the last
      // ones, so toggling Aa on the same query kept the old matches (a trial saw "? of 31"
      // for a case-sensitive FOO): an empty search first makes it forget its cached query.
      entry.search.clearDecorations();
      entry.search.findNext('', opts);
      this.#findOptions.set(sessionId, said);
    }
    try {
      return backwards ? entry.search.findPrevious(query, opts) : entry.search.findNext(query, opts);
    } catch (error) {
      // an unfinished regular expression: nothing found yet, and no earlier match left shown
      entry.search.clearDecorations();
      entry.term.clearSelection();
      this.#searchResults.set(sessionId, { index: -1, count: 0, invalid: error instanceof Error ? error.message : String(error) });
      return false;
    }
  }

  /** Results of the last search in the session (`undefined`: none done). */
  searchResultsOf(sessionId: string): SearchResults | undefined {
    return this.#searchResults.get(sessionId);
  }

  clearSearch(sessionId: string): void {
    this.#pool.get(sessionId)?.search.clearDecorations();
    this.#searchResults.delete(sessionId);
    this.#findOptions.delete(sessionId);
  }

  hasSelection(sessionId: string): boolean {
    return this.#pool.get(sessionId)?.term.hasSelection() ?? false;
  }

  selectAll(sessionId: string): void {
    this.#pool.get(sessionId)?.term.selectAll();
  }

  /** Clears the view's scrollback (the program and the backend's scrollback are untouched). */
  clear(sessionId: string): void {
    this.#pool.get(sessionId)?.term.clear();
  }

  /**
   * Replays the scrollback at the sizes it was produced at (`attach` → `sizes`), then fits the
   * view: xterm.js reflows what wrapped instead of re-running cursor moves at the wrong width.
   * Meanwhile (`replaying`) the PTY is not told the replay sizes, and (`replayingAnswers`)
   * xterm.js's answers to the queries in the scrollback are not sent to it (`isTerminalReply`).
   */
  #repaint(entry: PooledTerminal, scrollback: string, sizes: AttachResult['sizes']): void {
    const { term } = entry;
    const steps = repaintSteps(scrollback, sizes);
    const [viewCols, viewRows] = [term.cols, term.rows];
    const sized = (step: RepaintStep) => step.cols === 0 || (step.cols === viewCols && step.rows === viewRows);
    entry.replayingAnswers = true;
    if (steps.every(sized)) {
      for (const step of steps) term.write(step.text);
      term.write('', () => {
        entry.replayingAnswers = false;
      });
      return;
    }
    // xterm.js parses writes later, in order, calling each write's callback before it parses
    // the next one, while a resize applies at once: each piece's size is set when the piece
    // before it has been parsed, so every piece is parsed at the size it was produced at.
    const resizeTo = (step: RepaintStep) => {
      if (step.cols > 0 && (step.cols !== term.cols || step.rows !== term.rows)) term.resize(step.cols, step.rows);
    };
    entry.replaying = true;
    term.write('', () => resizeTo(steps[0]));
    steps.forEach((step, i) => {
      const next = steps[i + 1];
      term.write(step.text, next ? () => resizeTo(next) : undefined);
    });
    // Back to the view's size once the replay is parsed; the PTY follows.
    term.write('', () => {
      entry.replaying = false;
      entry.replayingAnswers = false;
      if (term.cols !== viewCols || term.rows !== viewRows) term.resize(viewCols, viewRows);
      this.fit(entry.sessionId);
      this.#sendSize(entry);
    });
  }

  #dropWebgl(entry: PooledTerminal): void {
    const webgl = entry.webgl;
    entry.webgl = null;
    this.#contexts.give(entry.sessionId);
    if (webgl && this.#contexts.used === 0) this.#atlas.reset(); // the last owner frees the atlas
    // `dispose()` detaches the renderer's canvas but leaves its WebGL2 context alive until it
    // is collected, and a live context keeps the canvas, the renderer and its atlas reachable
    // (xterm.js#6068): lose it explicitly, after `dispose()` so nobody asks to restore it.
    const contexts = webgl ? webglContexts(entry.wrapper) : [];
    try {
      webgl?.dispose();
    } catch {
      // already gone with its context
    }
    for (const gl of contexts) gl.getExtension('WEBGL_lose_context')?.loseContext();
  }

  #dispose(entry: PooledTerminal): void {
    const { sessionId } = entry;
    this.#pool.delete(sessionId);
    this.#portals.delete(sessionId);
    this.#acks.forget(sessionId); // detaching settles this view's share of the flow control
    this.#feed.forget(sessionId);
    // A task being typed finishes (and is acknowledged) before the window lets the session go.
    const typing = entry.portal?.dispose() ?? Promise.resolve();
    void typing.then(() => {
      // This window stops receiving the session's output (and no longer holds its flow control),
      // unless a new view took the session back meanwhile.
      if (!this.#pool.has(sessionId)) void this.#gateway.terminals.detach(sessionId).catch(() => {});
    });
    for (const d of entry.disposables) d.dispose();
    this.#dropWebgl(entry);
    entry.term.dispose();
    entry.wrapper.remove();
  }
}
