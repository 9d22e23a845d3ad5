import '@xterm/xterm/css/xterm.css';
import './app.css';
import { mount } from 'svelte';
import App from './App.svelte';
import { MockGateway } from './lib/adapters/mock';
import { createPywebviewGateway, installPushReceiver, waitForBridge } from './lib/adapters/pywebview';
import type { Gateway } from './lib/ports';
import { createServices } from './app/services';
import type { TerminalsStats } from './features/terminals/terminal-hub.svelte';
import type { FeedScheduler } from './lib/domain/feed-scheduler';

declare global {
  interface Window {
    __ideaTerminalText?: (sessionId: string) => string;
    /** The terminal's viewport row and bottom row (e2e tests of scrolling). */
    __ideaTerminalView?: (sessionId: string) => { viewportY: number; baseY: number } | null;
    __ideaTerminalTail?: (sessionId: string, lines: number) => string;
    __ideaTerminalStats?: () => TerminalsStats;
    /** The feed of output to the terminals (benchmarks read and tune it, ADR 020). */
    __ideaFeed?: FeedScheduler;
    /** Set once start-up (including `--project` roots) is done; e2e tests wait for it. */
    __ideaReady?: boolean;
  }
}

/** How long a page served over http waits for pywebview before falling back to the mock. */
const DEV_BRIDGE_WAIT_MS = 2500;

// Composition root. `__ideaPush` goes in first so no batch pushed during start-up is lost.
const hub = installPushReceiver();

async function chooseGateway(): Promise<Gateway> {
  const forceMock = new URLSearchParams(location.search).has('mock');
  if (!forceMock && (location.protocol === 'file:' || window.pywebview)) {
    return createPywebviewGateway(hub);
  }
  if (!forceMock) {
    const found = await Promise.race([
      waitForBridge().then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), DEV_BRIDGE_WAIT_MS)),
    ]);
    if (found) return createPywebviewGateway(hub);
  }
  console.info('IdeA: no pywebview bridge, using the in-memory mock backend');
  // The demo's agents "answer" a delegated task a few seconds after it was typed.
  return new MockGateway({ firstRun: true, echo: true, pickedFolder: '/home/me/demo', autoReplyMs: 4000 });
}

async function boot(): Promise<void> {
  const gateway = await chooseGateway();
  const services = createServices(gateway);
  window.__ideaTerminalText = (sessionId) => services.terminals.textOf(sessionId);
  window.__ideaTerminalView = (sessionId) => services.terminals.viewOf(sessionId);
  window.__ideaTerminalTail = (sessionId, lines) => services.terminals.tailOf(sessionId, lines);
  window.__ideaTerminalStats = () => services.terminals.stats();
  window.__ideaFeed = services.terminals.feed;
  // The feed waits for frames while the user works in the window (FeedTuning.frameWaitMs).
  for (const type of ['keydown', 'pointerdown', 'wheel'] as const) {
    window.addEventListener(type, () => services.terminals.feed.interacted(), { capture: true, passive: true });
  }
  mount(App, { target: document.getElementById('app')!, props: { services } });
  // Preferences first: the terminals the start-up reopens use the saved font and scrollback.
  await services.workbench.load();
  await services.workspace.start();
  window.__ideaReady = true;
}

void boot();
