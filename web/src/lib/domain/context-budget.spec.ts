import { describe, expect, it } from 'vitest';
import { ContextBudget, WEBGL_CONTEXTS_MAX } from './context-budget';

describe('ContextBudget', () => {
  it('grants at most 16 contexts by default', () => {
    const budget = new ContextBudget();
    const granted = Array.from({ length: 20 }, (_, i) => budget.take(`s${i}`));
    expect(granted.filter(Boolean)).toHaveLength(WEBGL_CONTEXTS_MAX);
    expect(granted.slice(WEBGL_CONTEXTS_MAX).every((g) => !g)).toBe(true);
  });

  it('lets a holder ask again and frees a context it gives back', () => {
    const budget = new ContextBudget(1);
    expect(budget.take('a')).toBe(true);
    expect(budget.take('a')).toBe(true);
    expect(budget.take('b')).toBe(false);
    budget.give('a');
    expect(budget.take('b')).toBe(true);
    expect(budget.used).toBe(1);
  });
});
