import { describe, expect, it } from 'vitest';
import { focusablesIn, trapFocus } from './focus-trap';

function dialog(html: string): HTMLElement {
  const root = document.createElement('div');
  root.tabIndex = -1;
  root.innerHTML = html;
  document.body.replaceChildren(root);
  return root;
}

function tab(root: HTMLElement, shiftKey = false): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key: 'Tab', shiftKey, cancelable: true });
  trapFocus(root, event);
  return event;
}

describe('focus trap', () => {
  it('lists enabled tabbable controls only, in order', () => {
    const root = dialog('<button id="a">a</button><button disabled>x</button><input id="b" /><span tabindex="-1">y</span><details><summary id="c">c</summary></details>');
    expect(focusablesIn(root).map((el) => el.id)).toEqual(['a', 'b', 'c']);
  });

  it('wraps Tab from the last to the first and Shift+Tab from the first to the last', () => {
    const root = dialog('<button id="a">a</button><button id="b">b</button>');
    const [a, b] = focusablesIn(root);
    b.focus();
    expect(tab(root).defaultPrevented).toBe(true);
    expect(a).toHaveFocus();
    expect(tab(root, true).defaultPrevented).toBe(true);
    expect(b).toHaveFocus();
  });

  it('leaves Tab in the middle to the browser, and brings a focus from the dialog itself in', () => {
    const root = dialog('<button id="a">a</button><button id="b">b</button><button id="c">c</button>');
    const [, b, c] = focusablesIn(root);
    b.focus();
    expect(tab(root).defaultPrevented).toBe(false);
    root.focus();
    tab(root, true);
    expect(c).toHaveFocus();
  });

  it('keeps the focus where it is when nothing inside can take it', () => {
    const root = dialog('<p>nothing to focus</p>');
    expect(tab(root).defaultPrevented).toBe(true);
  });
});
