/** What Tab can land on inside a dialog. */
const FOCUSABLE = 'button, input, select, textarea, summary, a[href], [tabindex]:not([tabindex="-1"])';

/** The enabled, tabbable elements inside `root`, in document order. */
export function focusablesIn(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.hasAttribute('disabled') && el.tabIndex >= 0);
}

/**
 * Keep Tab inside `root` (WAI-ARIA modal dialog pattern): Tab from the last control goes to
 * the first, Shift+Tab from the first (or from the dialog itself) to the last. Call it from
 * the dialog's keydown for `Tab`; other keys are left alone.
 */
export function trapFocus(root: HTMLElement, event: KeyboardEvent): void {
  if (event.key !== 'Tab') return;
  const focusables = focusablesIn(root);
  if (focusables.length === 0) {
    event.preventDefault();
    return;
  }
  const first = focusables[0];
  const last = focusables[focusables.length - 1];
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === root || !root.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !root.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}
