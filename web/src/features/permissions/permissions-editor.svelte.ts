import { plainMessage } from '../../lib/domain/error-text';
import {
  fieldTarget,
  newDocument,
  newOverride,
  patternsOf,
  patternsText,
  policyOf,
  withCapability,
  withPatterns,
  withPolicy,
  type FieldTarget,
} from '../../lib/domain/permissions';
import {
  asGatewayError,
  type Capability,
  type Denial,
  type Effect,
  type Gateway,
  type PermissionPolicy,
  type PermissionRule,
  type PermissionsDoc,
  type PermissionTestResult,
  type SandboxStatus,
} from '../../lib/ports';

/**
 * The permissions editor of a project (`scope` null: its defaults) or of one agent (`scope` =
 * its id: its override of the defaults). It reads `permissions.json` fresh when opened, edits a
 * draft of the WHOLE document (so unknown keys and the other policies go back untouched), saves
 * it with `permissions.save`, and tests a path or a command against the draft. A refused save
 * keeps the draft and marks the field the backend named; a file that cannot be read is shown
 * and cannot be saved over.
 *
 * A patterns box is an edit at every keystroke (`setPatterns` on `input`, not on `change`: the
 * draft, `dirty`, Ctrl+S and the close question follow what is typed). What the user typed is
 * kept as typed (`patternsText`), so a trailing newline, an empty line or a space mid-edit is
 * not reformatted under the cursor; the draft holds the parsed list (one pattern a line, blanks
 * dropped) and the text shows the draft's own list again once the draft no longer reads so.
 */
export class PermissionsEditorModel {
  readonly root: string;
  readonly scope: string | null;
  #loading = $state(true);
  #loadError = $state<{ code: string; message: string } | null>(null);
  #machine = $state<SandboxStatus | null>(null);
  #platform = $state('');
  #exposed = $state.raw<string[]>([]);
  /** The draft of the whole document; `null` while nothing is posed (and not being posed). */
  #draft = $state.raw<PermissionsDoc | null>(null);
  #dirty = $state(false);
  #saving = $state(false);
  #saveError = $state<string | null>(null);
  #invalid = $state.raw<FieldTarget | null>(null);
  #saved = $state(false);
  #testing = $state(false);
  #testResult = $state.raw<PermissionTestResult | null>(null);
  #testedTarget = $state('');
  #testError = $state<string | null>(null);
  #denials = $state.raw<Denial[]>([]);
  /** The patterns boxes' text as typed, by rule index of this scope's policy (absent: the draft's list). */
  #typed = $state.raw<Readonly<Record<number, string>>>({});
  #gateway: Gateway;

  constructor(gateway: Gateway, root: string, scope: string | null) {
    this.#gateway = gateway;
    this.root = root;
    this.scope = scope;
  }

  get loading(): boolean {
    return this.#loading;
  }

  /** Why the file could not be read (`CORRUPT_FILE`: IdeA will not overwrite it). */
  get loadError(): { code: string; message: string } | null {
    return this.#loadError;
  }

  get machine(): SandboxStatus | null {
    return this.#machine;
  }

  get platform(): string {
    return this.#platform;
  }

  /** Why the OS cannot enforce file rules inside this project (it lies in /tmp…); empty: it can. */
  get exposed(): readonly string[] {
    return this.#exposed;
  }

  get draft(): PermissionsDoc | null {
    return this.#draft;
  }

  /** The policy this editor shows: the defaults, or the agent's override (`undefined`: none). */
  get policy(): PermissionPolicy | undefined {
    return this.#draft ? policyOf(this.#draft, this.scope) : undefined;
  }

  /** The project defaults (an agent's editor shows what it inherits). */
  get defaults(): PermissionPolicy | undefined {
    return this.#draft?.projectDefaults;
  }

  /**
   * The text of rule `index`'s patterns box (this scope's policy): what the user typed while it
   * still reads as the rule's patterns, else the patterns one per line.
   */
  patternsText(index: number): string {
    const rule = this.policy?.rules[index];
    if (!rule) return '';
    return this.#typed[index] ?? patternsText(rule);
  }

  get dirty(): boolean {
    return this.#dirty;
  }

  get saving(): boolean {
    return this.#saving;
  }

  get saveError(): string | null {
    return this.#saveError;
  }

  /** The field the backend refused, when it is in this editor's policy. */
  get invalid(): FieldTarget | null {
    return this.#invalid;
  }

  /** The last save went through (cleared by the next edit). */
  get saved(): boolean {
    return this.#saved;
  }

  get canSave(): boolean {
    return !this.#loading && this.#loadError === null && this.#draft !== null && !this.#saving;
  }

  get testing(): boolean {
    return this.#testing;
  }

  get testResult(): PermissionTestResult | null {
    return this.#testResult;
  }

  /** The target `testResult` answers for. */
  get testedTarget(): string {
    return this.#testedTarget;
  }

  get testError(): string | null {
    return this.#testError;
  }

  get denials(): readonly Denial[] {
    return this.#denials;
  }

  async load(): Promise<void> {
    this.#loading = true;
    this.#loadError = null;
    try {
      const info = await this.#gateway.permissions.get(this.root);
      this.#machine = info.machine;
      this.#platform = info.platform;
      this.#exposed = info.exposed ?? [];
      this.#draft = info.document;
      this.#typed = {};
      this.#dirty = false;
      await this.loadDenials();
    } catch (error) {
      const failed = asGatewayError(error);
      this.#loadError = { code: failed.code, message: failed.message };
    } finally {
      this.#loading = false;
    }
  }

