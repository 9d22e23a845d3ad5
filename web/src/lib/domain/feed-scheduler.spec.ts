import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FEED_TUNING, FeedScheduler, type FeedClock, type FeedTuning } from './feed-scheduler';

interface Written {
  sessionId: string;
  text: string;
  counted: number;
  /** `done` once parsed, and for a direct write. */
  parsed: (parseMs: number) => void;
  direct: boolean;
}

/** A page whose tasks, frames and terminals the test runs by hand. */
function page(tuning: Partial<FeedTuning> = {}) {
  let now = 0;
  const tasks: (() => void)[] = [];
  const frames: (() => void)[] = [];
  /** The longest wait for a frame each `afterFrame` was given (ms). */
  const frameWaits: number[] = [];
  const written: Written[] = [];
  const clock: FeedClock = {
    now: () => now,
    defer: (run) => tasks.push(run),
    afterFrame: (run, maxWaitMs) => {
      frames.push(run);
      frameWaits.push(maxWaitMs);
    },
  };
  // Writes of up to 10 characters go direct here (4096 in the page), so small test floods queue.
  const feed = new FeedScheduler((sessionId, text, counted, parsed) => written.push({ sessionId, text, counted, parsed: parsed ?? done, direct: !parsed }), clock, {
    directChars: 10,
    ...tuning,
    // a test giving the slice gives it whether or not the user works in the window
    unattendedSliceMs: tuning.unattendedSliceMs ?? tuning.sliceMs ?? FEED_TUNING.unattendedSliceMs,
  });
  return {
    feed,
    written,
    tasks,
    frames,
    frameWaits,
    advance: (ms: number) => (now += ms),
    runTasks: () => {
      while (tasks.length > 0) tasks.shift()!();
    },
    frame: () => frames.splice(0).forEach((run) => run()),
    /** Parses the oldest chunk handed over and not parsed yet, taking `ms`. */
    parseNext: (ms = 1) => {
      const next = written.find((w) => w.parsed !== done);
      if (!next) return undefined;
      now += ms;
      const parsed = next.parsed;
      next.parsed = done;
      parsed(ms);
      return next;
    },
  };
}
const done = () => {};

const big = (n: number, c = 'a') => c.repeat(n);

