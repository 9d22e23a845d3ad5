import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST_MS, Toasts } from './toasts.svelte';

describe('Toasts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const finished = (count: number) => ({ message: `Beta finished ${count}`, tone: 'info' as const, root: '/p', agentId: 'a2' });

  it('counts the events of one key in one toast while it shows, each giving it its full time again', () => {
    const toasts = new Toasts();
    const first = toasts.bump('finished:/p:a2', finished);
    vi.advanceTimersByTime(TOAST_MS - 1000);
    toasts.bump('finished:/p:a2', finished);
    toasts.bump('finished:/p:a2', finished);
    expect(toasts.list).toHaveLength(1);
    expect(toasts.list[0]).toMatchObject({ id: first.id, count: 3, message: 'Beta finished 3' });

    vi.advanceTimersByTime(TOAST_MS - 1);
    expect(toasts.list).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(toasts.list).toEqual([]);

    toasts.bump('finished:/p:a2', finished);
    expect(toasts.list[0]).toMatchObject({ count: 1, message: 'Beta finished 1' });
  });

  it('keeps other keys and unkeyed toasts apart', () => {
    const toasts = new Toasts();
    toasts.bump('finished:/p:a2', finished);
    toasts.bump('finished:/p:a3', finished);
    toasts.show({ message: 'Beta stopped', tone: 'info', root: '/p' });
    toasts.show({ message: 'Beta stopped', tone: 'info', root: '/p' });
    expect(toasts.list.map((t) => t.count)).toEqual([1, 1, 1, 1]);
  });

  it('stays while held (pointer or focus on it) and goes its full time after release', () => {
    const toasts = new Toasts();
    const toast = toasts.show({ message: 'Beta failed', tone: 'error', root: '/p' });
    vi.advanceTimersByTime(TOAST_MS - 10);
    toasts.hold(toast.id);
    vi.advanceTimersByTime(TOAST_MS * 3);
    expect(toasts.list).toHaveLength(1);
    toasts.release(toast.id);
    vi.advanceTimersByTime(TOAST_MS - 1);
    expect(toasts.list).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(toasts.list).toEqual([]);
    toasts.release(toast.id); // a late release of a gone toast brings nothing back
    expect(toasts.list).toEqual([]);
  });
});
