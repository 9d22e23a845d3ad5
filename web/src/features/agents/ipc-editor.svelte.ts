import { draftOf, matrixOf, withValue, type IpcDraft, type IpcField } from '../../lib/domain/ipc-matrix';
import { asGatewayError, type IpcMatrix } from '../../lib/ports';
import type { ProjectTab } from '../projects/project-tab.svelte';

/** The backend names a bad field in snake case (`details.field`); the editor's fields are camelCase. */
const WIRE_FIELDS: Record<string, IpcField> = {
  receives_from: 'receivesFrom',
  sends_to: 'sendsTo',
  signals: 'signals',
  zone_access: 'zoneAccess',
  receivesFrom: 'receivesFrom',
  sendsTo: 'sendsTo',
  zoneAccess: 'zoneAccess',
};

/**
 * The access-matrix editor of one agent: reads its matrix fresh when opened, edits a draft
 * (see `lib/domain/ipc-matrix.ts`), saves with `agents.setIpc`. A failed save keeps the draft
 * and says why (naming the field when the backend does). Unticking "any" and ticking it again
 * brings a field's earlier choices back.
 */
export class IpcEditorModel {
  readonly agentId: string;
  #loading = $state(true);
  #loadError = $state<string | null>(null);
  #saving = $state(false);
  #saveError = $state<string | null>(null);
  #invalidField = $state<IpcField | null>(null);
  #draft = $state.raw<IpcDraft>(draftOf(null));
  /** What a field held before "any" was ticked. */
  #before: Partial<Record<IpcField, string[]>> = {};

  #tab: ProjectTab;

  constructor(tab: ProjectTab, agentId: string) {
    this.#tab = tab;
    this.agentId = agentId;
  }

  get loading(): boolean {
    return this.#loading;
  }

  get loadError(): string | null {
    return this.#loadError;
  }

  get saving(): boolean {
    return this.#saving;
  }

  get saveError(): string | null {
    return this.#saveError;
  }

  /** The field the backend refused, when it said which. */
  get invalidField(): IpcField | null {
    return this.#invalidField;
  }

  get draft(): IpcDraft {
    return this.#draft;
  }

  /** What Save would send (`null`: no matrix). */
  get matrix(): IpcMatrix | null {
    return matrixOf(this.#draft);
  }

  async load(): Promise<void> {
    this.#loading = true;
    this.#loadError = null;
    try {
      this.#draft = draftOf(await this.#tab.loadIpc(this.agentId));
    } catch (error) {
      this.#loadError = asGatewayError(error).message;
    } finally {
      this.#loading = false;
    }
  }

  setUnrestricted(unrestricted: boolean): void {
    this.#draft = { ...this.#draft, unrestricted };
  }

  /** "any" ticked: the field restricts nothing (left out); unticked: its choices (earlier ones back). */
  setAny(field: IpcField, any: boolean): void {
    const current = this.#draft.fields[field];
    if (any && current !== null) this.#before[field] = current;
    const next = any ? null : (current ?? this.#before[field] ?? []);
    this.#draft = { ...this.#draft, fields: { ...this.#draft.fields, [field]: next } };
  }

  toggle(field: IpcField, value: string, on: boolean): void {
    const current = this.#draft.fields[field] ?? [];
    this.#draft = { ...this.#draft, fields: { ...this.#draft.fields, [field]: withValue(current, value, on) } };
  }

  /** Saves the draft; true when the backend took it. */
  async save(): Promise<boolean> {
    if (this.#saving || this.#loading || this.#loadError !== null) return false;
    this.#saving = true;
    this.#saveError = null;
    this.#invalidField = null;
    try {
      await this.#tab.setIpc(this.agentId, this.matrix);
      return true;
    } catch (error) {
      const failed = asGatewayError(error);
      this.#saveError = `${failed.code}: ${failed.message}`;
      const field = failed.details.field;
      this.#invalidField = typeof field === 'string' ? (WIRE_FIELDS[field] ?? null) : null;
      return false;
    } finally {
      this.#saving = false;
    }
  }
}