describe('FeedScheduler', () => {
  it('writes a small write to an idle session at once, in the same task', () => {
    const p = page();
    p.feed.feed('s1', 'x');
    expect(p.written.map((w) => w.text)).toEqual(['x']);
    expect(p.written[0].counted).toBe(1);
    expect(p.written[0].direct).toBe(true); // not measured: xterm.js parses it at once
  });

  it('queues the small writes of a session that wrote a lot lately', () => {
    const p = page({ directChars: 100, directWindowMs: 100, sliceMs: 1e9 });
    p.feed.feed('s1', big(60));
    p.feed.feed('s1', big(60)); // 120 in the window: queued
    expect(p.written.map((w) => w.text.length)).toEqual([60]);
    p.runTasks();
    expect(p.written.map((w) => w.text.length)).toEqual([60, 60]);
    p.parseNext();
    p.advance(100);
    p.feed.feed('s1', 'x'); // a new window: quiet again
    expect(p.written.at(-1)!.text).toBe('x');
  });

  it('queues a flood and hands it over one chunk at a time, in tasks of their own', () => {
    const p = page({ firstChunkChars: 1000, minChunkChars: 100, sliceMs: 1e9 });
    p.feed.feed('s1', big(2500));
    expect(p.written).toHaveLength(0); // not inside the push's task
    p.runTasks();
    expect(p.written.map((w) => w.text.length)).toEqual([1000]);
    p.parseNext();
    expect(p.written).toHaveLength(1); // the next chunk waits for a task of its own
    p.runTasks();
    p.parseNext();
    p.runTasks();
    expect(p.written.map((w) => w.text.length)).toEqual([1000, 1000, 500]);
    expect(p.feed.queuedOf('s1')).toBe(0);
  });

  it('lets a quiet session echo at once while floods are queued', () => {
    const p = page({ firstChunkChars: 1000, minChunkChars: 100, sliceMs: 1e9 });
    for (let i = 0; i < 16; i++) p.feed.feed(`flood${i}`, big(100_000));
    p.runTasks();
    p.feed.feed('quiet', 'x');
    expect(p.written.at(-1)).toMatchObject({ sessionId: 'quiet', text: 'x' });
    expect(p.written.filter((w) => w.sessionId !== 'quiet')).toHaveLength(1); // maxOutstanding 1
  });

  it('serves sessions in turns', () => {
    const p = page({ firstChunkChars: 1000, minChunkChars: 1000, maxChunkChars: 1000, sliceMs: 1e9 });
    for (const id of ['a', 'b', 'c']) p.feed.feed(id, big(3000));
    for (let i = 0; i < 6; i++) {
      p.runTasks();
      p.parseNext(0);
    }
    expect(p.written.map((w) => w.sessionId)).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
  });

  it('serves a session typed in first, for a while', () => {
    const p = page({ firstChunkChars: 1000, minChunkChars: 1000, maxChunkChars: 1000, sliceMs: 1e9, urgentMs: 100 });
    for (const id of ['a', 'b', 'c']) p.feed.feed(id, big(5000));
    p.feed.typed('c');
    const order = () => {
      p.runTasks();
      return p.parseNext(10)!.sessionId;
    };
    expect([order(), order(), order()]).toEqual(['c', 'c', 'c']);
    p.advance(100); // no longer urgent: turns again
    expect([order(), order(), order()]).toEqual(['a', 'b', 'c']);
  });

  it('sizes chunks from the measured parse rate, within bounds', () => {
    const p = page({ taskMs: 10, firstChunkChars: 1000, minChunkChars: 500, maxChunkChars: 50_000, sliceMs: 1e9 });
    expect(p.feed.chunkChars).toBe(1000);
    p.feed.feed('s1', big(1_000_000));
    p.runTasks();
    p.parseNext(4); // 1000 chars in 4 ms: 250 per ms
    expect(p.feed.rate).toBe(250);
    expect(p.feed.chunkChars).toBe(2500);
    p.runTasks();
    expect(p.written.at(-1)!.text.length).toBe(2500);
    p.parseNext(2); // 1250 per ms
    expect(p.feed.chunkChars).toBe(Math.round(10 * (250 + 0.3 * (1250 - 250))));
    for (let i = 0; i < 20; i++) {
      p.runTasks();
      p.parseNext(2); // fast: bounded above
    }
    expect(p.feed.chunkChars).toBe(50_000);
  });

  it('parses a lone flood in shorter chunks while the human types in another session', () => {
    const p = page({ taskMs: 10, typingTaskMs: 2, firstChunkChars: 1000, minChunkChars: 100, maxChunkChars: 50_000, sliceMs: 1e9, urgentMs: 100 });
    p.feed.feed('flood', big(1_000_000));
    p.runTasks();
    p.parseNext(4); // 250 characters per ms
    p.feed.typed('quiet');
    p.runTasks();
    expect(p.written.at(-1)!.text.length).toBe(500); // 2 ms of parsing
    p.parseNext(2);
    p.feed.typed('flood'); // the human moved to the flood (Ctrl+C): its own backlog at full speed
    p.runTasks();
    expect(p.written.at(-1)!.text.length).toBe(2500);
    p.parseNext(10);
    p.feed.typed('quiet');
    expect(p.feed.chunkCharsOf('flood')).toBe(500);
    p.advance(101); // typing stopped
    expect(p.feed.chunkCharsOf('flood')).toBe(2500);
  });

  it('keeps full chunks while several floods wait their turn, even while the human types', () => {
    const p = page({ taskMs: 10, typingTaskMs: 2, firstChunkChars: 1000, minChunkChars: 100, maxChunkChars: 50_000, sliceMs: 1e9 });
    p.feed.feed('a', big(100_000));
    p.feed.feed('b', big(100_000));
    p.feed.typed('quiet');
    p.runTasks();
    expect(p.written.at(-1)!.text.length).toBe(1000); // short chunks would redraw both terminals per frame
  });

  it('waits for a frame once a slice of parsing is spent, then goes on', () => {
    const p = page({ firstChunkChars: 1000, minChunkChars: 1000, maxChunkChars: 1000, sliceMs: 12 });
    p.feed.feed('s1', big(10_000));
    p.runTasks();
    p.parseNext(8);
    p.runTasks();
    p.parseNext(8); // 16 ms into the slice
    p.runTasks();
    expect(p.written).toHaveLength(2);
    expect(p.frames).toHaveLength(1);
    p.frame();
    expect(p.written).toHaveLength(3);
  });

  it('waits for the frame only while the user works in the window', () => {
    const p = page({ firstChunkChars: 1000, minChunkChars: 1000, maxChunkChars: 1000, sliceMs: 12, frameWaitMs: 100, unattendedFrameWaitMs: 0, urgentMs: 1000 });
    const spendSlice = () => {
      p.runTasks();
      p.parseNext(13);
      p.runTasks();
      p.frame();
    };
    p.feed.feed('s1', big(10_000));
    spendSlice(); // nobody touched the window: a frame, if one is due, but no wait for it
    p.feed.interacted(); // a click
    spendSlice();
    p.feed.typed('s2'); // a key in another terminal
    spendSlice();
    p.advance(1000); // a second without input
    spendSlice();
    expect(p.frameWaits).toEqual([0, 100, 100, 0]);
    expect(p.feed.frameWaitAt()).toBe(0);
  });

  it('takes the unattended slice while nobody works in the window', () => {
    const p = page({ firstChunkChars: 1000, minChunkChars: 1000, maxChunkChars: 1000, sliceMs: 12, unattendedSliceMs: 30, urgentMs: 1000 });
    p.feed.feed('s1', big(10_000));
    p.runTasks();
    p.parseNext(13); // past the attended slice, within the unattended one: no frame yet
    p.runTasks();
    expect(p.frames).toHaveLength(0);
    expect(p.written).toHaveLength(2);
    p.feed.interacted();
    p.parseNext(13);
    p.runTasks();
    expect(p.frames).toHaveLength(1); // working in the window: the short slice again
    expect(p.feed.sliceAt()).toBe(12);
    p.advance(1000);
    expect(p.feed.sliceAt()).toBe(30);
  });

  it('starts a fresh slice after going idle', () => {
    const p = page({ firstChunkChars: 1000, minChunkChars: 1000, maxChunkChars: 1000, sliceMs: 12 });
    p.feed.feed('s1', big(1000));
    p.runTasks();
    p.parseNext(11);
    p.advance(1000);
    p.feed.feed('s1', big(5000));
    p.runTasks();
    expect(p.written).toHaveLength(2);
    expect(p.frames).toHaveLength(0);
  });

  it('keeps a small write behind what its session has queued', () => {
    const p = page({ firstChunkChars: 1000, minChunkChars: 1000, maxChunkChars: 1000, sliceMs: 1e9 });
    p.feed.feed('s1', big(1500, 'a'));
    p.feed.feed('s1', 'b');
    p.runTasks();
    p.parseNext();
    p.runTasks();
    expect(p.written.map((w) => w.text)).toEqual([big(1000, 'a'), big(500, 'a') + 'b']);
  });

  it('acknowledges only what is counted', () => {
    const p = page({ firstChunkChars: 1000, minChunkChars: 1000, sliceMs: 1e9 });
    p.feed.feed('s1', big(900));
    p.feed.feed('s1', big(4000)); // now queued
    p.feed.feed('s1', '[exited]', false);
    for (let i = 0; i < 10; i++) {
      p.runTasks();
      p.parseNext();
    }
    expect(p.written.map((w) => w.text).join('')).toBe(big(4900) + '[exited]');
    expect(p.written.reduce((sum, w) => sum + w.counted, 0)).toBe(4900);
  });

  it('never splits a surrogate pair between chunks', () => {
    const p = page({ firstChunkChars: 3, minChunkChars: 3, maxChunkChars: 3, directChars: 0, sliceMs: 1e9 });
    p.feed.feed('s1', 'ab😀cd😀😀');
    for (let i = 0; i < 10; i++) {
      p.runTasks();
      p.parseNext();
    }
    const texts = p.written.map((w) => w.text);
    expect(texts.join('')).toBe('ab😀cd😀😀');
    for (const t of texts) expect(/[\ud800-\udbff]$/.test(t)).toBe(false);
  });

  it('drops a forgotten session and ignores its late parse', () => {
    const p = page({ firstChunkChars: 1000, minChunkChars: 1000, maxChunkChars: 1000, sliceMs: 1e9 });
    p.feed.feed('gone', big(5000));
    p.feed.feed('kept', big(2000));
    p.runTasks();
    const late = p.written[0];
    p.feed.forget('gone');
    p.runTasks();
    expect(p.written.at(-1)!.sessionId).toBe('kept'); // its slot was freed at once
    late.parsed(1);
    p.runTasks();
    expect(p.feed.outstanding).toBe(1);
    expect(p.written.filter((w) => w.sessionId === 'gone')).toHaveLength(1);
  });

  it('hands every session its text exactly once, in order, whatever the interleaving', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('feed' as const), session: fc.integer({ min: 0, max: 3 }), length: fc.integer({ min: 1, max: 6000 }) }),
      fc.record({ kind: fc.constant('task' as const) }),
      fc.record({ kind: fc.constant('parse' as const), ms: fc.integer({ min: 0, max: 30 }) }),
      fc.record({ kind: fc.constant('frame' as const) }),
      fc.record({ kind: fc.constant('type' as const), session: fc.integer({ min: 0, max: 3 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), fc.integer({ min: 1, max: 3 }), (ops, maxOutstanding) => {
        const p = page({ firstChunkChars: 700, minChunkChars: 300, maxChunkChars: 2000, taskMs: 5, sliceMs: 12, maxOutstanding });
        const fed = new Map<string, string>();
        let serial = 0;
        for (const o of ops) {
          if (o.kind === 'feed') {
            const id = `s${o.session}`;
            // distinct characters per write, so a reordering would show
            const text = String.fromCharCode(0x4e00 + (serial++ % 2000)).repeat(o.length);
            fed.set(id, (fed.get(id) ?? '') + text);
            p.feed.feed(id, text);
          } else if (o.kind === 'task') p.runTasks();
          else if (o.kind === 'parse') p.parseNext(o.ms);
          else if (o.kind === 'frame') p.frame();
          else p.feed.typed(`s${o.session}`);
          expect(p.feed.outstanding).toBeLessThanOrEqual(maxOutstanding);
        }
        for (let i = 0; i < 10_000 && (p.tasks.length || p.frames.length || p.written.some((w) => w.parsed !== done)); i++) {
          p.runTasks();
          p.parseNext(1);
          p.frame();
        }
        for (const [id, text] of fed) {
          const got = p.written.filter((w) => w.sessionId === id);
          expect(got.map((w) => w.text).join('')).toBe(text);
          expect(got.reduce((sum, w) => sum + w.counted, 0)).toBe(text.length);
          expect(p.feed.queuedOf(id)).toBe(0);
        }
      }),
      { numRuns: 200 },
    );
  });
});