  /** An agent's recent denials (nothing for the project's editor); a failure leaves the list as it was. */
  async loadDenials(): Promise<void> {
    if (this.scope === null) return;
    try {
      this.#denials = await this.#gateway.permissions.denials(this.root, this.scope);
    } catch {
      // the list is a courtesy: the editor works without it
    }
  }

  /** "Pose permissions": a first document (no rule, the CLI asks). */
  pose(): void {
    if (this.#draft === null) this.#edit(newDocument());
  }

  /** An agent's editor: give it its own rules (`on`), or go back to the project defaults. */
  setOverride(on: boolean): void {
    if (this.#draft === null || this.scope === null) return;
    if (on && !this.policy) this.#edit(withPolicy(this.#draft, this.scope, newOverride(this.#draft)));
    else if (!on && this.policy) this.#edit(withPolicy(this.#draft, this.scope, undefined));
  }

  addRule(capability: Capability = 'write'): void {
    this.#editPolicy((p) => ({ ...p, rules: [...p.rules, withPatterns({ capability, effect: 'allow' }, '')] }));
  }

  removeRule(index: number): void {
    // The boxes below the removed rule keep their text: it moves up with them.
    this.#typed = Object.fromEntries(
      Object.entries(this.#typed)
        .filter(([at]) => Number(at) !== index)
        .map(([at, text]) => [Number(at) > index ? Number(at) - 1 : Number(at), text]),
    );
    this.#editPolicy((p) => ({ ...p, rules: p.rules.filter((_, i) => i !== index) }));
  }

  setCapability(index: number, capability: Capability): void {
    this.#editRule(index, (r) => withCapability(r, capability));
  }

  setEffect(index: number, effect: Effect): void {
    this.#editRule(index, (r) => ({ ...r, effect }));
  }

  /** Rule `index`'s patterns box as typed (every keystroke): kept as is, parsed into the draft. */
  setPatterns(index: number, text: string): void {
    if (!this.policy?.rules[index]) return;
    this.#typed = { ...this.#typed, [index]: text };
    this.#editRule(index, (r) => withPatterns(r, text));
  }

  setFallback(fallback: Effect): void {
    this.#editPolicy((p) => ({ ...p, fallback }));
  }

  /**
   * Saves the draft; true when the backend took it (the draft is then what it stored, unless
   * the user typed on while it was saving: those edits stay, unsaved).
   */
  async save(): Promise<boolean> {
    if (!this.canSave || this.#draft === null) return false;
    const sent = this.#draft;
    this.#saving = true;
    this.#saveError = null;
    this.#invalid = null;
    try {
      const stored = await this.#gateway.permissions.save(this.root, sent);
      if (this.#draft !== sent) return true;
      this.#draft = stored;
      this.#keepTypedThatReads();
      this.#dirty = false;
      this.#saved = true;
      return true;
    } catch (error) {
      const failed = asGatewayError(error);
      this.#saveError = plainMessage(failed.code, failed.message);
      const field = failed.details.field;
      this.#invalid = typeof field === 'string' ? fieldTarget(field, this.scope) : null;
      return false;
    } finally {
      this.#saving = false;
    }
  }

  /** Tests `target` for `capability` against the draft (as this agent, or the project defaults). */
  async test(capability: Capability, target: string): Promise<void> {
    this.#testing = true;
    this.#testError = null;
    try {
      this.#testResult = await this.#gateway.permissions.test(this.root, this.scope, capability, target, this.#draft ?? undefined);
      this.#testedTarget = target;
    } catch (error) {
      const failed = asGatewayError(error);
      this.#testResult = null;
      this.#testError = plainMessage(failed.code, failed.message);
    } finally {
      this.#testing = false;
    }
  }

  #edit(doc: PermissionsDoc): void {
    this.#draft = doc;
    this.#keepTypedThatReads();
    this.#dirty = true;
    this.#saved = false;
  }

  /**
   * Drops the typed text of every box whose rule no longer reads so (the draft changed under it:
   * the saved document, another policy shown, a rule gone): that box shows the draft's list.
   */
  #keepTypedThatReads(): void {
    const rules = this.policy?.rules ?? [];
    const typed = Object.entries(this.#typed);
    const reading = typed.filter(([at, text]) => {
      const rule = rules[Number(at)];
      return rule !== undefined && samePatterns(patternsOf(withPatterns(rule, text)), patternsOf(rule));
    });
    if (reading.length !== typed.length) this.#typed = Object.fromEntries(reading);
  }

  #editPolicy(change: (policy: PermissionPolicy) => PermissionPolicy): void {
    const policy = this.policy;
    if (this.#draft === null || !policy) return;
    this.#edit(withPolicy(this.#draft, this.scope, change(policy)));
  }

  #editRule(index: number, change: (rule: PermissionRule) => PermissionRule): void {
    this.#editPolicy((p) => ({ ...p, rules: p.rules.map((r, i) => (i === index ? change(r) : r)) }));
  }
}

function samePatterns(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((pattern, i) => pattern === b[i]);
}
