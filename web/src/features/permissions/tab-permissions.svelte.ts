/**
 * A project tab's share of permissions (docs/contracts.md §9): which editor is open (the
 * project's, `null`, or an agent's, its id) and the denials heard per agent since the tab
 * opened (the `permissionDenied` pushes; the editor reads the list itself).
 */
export class TabPermissions {
  /** `undefined`: no editor; `null`: the project's; else the agent whose editor is open. */
  #editing = $state<string | null | undefined>(undefined);
  #denied = $state.raw<Readonly<Record<string, number>>>({});
  /** Bumped by every denial push, so an open editor reads the list again. */
  #heard = $state(0);

  get editing(): string | null | undefined {
    return this.#editing;
  }

  get heard(): number {
    return this.#heard;
  }

  open(scope: string | null): void {
    this.#editing = scope;
  }

  close(): void {
    this.#editing = undefined;
  }

  /** Denials of the agent heard since the tab opened. */
  deniedCount(agentId: string): number {
    return this.#denied[agentId] ?? 0;
  }

  /** A `permissionDenied` push for `agentId`. */
  denied(agentId: string): void {
    this.#denied = { ...this.#denied, [agentId]: this.deniedCount(agentId) + 1 };
    this.#heard++;
  }
}
