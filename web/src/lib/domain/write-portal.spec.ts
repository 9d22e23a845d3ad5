import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OVERLAY_MIN_MS, SCREEN_POLL_MS, SETTLE_MS, WritePortal, oneLine, planInjection, type Delivery, type PortalHost } from './write-portal';

const task = (ticket = 't1', extra: Partial<Delivery> = {}): Delivery => ({
  root: '/p',
  agentId: 'a2',
  sessionId: 's1',
  ticket,
  text: `[IdeA · task from Alpha · ticket ${ticket}] review`,
  ...extra,
});

/**
 * A portal over a recording host; `sent` is every PTY write, human and portal, in order, and
 * `tickets` the ticket each carried ('' for none).
 */
function portal(options: { ready?: boolean; failWrites?: boolean } = {}) {
  const sent: string[] = [];
  const tickets: string[] = [];
  const acks: string[] = [];
  const lines: boolean[] = [];
  let ready = options.ready ?? true;
  const record = (data: string, ticket?: string) => {
    sent.push(data);
    tickets.push(ticket ?? '');
  };
  const host: PortalHost = {
    write: (data, ticket) => {
      record(data, ticket);
      return options.failWrites ? Promise.reject(new Error('gone')) : Promise.resolve();
    },
    delivered: (d) => acks.push(d.ticket),
    ready: () => ready,
    changed: vi.fn(),
    humanLine: (dirty) => lines.push(dirty),
  };
  const p = new WritePortal(host);
  /** A human keystroke, relayed as the cell would (held ones are written by the portal). */
  const type = (data: string) => {
    if (p.keystroke(data)) record(data);
  };
  return { p, sent, tickets, acks, lines, host, type, setReady: (value: boolean) => (ready = value) };
}

describe('planInjection', () => {
  it('writes the text on one line, never a DEL', () => {
    const plan = planInjection(task('t1', { text: 'line one\nline two\r\n' }));
    expect(plan.text).toBe('line one line two ');
    expect(plan).not.toHaveProperty('writes');
  });

  it('defaults to \\r after 60 ms, and takes the profile’s sequence and delay', () => {
    expect(planInjection(task())).toEqual({ text: task().text, submit: '\r', submitDelayMs: 60 });
    expect(planInjection(task('t1', { submitSequence: '\x1b\r', submitDelayMs: 150 }))).toMatchObject({
      submit: '\x1b\r',
      submitDelayMs: 150,
    });
  });

  it('turns every newline form and tabs into a space, and drops other control characters', () => {
    expect(oneLine('a\r\nb\rc\nd')).toBe('a b c d');
    expect(oneLine('a\tb\x1b[A\x03c\x7f\x9bd')).toBe('a b[Acd');
    expect(oneLine('é 日本 😀')).toBe('é 日本 😀');
  });
});

