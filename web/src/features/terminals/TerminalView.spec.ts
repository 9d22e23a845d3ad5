import { render, screen, waitFor } from '@testing-library/svelte';
import { beforeEach, describe, expect, it } from 'vitest';
import { Terminal } from '@xterm/xterm';
import { harness, settle } from '../../test/harness';
import TerminalView from './TerminalView.svelte';

type FakeTerminal = Terminal & {
  written: string[];
  resizes: [number, number][];
  parsed: { text: string; cols: number; rows: number }[];
  emitData(data: string): void;
};
const fakes = Terminal as unknown as { instances: FakeTerminal[]; asyncWrites: boolean };
const instances = () => fakes.instances;

function spawned(h: ReturnType<typeof harness>, scrollback = '$ ') {
  return h.gateway.seedSession({ sessionId: 's1', root: '/p', scrollback });
}

describe('TerminalView', () => {
  beforeEach(() => {
    instances().length = 0;
  });

  it('attaches on mount and repaints the scrollback', async () => {
    const h = harness();
    const id = spawned(h, 'hello from before\r\n$ ');
    render(TerminalView, { props: { sessionId: id }, context: h.context });

    expect(screen.getByTestId('terminal').dataset.sessionId).toBe('s1');
    await waitFor(() => expect(h.gateway.callsOf('terminals.attach')).toEqual([['s1']]));
    await settle();
    expect(instances()[0].written.join('')).toContain('hello from before');
    expect(h.terminals.textOf('s1')).toBe('hello from before\n$');
  });

  it('sends keystrokes with a per-session sequence number from 0', async () => {
    const h = harness();
    render(TerminalView, { props: { sessionId: spawned(h) }, context: h.context });
    await settle();

    const term = instances()[0];
    term.emitData('l');
    term.emitData('s');
    term.emitData('\r');
    await settle();

    expect(h.gateway.callsOf('terminals.write')).toEqual([
      ['s1', 0, 'l'],
      ['s1', 1, 's'],
      ['s1', 2, '\r'],
    ]);
  });

  it('writes pushed output and acknowledges what was consumed in one batched call', async () => {
    const h = harness();
    render(TerminalView, { props: { sessionId: spawned(h) }, context: h.context });
    await settle();

    h.gateway.push({ output: { s1: 'x'.repeat(3000) } });
    h.gateway.push({ output: { s1: 'y'.repeat(2500) } });
    h.gateway.push({ output: { s1: 'done' } });
    await settle();

    expect(instances()[0].written.join('')).toContain('done');
    await new Promise((resolve) => setTimeout(resolve, 40)); // the batched ack's tick
    expect(h.gateway.callsOf('terminals.ackMany')).toEqual([[{ s1: 5504 }]]);
  });

  it('keeps writing (and acking) output while the terminal is hidden', async () => {
    const h = harness();
    render(TerminalView, { props: { sessionId: spawned(h), visible: false }, context: h.context });
    await settle();
    h.terminals.setVisible('s1', false);

    h.gateway.push({ output: { s1: 'z'.repeat(6000) } });
    h.gateway.push({ output: { s1: 'while-hidden' } });
    await settle();

    expect(instances()[0].written.join('')).toContain('while-hidden');
    await new Promise((resolve) => setTimeout(resolve, 40)); // the batched ack's tick
    expect(h.gateway.callsOf('terminals.ackMany')).toEqual([[{ s1: 6012 }]]);
  });

  it('acks output of sessions nobody shows, so the backend keeps reading', async () => {
    const h = harness();
    h.gateway.push({ output: { elsewhere: 'abc' } });
    await settle();
    await new Promise((resolve) => setTimeout(resolve, 40)); // the batched ack's tick
    expect(h.gateway.callsOf('terminals.ackMany')).toEqual([[{ elsewhere: 3 }]]);
  });

  it('prints the exit code when the session exits', async () => {
    const h = harness();
    render(TerminalView, { props: { sessionId: spawned(h) }, context: h.context });
    await settle();

    h.gateway.push({ events: [{ type: 'sessionExited', root: '/p', sessionId: 's1', exitCode: 3 }] });
    await settle();

    expect(h.terminals.textOf('s1').split('[process exited with code 3]')).toHaveLength(2);
    expect(h.terminals.statusOf('s1')?.alive).toBe(false);
  });

  it('says a session ended before its view attached ended, once, after its scrollback', async () => {
    // CI finding: a CLI quitting at once ended before the cell's view existed; the view showed
    // its last words and no exit line.
    const h = harness();
    h.gateway.seedSession({ sessionId: 's1', root: '/p', alive: false, exitCode: 3, scrollback: 'about to die\r\n' });
    h.gateway.push({ events: [{ type: 'sessionExited', root: '/p', sessionId: 's1', exitCode: 3 }] });
    await settle();
    render(TerminalView, { props: { sessionId: 's1' }, context: h.context });
    await settle();

    const text = h.terminals.textOf('s1');
    expect(text).toMatch(/about to die[\s\S]*\[process exited with code 3\]/);
    expect(text.split('[process exited').length - 1).toBe(1);
  });

  it('detaches the session once no view of this window shows it', async () => {
    const h = harness();
    const view = render(TerminalView, { props: { sessionId: spawned(h) }, context: h.context });
    await settle();
    expect(h.gateway.callsOf('terminals.detach')).toEqual([]);
    view.unmount();
    await settle();
    expect(h.gateway.callsOf('terminals.detach')).toEqual([['s1']]);
  });

  it('keeps the sequence going when a view of the same session is mounted again', async () => {
    const h = harness();
    const first = render(TerminalView, { props: { sessionId: spawned(h) }, context: h.context });
    await settle();
    instances()[0].emitData('a');
    first.unmount();
    await settle();

    render(TerminalView, { props: { sessionId: 's1' }, context: h.context });
    await settle();
    instances().at(-1)!.emitData('b');
    await settle();

    expect(h.gateway.callsOf('terminals.write').map((c) => c[1])).toEqual([0, 1]);
  });

  it('writes output pushed during attach after the scrollback, without repeating what it holds', async () => {
    const h = harness();
    spawned(h, 'line one\r\nalready in scrollback');
    render(TerminalView, { props: { sessionId: 's1' }, context: h.context });
    // attach is still in flight: these arrive first
    // offsets count UTF-16 units from the session start: 'line one\r\n' is 10 units
    h.gateway.push({ output: { s1: 'already in scrollback' }, offsets: { s1: 10 } });
    h.gateway.push({ output: { s1: ' and new' }, offsets: { s1: 31 } });
    await settle();

    expect(h.terminals.textOf('s1')).toBe('line one\nalready in scrollback and new');
  });

  it("sends xterm.js's answers to the queries of a replayed scrollback nowhere, but answers live ones and keeps the keys typed", async () => {
    // a trial: after vi, each layout switch typed `2RR0;276;0c…` at the shell's prompt
    for (const asyncWrites of [false, true]) {
      fakes.asyncWrites = asyncWrites;
      instances().length = 0;
      try {
        const h = harness();
        render(TerminalView, { props: { sessionId: spawned(h, 'vi asked \x1b[c\r\n$ ') }, context: h.context });
        await settle();
        await new Promise((resolve) => setTimeout(resolve, 10));
        expect(h.gateway.callsOf('terminals.write')).toEqual([]);

        instances()[0].emitData('\x1b[A'); // Up: a key, sent
        h.gateway.push({ output: { s1: 'asks now \x1b[c' }, offsets: { s1: 20 } });
        await settle();
        await new Promise((resolve) => setTimeout(resolve, 10));
        expect(h.gateway.callsOf('terminals.write').map((c) => c[2])).toEqual(['\x1b[A', '\x1b[?1;2c']);
      } finally {
        fakes.asyncWrites = false;
      }
    }
  });
});

