import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTask, pageClock } from './terminal-hub.svelte';

describe('the feed clock of a real page', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('runs deferred work in later tasks, in order', async () => {
    const defer = nextTask();
    const ran: number[] = [];
    defer(() => ran.push(1));
    defer(() => ran.push(2));
    expect(ran).toEqual([]); // not inside the caller's task
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toEqual([1, 2]);
  });

  it('goes on after maxWaitMs when no frame comes (a hidden or minimized window keeps parsing)', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestAnimationFrame', () => 0); // frames never come
    const run = vi.fn();
    pageClock().afterFrame(run, 100);
    vi.advanceTimersByTime(99);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs once after a frame, not again when the fallback timer would have fired', async () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    const run = vi.fn();
    pageClock().afterFrame(run, 100);
    frames.forEach((cb) => cb(0));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(run).toHaveBeenCalledTimes(1);
  });
});
