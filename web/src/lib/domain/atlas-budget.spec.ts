import { describe, expect, it } from 'vitest';
import { ATLAS_BYTES_MAX, ATLAS_CLEAR_BYTES, AtlasBudget } from './atlas-budget';

const page = (size: number) => ({ width: size, height: size });
const MiB = 1024 * 1024;

describe('AtlasBudget', () => {
  it('counts each page once, in RGBA bytes', () => {
    const budget = new AtlasBudget();
    const a = page(512);
    budget.added(a);
    budget.added(a); // the shared atlas reports its pages to every terminal using it
    budget.added(page(1024));
    expect(budget.pages).toBe(2);
    expect(budget.bytes).toBe(1 * MiB + 4 * MiB);
  });

  it('asks for a clear every clearBytes of new pages, whatever the pages already there', () => {
    const budget = new AtlasBudget(2 * MiB, 100 * MiB);
    budget.added(page(512));
    budget.added(page(512));
    expect(budget.needsClear).toBe(false);
    budget.added(page(512)); // 3 MiB added
    expect(budget.needsClear).toBe(true);
    budget.cleared();
    expect(budget.needsClear).toBe(false); // the pages stay (reused), the count restarts
    expect(budget.bytes).toBe(3 * MiB);
    budget.added(page(1024));
    expect(budget.needsClear).toBe(true);
    expect(budget.clears).toBe(1);
  });

  it('asks for a recycle once the pages pass maxBytes, and not after they are removed', () => {
    const budget = new AtlasBudget(100 * MiB, 8 * MiB);
    const big = page(2048); // 16 MiB
    budget.added(page(512));
    expect(budget.needsRecycle).toBe(false);
    budget.added(big);
    expect(budget.needsRecycle).toBe(true);
    budget.removed(big);
    expect(budget.needsRecycle).toBe(false);
  });

  it('forgets every page on reset and counts the recycles', () => {
    const budget = new AtlasBudget();
    budget.added(page(4096));
    budget.reset(true);
    budget.reset();
    expect(budget.pages).toBe(0);
    expect(budget.bytes).toBe(0);
    expect(budget.needsClear || budget.needsRecycle).toBe(false);
    expect(budget.recycles).toBe(1);
  });

  it('defaults: a clear every 8 MiB of pages, a recycle past 32 MiB', () => {
    const budget = new AtlasBudget();
    expect([budget.clearBytes, budget.maxBytes]).toEqual([ATLAS_CLEAR_BYTES, ATLAS_BYTES_MAX]);
    expect([ATLAS_CLEAR_BYTES, ATLAS_BYTES_MAX]).toEqual([8 * MiB, 32 * MiB]);
  });
});
