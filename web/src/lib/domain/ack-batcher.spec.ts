import { describe, expect, it } from 'vitest';
import { AckBatcher } from './ack-counter';

function batcher(minChars = 100) {
  const sent: Record<string, number>[] = [];
  const timers: (() => void)[] = [];
  const acks = new AckBatcher((a) => sent.push(a), (run) => timers.push(run), 20, minChars);
  const tick = () => timers.splice(0).forEach((run) => run());
  return { acks, sent, timers, tick };
}

describe('AckBatcher', () => {
  it('sends every session in one call per tick', () => {
    const { acks, sent, tick } = batcher();
    for (let i = 0; i < 16; i++) acks.consumed(`s${i}`, 1000);
    acks.consumed('s0', 500);
    tick();
    expect(sent).toHaveLength(1);
    expect(Object.keys(sent[0])).toHaveLength(16);
    expect(sent[0].s0).toBe(1500);
  });

  it('arms one timer however much is consumed before the tick', () => {
    const { acks, timers } = batcher();
    for (let i = 0; i < 50; i++) acks.consumed('s1', 1000);
    expect(timers).toHaveLength(1);
  });

  it('keeps a small consumption (an echo) for later, without a call', () => {
    const { acks, sent, timers, tick } = batcher();
    acks.consumed('s1', 1);
    expect(timers).toHaveLength(0);
    acks.consumed('big', 200);
    tick();
    expect(sent).toEqual([{ big: 200 }]);
    expect(acks.pendingOf('s1')).toBe(1);
    acks.consumed('s1', 99);
    tick();
    expect(sent[1]).toEqual({ s1: 100 });
  });

  it('sends a forced consumption however small', () => {
    const { acks, sent, tick } = batcher();
    acks.consumed('elsewhere', 3, true);
    tick();
    expect(sent).toEqual([{ elsewhere: 3 }]);
  });

  it('forgets a session', () => {
    const { acks, sent, tick } = batcher();
    acks.consumed('s1', 500);
    acks.forget('s1');
    tick();
    expect(sent).toEqual([]);
  });
});
