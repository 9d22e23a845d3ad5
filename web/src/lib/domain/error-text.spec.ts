import { describe, expect, it } from 'vitest';
import { plainMessage } from './error-text';

describe('plainMessage', () => {
  it('keeps the message as it is', () => {
    expect(plainMessage('INBOX_FULL', "Beta's inbox is full (100 waiting)")).toBe("Beta's inbox is full (100 waiting)");
  });

  it('drops a leading raw code prefix', () => {
    expect(plainMessage('FORBIDDEN', 'FORBIDDEN: Beta does not take tasks from you')).toBe('Beta does not take tasks from you');
    expect(plainMessage('INTERNAL', 'TIMEOUT: not mine')).toBe('TIMEOUT: not mine');
  });

  it('falls back to the code for an empty message', () => {
    expect(plainMessage('INTERNAL', '  ')).toBe('INTERNAL');
    expect(plainMessage('INTERNAL', 'INTERNAL:')).toBe('INTERNAL');
  });
});
