import { render, screen, fireEvent } from '@testing-library/svelte';
import { createRawSnippet } from 'svelte';
import { describe, expect, it, vi } from 'vitest';
import Modal from './Modal.svelte';

const content = createRawSnippet(() => ({ render: () => '<div><button data-testid="inside">Test</button></div>' }));

describe('Modal', () => {
  it('closes on Escape pressed in the dialog', async () => {
    const onClose = vi.fn();
    render(Modal, { testid: 'dlg', label: 'A dialog', onClose, children: content });
    screen.getByTestId('inside').focus();
    await fireEvent.keyDown(screen.getByTestId('inside'), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('still closes on Escape once the focus fell out of it (a focused button got disabled)', async () => {
    const onClose = vi.fn();
    render(Modal, { testid: 'dlg', label: 'A dialog', onClose, children: content });
    const button = screen.getByTestId('inside');
    button.focus();
    button.blur(); // what Chromium does to a focused button that becomes disabled
    expect(document.activeElement).toBe(document.body);
    await fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(screen.getByTestId('dlg'));
  });

  it('leaves keys alone while the focus is elsewhere on the page', async () => {
    const onClose = vi.fn();
    const outside = document.createElement('input');
    document.body.appendChild(outside);
    render(Modal, { testid: 'dlg', label: 'A dialog', onClose, children: content });
    outside.focus();
    await fireEvent.keyDown(outside, { key: 'Escape' });
    expect(onClose).not.toHaveBeenCalled();
    outside.remove();
  });
});