describe('TerminalView resize discipline', () => {
  beforeEach(() => {
    instances().length = 0;
  });

  it('sends no resize before attach said alive, then the current size once', async () => {
    const h = harness();
    render(TerminalView, { props: { sessionId: spawned(h) }, context: h.context });
    // attach is still in flight: the view fits itself to its cell
    instances()[0].resize(100, 30);
    expect(h.gateway.callsOf('terminals.resize')).toEqual([]);

    await settle();
    expect(h.gateway.callsOf('terminals.attach')).toEqual([['s1']]);
    expect(h.gateway.callsOf('terminals.resize')).toEqual([['s1', 100, 30]]);

    instances()[0].resize(120, 40);
    await settle();
    expect(h.gateway.callsOf('terminals.resize')).toEqual([['s1', 100, 30], ['s1', 120, 40]]);
  });

  it('never resizes a session attach found ended', async () => {
    const h = harness();
    h.gateway.seedSession({ sessionId: 's1', root: '/p', alive: false, exitCode: 0, scrollback: 'bye\r\n' });
    render(TerminalView, { props: { sessionId: 's1' }, context: h.context });
    instances()[0].resize(100, 30);
    await settle();
    instances()[0].resize(90, 20);
    await settle();

    expect(h.terminals.statusOf('s1')).toMatchObject({ attached: true, alive: false, exitCode: 0 });
    expect(h.gateway.callsOf('terminals.resize')).toEqual([]);
  });

  it('stops resizing once the session exited', async () => {
    const h = harness();
    render(TerminalView, { props: { sessionId: spawned(h) }, context: h.context });
    await settle();
    const sent = h.gateway.callsOf('terminals.resize').length;

    h.gateway.push({ events: [{ type: 'sessionExited', root: '/p', sessionId: 's1', exitCode: 0 }] });
    instances()[0].resize(100, 30);
    await settle();

    expect(h.terminals.statusOf('s1')?.alive).toBe(false);
    expect(h.gateway.callsOf('terminals.resize')).toHaveLength(sent);
  });

  it('marks the session ended quietly when a resize answers NOT_FOUND', async () => {
    const h = harness();
    render(TerminalView, { props: { sessionId: spawned(h, 'hello\r\n') }, context: h.context });
    await settle();
    h.gateway.backend.sessions.delete('s1'); // the backend lost the PTY, and said nothing

    instances()[0].resize(100, 30);
    await settle();
    expect(h.terminals.statusOf('s1')).toMatchObject({ attached: true, alive: false });
    expect(h.terminals.statusOf('s1')?.error).toBeUndefined();
    expect(h.workspace.notices).toEqual([]);
    expect(h.terminals.textOf('s1')).toBe('hello');

    instances()[0].resize(110, 35);
    await settle();
    expect(h.gateway.callsOf('terminals.resize')).toEqual([['s1', 80, 24], ['s1', 100, 30]]);
  });
});

