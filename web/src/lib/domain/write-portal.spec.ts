import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OVERLAY_FLOOR_MS, SETTLE_MS, WritePortal, oneLine, planInjection, type Delivery, type PortalHost } from './write-portal';

const task = (ticket = 't1', extra: Partial<Delivery> = {}): Delivery => ({
  root: '/p',
  agentId: 'a2',
  sessionId: 's1',
  ticket,
  text: `[IdeA · task from Alpha · ticket ${ticket}] review`,
  ...extra,
});

/** A portal over a recording host; `sent` is every PTY write, human and portal, in order. */
function portal(options: { ready?: boolean; failWrites?: boolean } = {}) {
  const sent: string[] = [];
  const acks: string[] = [];
  let ready = options.ready ?? true;
  const host: PortalHost = {
    write: (data) => {
      sent.push(data);
      return options.failWrites ? Promise.reject(new Error('gone')) : Promise.resolve();
    },
    delivered: (d) => acks.push(d.ticket),
    ready: () => ready,
    changed: vi.fn(),
  };
  const p = new WritePortal(host);
  /** A human keystroke, relayed as the cell would. */
  const type = (data: string) => {
    if (p.keystroke(data)) sent.push(data);
  };
  return { p, sent, acks, host, type, setReady: (value: boolean) => (ready = value) };
}

describe('planInjection', () => {
  it('erases K stray characters with K DELs, then writes the text without a newline', () => {
    const plan = planInjection(task('t1', { text: 'line one\nline two\r\n' }), 2);
    expect(plan.writes).toEqual(['\x7f', '\x7f', 'line one line two ']);
    expect(plan.writes.join('')).not.toMatch(/[\r\n]/);
  });

  it('defaults to \\r after 60 ms, and takes the profile’s sequence and delay', () => {
    expect(planInjection(task(), 0)).toMatchObject({ writes: [task().text], submit: '\r', submitDelayMs: 60, floorMs: 2000 });
    expect(planInjection(task('t1', { submitSequence: '\x1b\r', submitDelayMs: 150 }), 0)).toMatchObject({
      submit: '\x1b\r',
      submitDelayMs: 150,
    });
  });

  it('turns every newline form into a space', () => {
    expect(oneLine('a\r\nb\rc\nd')).toBe('a b c d');
  });
});

describe('WritePortal', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('types an offered task on an empty line: text, then the submit after the delay, then one ack after the 2 s floor', async () => {
    const { p, sent, acks } = portal();
    p.offer(task());
    expect(p.current).toBeNull();

    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(p.current?.ticket).toBe('t1');
    expect(p.relayOpen).toBe(false);
    expect(sent).toEqual([task().text]);

    await vi.advanceTimersByTimeAsync(59);
    expect(sent).toEqual([task().text]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([task().text, '\r']);

    // the writes are done, but the overlay holds until 2 s after the cut
    await vi.advanceTimersByTimeAsync(OVERLAY_FLOOR_MS - 61);
    expect(p.current?.ticket).toBe('t1');
    expect(acks).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(p.current).toBeNull();
    expect(p.relayOpen).toBe(true);
    expect(acks).toEqual(['t1']);

    await vi.advanceTimersByTimeAsync(10_000);
    expect(acks).toEqual(['t1']);
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

  it('erases the K = 2 characters typed between "line empty" and the cut with two DELs before the text', async () => {
    const { p, sent, type } = portal();
    p.offer(task());
    type('o');
    type('k');
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(sent).toEqual(['o', 'k', '\x7f', '\x7f', task().text]);
  });

  it('does not cut in when more was typed meanwhile; waits for the next empty line', async () => {
    const { p, sent, type } = portal();
    p.offer(task());
    type('abc');
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toEqual(['abc']);
    type('\x03');
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(sent).toEqual(['abc', '\x03', task().text]);
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

  it('swallows human keystrokes while it types, and counts none of them', async () => {
    const { p, sent, type } = portal();
    p.offer(task());
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    type('x');
    type('\r');
    await vi.advanceTimersByTimeAsync(OVERLAY_FLOOR_MS);
    expect(sent).toEqual([task().text, '\r']);
    expect(p.line.length).toBe(0);
    type('y');
    expect(sent).toEqual([task().text, '\r', 'y']);
  });

  it('delivers queued tasks one after the other, in order, each with its own floor', async () => {
    const { p, sent, acks } = portal();
    p.offer(task('t1'));
    p.offer(task('t2'));
    await vi.advanceTimersByTimeAsync(SETTLE_MS + OVERLAY_FLOOR_MS);
    expect(acks).toEqual(['t1']);
    await vi.advanceTimersByTimeAsync(SETTLE_MS + OVERLAY_FLOOR_MS);
    expect(acks).toEqual(['t1', 't2']);
    expect(sent).toEqual([task('t1').text, '\r', task('t2').text, '\r']);
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

  it('on dispose drops the queue and finishes the delivery in progress without the floor', async () => {
    const { p, sent, acks } = portal();
    p.offer(task('t1'));
    p.offer(task('t2'));
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    const done = p.dispose();
    await vi.advanceTimersByTimeAsync(60);
    await done;
    expect(sent).toEqual([task('t1').text, '\r']);
    expect(acks).toEqual(['t1']);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(acks).toEqual(['t1']);
    expect(p.offer(task('t3'))).toBe(false);
  });
});
