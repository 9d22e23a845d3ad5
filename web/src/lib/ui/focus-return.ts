import { onDestroy } from 'svelte';

/**
 * Called while a dialog or an inline form is created, before it takes the keyboard: the
 * element holding the keyboard then (the button that opened it, a terminal) gets it back when
 * the component goes. When that element is gone or was nothing (<body>: opened from the
 * palette or from a menu that closed), `fallback` places it instead — the window's
 * `Workbench.returnFocus`, back to the focused cell.
 */
export function focusBackOnDestroy(fallback?: () => void): void {
  const opener = document.activeElement;
  onDestroy(() => {
    if (opener instanceof HTMLElement && opener !== document.body && opener.isConnected) opener.focus();
    else fallback?.();
  });
}
