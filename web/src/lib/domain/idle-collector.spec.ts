import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleCollector, exposedGc } from './idle-collector';

describe('IdleCollector', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('collects once the output went quiet after enough of it, never during the flood', () => {
    const collect = vi.fn();
    const idle = new IdleCollector(collect, 1000, 3000);
    idle.wrote(600);
    vi.advanceTimersByTime(10_000);
    expect(collect).not.toHaveBeenCalled(); // not enough output yet
    for (let i = 0; i < 20; i++) {
      idle.wrote(600);
      vi.advanceTimersByTime(2000); // a push every 2 s: never 3 s of quiet
    }
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(3000);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(idle.collections).toBe(1);
  });

  it('counts again from zero after a collection', () => {
    const collect = vi.fn();
    const idle = new IdleCollector(collect, 1000, 100);
    idle.wrote(1000);
    vi.advanceTimersByTime(100);
    idle.wrote(999);
    vi.advanceTimersByTime(1000);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it('a failing collection is swallowed; without an exposed gc() nothing happens', () => {
    const idle = new IdleCollector(() => {
      throw new Error('no');
    }, 1, 1);
    idle.wrote(5);
    expect(() => vi.advanceTimersByTime(1)).not.toThrow();
    expect(() => exposedGc()()).not.toThrow();
  });
});
