import '@testing-library/jest-dom/vitest';

// jsdom lacks ResizeObserver (used by `bind:clientWidth` and the terminal view): a silent stand-in.
if (typeof globalThis.ResizeObserver !== 'function') {
  globalThis.ResizeObserver = class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
}