describe('WritePortal', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('types an offered task on an empty line, text and submit with the ticket, and acknowledges at the submit', async () => {
    const { p, sent, tickets, acks } = portal();
    p.offer(task());
    expect(p.current).toBeNull();

    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(p.current?.ticket).toBe('t1');
    expect(p.relayOpen).toBe(false);
    expect(sent).toEqual([task().text]);

    await vi.advanceTimersByTimeAsync(59);
    expect(sent).toEqual([task().text]);
    expect(acks).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([task().text, '\r']);
    expect(tickets).toEqual(['t1', 't1']);
    // acknowledged and the relay back as soon as the submit is written: no 2 s floor
    expect(acks).toEqual(['t1']);
    expect(p.relayOpen).toBe(true);
    expect(p.current).toBeNull();

    await vi.advanceTimersByTimeAsync(10_000);
    expect(acks).toEqual(['t1']);
  });

  it('types nothing while the screen waits for the human (a sign-in menu), then types it once gone', async () => {
    const { p, sent, host } = portal();
    let screen: string | null = 'Sign in with ChatGPT';
    host.screenShows = (texts) => (texts.includes(screen ?? '') ? screen : null);
    p.offer(task('t1', { waitingScreens: ['Choose how you want to use Codex', 'Sign in with ChatGPT'] }));
    await vi.advanceTimersByTimeAsync(SETTLE_MS + SCREEN_POLL_MS * 4);
    expect(sent).toEqual([]); // the ticket's digits would have picked menu options
    expect(p.waitingScreen).toBe('Sign in with ChatGPT');
    expect(p.queued).toHaveLength(1);
    screen = null; // the human signed in: the CLI is at its prompt
    await vi.advanceTimersByTimeAsync(SCREEN_POLL_MS + SETTLE_MS);
    expect(p.waitingScreen).toBeNull();
    expect(sent).toEqual([task().text]);
  });

  it('does not look at the screen for a delivery without waiting screens', async () => {
    const { p, sent, host } = portal();
    host.screenShows = () => 'anything';
    p.offer(task());
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(sent).toEqual([task().text]);
  });

  it('lets the overlay linger for the eye until OVERLAY_MIN_MS after the cut, holding nothing back', async () => {
    const { p, sent, type } = portal();
    p.offer(task());
    await vi.advanceTimersByTimeAsync(SETTLE_MS + 60);
    expect(p.shown?.ticket).toBe('t1');
    type('y');
    expect(sent.at(-1)).toBe('y');
    await vi.advanceTimersByTimeAsync(OVERLAY_MIN_MS - 61);
    expect(p.shown?.ticket).toBe('t1');
    await vi.advanceTimersByTimeAsync(1);
    expect(p.shown).toBeNull();
  });

  it('hides the overlay at the submit when typing took longer than its minimum', async () => {
    const { p } = portal();
    p.offer(task('t1', { submitDelayMs: OVERLAY_MIN_MS + 200 }));
    await vi.advanceTimersByTimeAsync(SETTLE_MS + OVERLAY_MIN_MS + 100);
    expect(p.shown?.ticket).toBe('t1');
    await vi.advanceTimersByTimeAsync(100);
    expect(p.shown).toBeNull();
  });

  it('writes nothing while the human line is not empty, and types once it empties', async () => {
    const { p, sent, type } = portal();
    type('g');
    type('i');
    type('t');
    p.offer(task());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toEqual(['g', 'i', 't']);
    expect(p.queued).toHaveLength(1);

    type('\r');
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(sent).toEqual(['g', 'i', 't', '\r', task().text]);
  });

  it('also types once the human erased the line', async () => {
    const { p, sent, type } = portal();
    type('ab');
    p.offer(task());
    type('\x7f');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toEqual(['ab', '\x7f']);
    type('\x7f');
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(sent.at(-1)).toBe(task().text);
  });

  it('never erases what was typed during the quiet moment: it waits for the next empty line instead', async () => {
    const { p, sent, type } = portal();
    p.offer(task());
    type('o');
    type('k');
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toEqual(['o', 'k']);
    expect(p.queued).toHaveLength(1);
    type('\x03');
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(sent).toEqual(['o', 'k', '\x03', task().text]);
    expect(sent).not.toContain('\x7f');
  });

  it('waits again when a key lands just before the quiet moment ends', async () => {
    const { p, sent, type } = portal();
    p.offer(task());
    await vi.advanceTimersByTimeAsync(SETTLE_MS - 1);
    type('x');
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toEqual(['x']);
    type('\x7f');
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(sent).toEqual(['x', '\x7f', task().text]);
  });

  it('is not blocked by cursor keys and other escape sequences', async () => {
    const { p, sent, type } = portal();
    type('\x1b[D');
    type('\x1b[C');
    type('\x1bOH');
    p.offer(task());
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(sent.at(-1)).toBe(task().text);
  });

  it('waits after a history recall until Enter, never gluing the task to the recalled command', async () => {
    const { p, sent, type } = portal();
    type('echo hi');
    type('\r');
    type('\x1b[A');
    p.offer(task());
    type('\x7f');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toEqual(['echo hi', '\r', '\x1b[A', '\x7f']);
    type('\r');
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(sent.at(-1)).toBe(task().text);
  });

  it('holds the keys typed while it types, and sends them in order right after the submit, counted', async () => {
    const { p, sent, tickets, type, acks } = portal();
    p.offer(task());
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    type('x');
    expect(p.binary('\x1b[M#!!')).toBe(false);
    type('y');
    expect(sent).toEqual([task().text]);
    await vi.advanceTimersByTimeAsync(60);
    expect(sent).toEqual([task().text, '\r', 'x', '\x1b[M#!!', 'y']);
    expect(tickets).toEqual(['t1', 't1', '', '', '']);
    expect(acks).toEqual(['t1']);
    expect(p.line.length).toBe(2);
    type('z');
    expect(sent.at(-1)).toBe('z');
    expect(p.binary('\x1b[M#!!')).toBe(true);
  });

  it('makes a queued delivery wait for the held keys it sent', async () => {
    const { p, sent, type } = portal();
    p.offer(task('t1'));
    p.offer(task('t2'));
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    type('draft');
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toEqual([task('t1').text, '\r', 'draft']);
    type('\x15');
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(sent.at(-1)).toBe(task('t2').text);
  });

  it('delivers queued tasks one after the other, in order', async () => {
    const { p, sent, acks } = portal();
    p.offer(task('t1'));
    p.offer(task('t2'));
    await vi.advanceTimersByTimeAsync(SETTLE_MS + 60);
    expect(acks).toEqual(['t1']);
    await vi.advanceTimersByTimeAsync(SETTLE_MS + 60);
    expect(acks).toEqual(['t1', 't2']);
    expect(sent).toEqual([task('t1').text, '\r', task('t2').text, '\r']);
    expect(p.shown?.ticket).toBe('t2');
  });

  it('ignores an offer of a ticket it already holds', async () => {
    const { p, acks } = portal();
    expect(p.offer(task('t1'))).toBe(true);
    expect(p.offer(task('t1'))).toBe(false);
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(p.offer(task('t1'))).toBe(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(acks).toEqual(['t1']);
  });

  it('drops a queued delivery the backend ended, never one being typed', async () => {
    const { p, sent, acks, type } = portal();
    type('busy');
    p.offer(task('t1'));
    p.offer(task('t2'));
    expect(p.cancel('t1')).toBe(true);
    expect(p.cancel('t9')).toBe(false);
    expect(p.queued.map((d) => d.ticket)).toEqual(['t2']);
    type('\x15');
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(p.cancel('t2')).toBe(false);
    await vi.advanceTimersByTimeAsync(60);
    expect(sent).toEqual(['busy', '\x15', task('t2').text, '\r']);
    expect(acks).toEqual(['t2']);
  });

  it('takes its line for uncertain when offered a delivery on a line another view left dirty', async () => {
    const { p, sent, type, lines } = portal();
    p.offer(task('t1', { lineDirty: true }));
    expect(p.line.uncertain).toBe(true);
    expect(lines).toEqual([true]);
    type('\x7f');
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toEqual(['\x7f']);
    type('\x15');
    expect(lines).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(sent.at(-1)).toBe(task('t1').text);
  });

  it('keeps what it knows when its own line has text already, and ignores a clean lineDirty', () => {
    const { p, type } = portal();
    p.offer(task('t1', { lineDirty: false }));
    expect(p.line.empty).toBe(true);
    type('ab');
    p.offer(task('t2', { lineDirty: true }));
    expect(p.line.uncertain).toBe(false);
    expect(p.line.length).toBe(2);
  });

  it('reports the human line on its transitions only, never per key', async () => {
    const { p, type, lines } = portal();
    type('a');
    type('b');
    type('c');
    expect(lines).toEqual([true]);
    type('\x7f');
    type('\x7f');
    expect(lines).toEqual([true]);
    type('\x7f');
    expect(lines).toEqual([true, false]);
    type('\x1b[A');
    type('\x1b[B');
    expect(lines).toEqual([true, false, true]);
    type('\r');
    expect(lines).toEqual([true, false, true, false]);

    // a delivery's own writes change nothing; held keys count when they go out
    p.offer(task());
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    type('q');
    expect(lines).toEqual([true, false, true, false]);
    await vi.advanceTimersByTimeAsync(60);
    expect(lines).toEqual([true, false, true, false, true]);
  });

  it('waits until the session is ready', async () => {
    const { p, sent, setReady } = portal({ ready: false });
    p.offer(task());
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toEqual([]);
    setReady(true);
    p.pump();
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(sent).toEqual([task().text]);
  });

  it('does not acknowledge a delivery whose writes failed', async () => {
    const { p, acks } = portal({ failWrites: true });
    p.offer(task());
    await vi.advanceTimersByTimeAsync(10_000);
    expect(p.current).toBeNull();
    expect(acks).toEqual([]);
  });

  it('on dispose drops the queue, and finishes the delivery in progress: its writes, the held keys, the ack', async () => {
    const { p, sent, acks, type } = portal();
    p.offer(task('t1'));
    p.offer(task('t2'));
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    type('k');
    const done = p.dispose();
    await vi.advanceTimersByTimeAsync(60);
    await done;
    expect(sent).toEqual([task('t1').text, '\r', 'k']);
    expect(acks).toEqual(['t1']);
    expect(p.shown).toBeNull();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(acks).toEqual(['t1']);
    expect(p.offer(task('t3'))).toBe(false);
  });
});
