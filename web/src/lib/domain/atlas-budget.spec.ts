import { describe, expect, it } from 'vitest';
import { ATLAS_BYTES_MAX, AtlasBudget } from './atlas-budget';

const page = (size: number) => ({ width: size, height: size });

describe('AtlasBudget', () => {
  it('counts each page once, in RGBA bytes', () => {
    const budget = new AtlasBudget();
    const a = page(512);
    budget.added(a);
    budget.added(a); // the shared atlas reports its pages to every terminal using it
    budget.added(page(1024));
    expect(budget.pages).toBe(2);
    expect(budget.bytes).toBe(512 * 512 * 4 + 1024 * 1024 * 4);
  });

  it('is over once the pages pass the budget, and not after they are removed', () => {
    const budget = new AtlasBudget(8 * 1024 * 1024);
    const big = page(2048); // 16 MiB
    budget.added(page(512));
    expect(budget.over).toBe(false);
    budget.added(big);
    expect(budget.over).toBe(true);
    budget.removed(big);
    expect(budget.over).toBe(false);
  });

  it('forgets every page on reset and counts the recycles', () => {
    const budget = new AtlasBudget();
    budget.added(page(4096));
    budget.reset(true);
    budget.reset();
    expect(budget.pages).toBe(0);
    expect(budget.bytes).toBe(0);
    expect(budget.recycles).toBe(1);
  });

  it('defaults to 32 MiB: two 2048-pixel pages fit, a 4096-pixel one does not', () => {
    const budget = new AtlasBudget();
    expect(budget.maxBytes).toBe(ATLAS_BYTES_MAX);
    budget.added(page(2048));
    budget.added(page(2048));
    expect(budget.over).toBe(false);
    budget.added(page(4096));
    expect(budget.over).toBe(true);
  });
});
