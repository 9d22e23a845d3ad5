import { describe, expect, it } from 'vitest';
import { besideField, plainMessage } from './error-text';

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

describe('besideField', () => {
  const refusal = (message: string, details: Record<string, unknown> = {}) => ({ message, details });

  it('drops the label of the field it is shown beside', () => {
    expect(besideField(refusal('Layout name: a layout needs a name', { field: 'op.name', label: 'Layout name' }))).toBe(
      'a layout needs a name',
    );
    expect(besideField(refusal('Name: field required', { field: 'name', label: 'Name' }))).toBe('field required');
    expect(besideField(refusal("unknown profile 'x: y'", { field: 'profileId', label: 'Profile' }))).toBe("unknown profile 'x: y'");
  });

  it('drops the path of the field it is shown beside', () => {
    expect(besideField(refusal('op.name: a layout needs a name', { field: 'op.name' }))).toBe('a layout needs a name');
    expect(besideField(refusal('agent.name: an agent named Alpha already exists', { field: 'name' }))).toBe(
      'an agent named Alpha already exists',
    );
    expect(besideField(refusal('agents[2].mdPath: field required', { field: 'agents[2].mdPath' }))).toBe('field required');
  });

  it('keeps a message whose prefix names another field, or that names none', () => {
    expect(besideField(refusal('op.layoutId: unknown layout', { field: 'op.name' }))).toBe('op.layoutId: unknown layout');
    expect(besideField(refusal('Layouts: could not save', { field: 'name' }))).toBe('Layouts: could not save');
    expect(besideField(refusal('op.name: a layout needs a name'))).toBe('op.name: a layout needs a name');
    expect(besideField(refusal('op.name: a layout needs a name', { field: 3 }))).toBe('op.name: a layout needs a name');
  });
});
