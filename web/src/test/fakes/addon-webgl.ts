export class WebglAddon {
  activate(): void {}
  onContextLoss(): { dispose(): void } {
    return { dispose() {} };
  }
  dispose(): void {}
}
