export class FitAddon {
  activate(): void {}
  proposeDimensions(): { cols: number; rows: number } | undefined {
    return undefined;
  }
  fit(): void {}
  dispose(): void {}
}