describe('TerminalHub and released sessions', () => {
  beforeEach(() => {
    instances().length = 0;
  });

  it('forgets a released session: no status, and its keystroke counter starts over', async () => {
    const h = harness();
    const view = render(TerminalView, { props: { sessionId: spawned(h) }, context: h.context });
    await settle();
    instances()[0].emitData('a');
    instances()[0].emitData('b');
    view.unmount();
    await settle();
    expect(h.terminals.statusOf('s1')).toBeDefined();

    h.gateway.push({ events: [{ type: 'sessionReleased', root: '/p', sessionId: 's1' }] });
    expect(h.terminals.statusOf('s1')).toBeUndefined();

    // the same id shown again (a stale cell): nothing of the old session is reused
    render(TerminalView, { props: { sessionId: 's1' }, context: h.context });
    await settle();
    instances().at(-1)!.emitData('c');
    await settle();
    expect(h.gateway.callsOf('terminals.write').map((c) => c[1])).toEqual([0, 1, 0]);
  });

  it('does not record the exit of a session no view of this window showed', async () => {
    const h = harness();
    h.gateway.push({ events: [{ type: 'sessionExited', root: '/p', sessionId: 'elsewhere', exitCode: 1 }] });
    await settle();
    expect(h.terminals.statusOf('elsewhere')).toBeUndefined();
  });
});

describe('TerminalView repaint at the PTY sizes', () => {
  beforeEach(() => {
    instances().length = 0;
  });

  /** A view of session s1 whose scrollback was produced at `sizes`; its fake terminal. */
  async function viewOf(scrollback: string, sizes: { at: number; cols: number; rows: number }[]) {
    const h = harness();
    const id = h.gateway.seedSession({ sessionId: 's1', root: '/p', scrollback });
    h.gateway.backend.sessions.get(id)!.sizes = sizes;
    render(TerminalView, { props: { sessionId: id }, context: h.context });
    await settle();
    return { h, term: instances()[0] };
  }

  it('replays each piece of the scrollback at its size, then returns to the view size (the PTY told once)', async () => {
    const { h, term } = await viewOf('wide part|narrow part', [
      { at: 0, cols: 120, rows: 40 },
      { at: 10, cols: 60, rows: 20 },
    ]);
    expect(term.written.filter((w) => w !== '').slice(0, 2)).toEqual(['wide part|', 'narrow part']);
    expect(term.resizes).toEqual([
      [120, 40],
      [60, 20],
      [80, 24],
    ]);
    // Only the view's size reaches the PTY, never a replay size.
    expect(h.gateway.callsOf('terminals.resize')).toEqual([['s1', 80, 24]]);
  });

  it('parses each piece at its size though xterm.js parses writes later (a resize is at once)', async () => {
    fakes.asyncWrites = true;
    try {
      const { term } = await viewOf('narrow part|wide part', [
        { at: 0, cols: 40, rows: 10 },
        { at: 12, cols: 140, rows: 40 },
      ]);
      await new Promise((resolve) => setTimeout(resolve, 10));
      const pieces = term.parsed.filter((p) => p.text !== '').map((p) => [p.text, p.cols, p.rows]);
      expect(pieces.slice(0, 2)).toEqual([
        ['narrow part|', 40, 10],
        ['wide part', 140, 40],
      ]);
      expect([term.cols, term.rows]).toEqual([80, 24]); // then the view's size
    } finally {
      fakes.asyncWrites = false;
    }
  });
});
