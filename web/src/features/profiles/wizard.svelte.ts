import { asGatewayError, type Gateway, type Profile, type ProfileDetection, type ProfileTemplate } from '../../lib/ports';
import { freshId, templateId, toForm } from './profile-form';

/** The CLIs the wizard always lists, in this order (ids of the built-in catalogue). */
export const WIZARD_PROFILE_IDS = ['claude-code', 'codex-cli', 'gemini-cli', 'aider', 'shell'] as const;

const FALLBACK_NAMES: Record<string, string> = {
  'claude-code': 'Claude Code',
  'codex-cli': 'Codex CLI',
  'gemini-cli': 'Gemini CLI',
  aider: 'Aider',
  shell: 'Shell',
};

/** One row of the wizard. */
/** What an editor holds that its profile cannot (an environment line without `=`): the field and why. */
export interface Unsaved {
  field: string;
  message: string;
}

export interface WizardRow {
  id: string;
  name: string;
  command: string;
  installed: boolean;
  version: string | null;
  profile: Profile | null;
  /** Saved already but unknown to detection (a profile the user added by hand). */
  custom: boolean;
  /** The last detection of this row's command (`profiles.detect` or the Test button); null once
   * the command was edited since. */
  detection: ProfileDetection | null;
  /** Changed in the editor (or added) since loading: saved even when unticked. */
  edited: boolean;
  /** In `profiles.json` when loaded: saved again even when unticked (`enabled: false`), so
   * unticking never loses its settings nor breaks the agents that use it (the backend leaves
   * out an unticked built-in the catalogue has as is). */
  saved?: boolean;
  /** How to install the catalogue's CLI, kept from its last detection while an edited command
   * is not tested yet (the hint stays until Test finds it). */
  install?: string | null;
  /** Test found its command missing while it was ticked, so it was unticked: said on the row
   * until its command changes, Test finds it or it is ticked again. */
  untickedByTest?: boolean;
}

/** Whether the row's command is known to be missing (the row cannot be ticked until it is fixed).
 * The Shell row too: its empty command (your shell) is always found, a path given to it may not be. */
export function isMissing(row: WizardRow): boolean {
  if (!row.profile || !row.profile.command) return false;
  if (row.detection === null) return false; // not tested since loaded or edited: the save checks it
  return row.detection.state !== undefined ? row.detection.state === 'missing' : !row.detection.installed;
}

/** Shell profile used when detection does not report one (the shell is always offered). */
export function fallbackShellProfile(platform: string): Profile {
  const windows = platform.toLowerCase().startsWith('win');
  return {
    id: 'shell',
    name: 'Shell',
    command: windows ? 'powershell.exe' : 'sh',
    args: [],
    contextInjection: { strategy: 'env', var: 'IDEA_CONTEXT' },
  };
}

/**
 * Profile wizard. First run: `profiles.detect()`, then the user ticks profiles (installed ones
 * and Shell preselected) and `profiles.save(selected)` stores them and marks the first run done.
 * Reopened later ("Profiles…", `load({ current: true })`): `profiles.list()` too, the saved
 * profiles are ticked and kept as saved (their settings win over the detected defaults).
 */
export class ProfileWizard {
  #rows = $state.raw<WizardRow[]>([]);
  #selected = $state.raw<Record<string, boolean>>({});
  #loading = $state(true);
  #saving = $state(false);
  #error = $state<string | null>(null);
  /** Rows whose editor holds what their profile cannot (see `update`), by row id. */
  #unsaved: Record<string, Unsaved> = {};
  #templates = $state.raw<ProfileTemplate[]>([]);
  #editing = $state<string | null>(null);
  #testing = $state<string | null>(null);
  /** The field the last failed save named (`profiles[2].command` → row id and `command`). */
  #fieldError = $state<{ id: string; field: string; message: string } | null>(null);

  readonly #selectedCount = $derived(Object.values(this.#selected).filter(Boolean).length);
  /** The rows and ticks as loaded: what `dirty` compares with (null until loaded). */
  #loaded: { rows: readonly WizardRow[]; selected: Readonly<Record<string, boolean>> } | null = null;

  #gateway: Gateway;
  #platform: string;

  constructor(gateway: Gateway, platform = 'linux') {
    this.#gateway = gateway;
    this.#platform = platform;
  }

  /** One row per CLI the wizard offers. */
  get rows(): readonly WizardRow[] {
    return this.#rows;
  }

  /** Ticked rows, by profile id. */
  get selected(): Readonly<Record<string, boolean>> {
    return this.#selected;
  }

  get selectedCount(): number {
    return this.#selectedCount;
  }

  /** Detection (and, when managing, the saved profiles) still in flight. */
  get loading(): boolean {
    return this.#loading;
  }

  get saving(): boolean {
    return this.#saving;
  }

  /** What went wrong while loading or saving, in the user's terms. */
  get error(): string | null {
    return this.#error;
  }

  /** Templates for "Add profile…". */
  get templates(): readonly ProfileTemplate[] {
    return this.#templates;
  }

  /** The id of the row open in the editor, or null. */
  get editing(): string | null {
    return this.#editing;
  }

  /** The id of the row whose Test is running, or null. */
  get testing(): string | null {
    return this.#testing;
  }

  get fieldError(): { id: string; field: string; message: string } | null {
    return this.#fieldError;
  }

  /**
   * Whether anything changed since loading: a field as the form shows it (typing then erasing
   * is no change), a profile added or duplicated, a tick, or an editor holding what its profile
   * cannot (an environment line without `=`). Closing without saving asks first when so.
   */
  get dirty(): boolean {
    const loaded = this.#loaded;
    if (this.#loading || !loaded) return false;
    if (Object.keys(this.#unsaved).length > 0 || this.#rows.length !== loaded.rows.length) return true;
    const ticked = (selected: Readonly<Record<string, boolean>>, id: string) => selected[id] ?? false;
    return this.#rows.some((row, index) => {
      const before = loaded.rows[index];
      if (row.id !== before.id || ticked(this.#selected, row.id) !== ticked(loaded.selected, row.id)) return true;
      if (row.profile === before.profile) return false;
      if (!row.profile || !before.profile) return true;
      return JSON.stringify(toForm(row.profile)) !== JSON.stringify(toForm(before.profile));
    });
  }

  row(id: string): WizardRow | undefined {
    return this.#rows.find((r) => r.id === id);
  }

  edit(id: string | null): void {
    this.#editing = this.#editing === id ? null : id;
  }

  /**
   * The editor changed row `id`'s profile; a changed command forgets its detection. `unsaved`:
   * what the form holds that the profile cannot (an environment line without `=`): saving is
   * refused, naming it, until it is fixed.
   */
  update(id: string, profile: Profile, unsaved: Unsaved | null = null): void {
    const others = Object.fromEntries(Object.entries(this.#unsaved).filter(([row]) => row !== id));
    this.#unsaved = unsaved ? { ...others, [id]: unsaved } : others;
    this.#rows = this.#rows.map((r) => {
      if (r.id !== id) return r;
      const commandChanged = r.profile?.command !== profile.command;
      return {
        ...r,
        profile,
        name: profile.name || r.id,
        command: profile.command,
        edited: true,
        detection: commandChanged ? null : r.detection,
        install: commandChanged ? (r.detection?.install ?? r.install ?? null) : r.install,
        installed: commandChanged ? false : r.installed,
        version: commandChanged ? null : r.version,
        untickedByTest: commandChanged ? false : r.untickedByTest,
      };
    });
    if (this.#fieldError?.id === id) this.#fieldError = null;
  }

  /** The Test button: runs row `id`'s detection as edited and keeps its answer on the row. */
  async test(id: string): Promise<ProfileDetection | null> {
    const row = this.row(id);
    if (!row?.profile) return null;
    this.#testing = id;
    try {
      const found = await this.#gateway.profiles.test(row.profile);
      const missing = found.state === 'missing';
      // A ticked row whose command Test does not find is unticked, and the row says so.
      const unticked = missing && (this.#selected[id] ?? false);
      this.#rows = this.#rows.map((r) =>
        r.id === id
          ? { ...r, detection: found, installed: found.installed, version: found.version, untickedByTest: unticked || (missing && r.untickedByTest) }
          : r,
      );
      if (missing) this.#selected = { ...this.#selected, [id]: false };
      return found;
    } catch (error) {
      this.#error = `Test failed: ${asGatewayError(error).message}`;
      return null;
    } finally {
      this.#testing = null;
    }
  }

  /** A copy of row `id` (a built-in one, usually) the user can change; opened in the editor. */
  duplicate(id: string): void {
    const row = this.row(id);
    if (!row?.profile) return;
    const newId = freshId(id, this.#rows.map((r) => r.id));
    const profile: Profile = { ...structuredClone(row.profile), id: newId, name: `${row.name} (copy)` };
    delete profile.enabled;
    this.#rows = [...this.#rows, { ...row, id: newId, name: profile.name, profile, custom: true, edited: true, saved: false }];
    this.#selected = { ...this.#selected, [newId]: false };
    this.#editing = newId;
  }

  /** Whether row `id` can be removed: a profile the user added (here or saved before), never a
   * built-in one (the catalogue has it). */
  removable(id: string): boolean {
    return this.row(id)?.custom ?? false;
  }

  /** Drops row `id` (a custom profile, see `removable`): it is not sent, so Save deletes a saved
   * one from `profiles.json`; Cancel brings it back. */
  remove(id: string): void {
    if (!this.removable(id)) return;
    this.#rows = this.#rows.filter((r) => r.id !== id);
    const selected = { ...this.#selected };
    delete selected[id];
    this.#selected = selected;
    this.#unsaved = Object.fromEntries(Object.entries(this.#unsaved).filter(([row]) => row !== id));
    if (this.#editing === id) this.#editing = null;
    if (this.#fieldError?.id === id) {
      this.#fieldError = null;
      this.#error = null;
    }
  }

  /** A new profile from template `templateId` (or a blank one), opened in the editor, unticked. */
  add(template: string): void {
    const found = this.#templates.find((t) => t.id === template);
    const base: Profile = found
      ? structuredClone(found.profile)
      : { id: 'custom', name: 'Custom CLI', command: '', args: [], contextInjection: { strategy: 'conventionFile', target: 'AGENTS.md' } };
    const id = templateId(found?.id ?? 'custom', this.#rows.map((r) => r.id));
    // A second Custom CLI is "Custom CLI 2": rows and agents' profile lists tell them apart.
    const names = this.#rows.map((r) => r.name);
    let name = base.name;
    for (let n = 2; names.includes(name); n++) name = `${base.name} ${n}`;
    const profile: Profile = { ...base, id, name };
    this.#rows = [
      ...this.#rows,
      { id, name: profile.name, command: profile.command, installed: false, version: null, profile, custom: true, detection: null, edited: true },
    ];
    this.#selected = { ...this.#selected, [id]: false };
    this.#editing = id;
  }

  async load(options: { current?: boolean } = {}): Promise<void> {
    this.#loading = true;
    this.#error = null;
    const errors: string[] = [];
    const [detections, current] = await Promise.all([
      this.#gateway.profiles.detect().catch((error: unknown) => {
        errors.push(`Detection failed: ${asGatewayError(error).message}`);
        return [] as ProfileDetection[];
      }),
      options.current
        ? this.#gateway.profiles.list().catch((error: unknown) => {
            errors.push(`Could not read the current profiles: ${asGatewayError(error).message}`);
            return null;
          })
        : Promise.resolve(null),
    ]);
    this.#templates = await this.#gateway.profiles.templates().catch(() => [] as ProfileTemplate[]);
    const detected = detectedRows(detections, this.#platform);
    if (current) {
      this.#rows = await this.#detectChanged(withSavedProfiles(detected, current));
      this.#selected = Object.fromEntries(
        this.#rows.map((r) => [r.id, current.some((p) => p.id === r.id && p.enabled !== false) && !isMissing(r)]),
      );
    } else {
      this.#rows = detected;
      this.#selected = Object.fromEntries(this.#rows.map((r) => [r.id, r.profile !== null && (r.installed || r.id === 'shell')]));
    }
    this.#error = errors.length > 0 ? errors.join(' ') : null;
    this.#unsaved = {};
    this.#loaded = { rows: this.#rows, selected: this.#selected };
    this.#loading = false;
  }

  /** Saved profiles whose command is not the catalogue's (a path, a custom CLI) are detected
   * as saved. */
  async #detectChanged(rows: WizardRow[]): Promise<WizardRow[]> {
    return Promise.all(
      rows.map(async (r) => {
        if (r.detection !== null || !r.profile?.command) return r;
        const found = await this.#gateway.profiles.test(r.profile).catch(() => null);
        return found ? { ...r, detection: found, installed: found.installed, version: found.version } : r;
      }),
    );
  }

  toggle(id: string, on: boolean): void {
    const row = this.row(id);
    if (on && row && isMissing(row)) return; // give it a path (and Test) first
    this.#selected = { ...this.#selected, [id]: on };
    if (on && row?.untickedByTest) this.#rows = this.#rows.map((r) => (r.id === id ? { ...r, untickedByTest: false } : r));
  }

  /** Saves the ticked profiles (and, unticked as `enabled: false`, the ones the user added or
   * changed and the ones saved before); resolves to what the backend stored, or null on failure (the field at fault is
   * opened in the editor). */
  async save(): Promise<Profile[] | null> {
    const rows = this.#rows.filter((r) => r.profile && (this.#selected[r.id] || r.edited || r.saved));
    const chosen = rows.map((r) => {
      const profile = { ...(r.profile as Profile) };
      if (this.#selected[r.id]) delete profile.enabled;
      else profile.enabled = false;
      return profile;
    });
    const held = rows.find((r) => this.#unsaved[r.id]);
    if (held) {
      const problem = this.#unsaved[held.id];
      this.#error = `Could not save profiles: ${held.name}: ${problem.message}`;
      this.#fieldError = { id: held.id, ...problem };
      this.#editing = held.id;
      return null;
    }
    this.#saving = true;
    this.#error = null;
    this.#fieldError = null;
    try {
      return await this.#gateway.profiles.save(chosen);
    } catch (error) {
      const failure = asGatewayError(error);
      const field = typeof failure.details.field === 'string' ? failure.details.field : '';
      const at = /^profiles\[(\d+)\]\.?(.*)$/.exec(field);
      const row = at ? rows[Number(at[1])] : undefined;
      // `details.field` gives the profile by its index in the list sent (`profiles[0].command`);
      // the message names it and the field as the user knows them (`Claude Code: Command: …`).
      const message = failure.message;
      this.#error = `Could not save profiles: ${message}`;
      if (at && row) {
        this.#fieldError = { id: row.id, field: at[2] ?? '', message };
        this.#editing = row.id;
      }
      return null;
    } finally {
      this.#saving = false;
    }
  }
}

/** The wizard's rows for a detection: the fixed catalogue first, then any extra profile detected. */
function detectedRows(detections: ProfileDetection[], platform: string): WizardRow[] {
  const byId = new Map(detections.map((d) => [d.profile.id, d]));
  const extra = detections.filter((d) => !(WIZARD_PROFILE_IDS as readonly string[]).includes(d.profile.id));
  return [
    ...WIZARD_PROFILE_IDS.map((id) => toRow(id, byId.get(id) ?? null, platform)),
    ...extra.map((d) => toRow(d.profile.id, d, platform)),
  ];
}

/** Saved profiles win over the detected defaults; saved ones detection does not know come last. */
function withSavedProfiles(detected: WizardRow[], current: Profile[]): WizardRow[] {
  const saved = new Map(current.map((p) => [p.id, p]));
  const rows = detected.map((r) => {
    const profile = saved.get(r.id);
    if (!profile) return r;
    const same = profile.command === r.profile?.command;
    return { ...r, name: profile.name || r.name, command: profile.command, profile, detection: same ? r.detection : null, saved: true };
  });
  const custom = current.filter((p) => !rows.some((r) => r.id === p.id));
  return [...rows, ...custom.map(customRow)];
}

function toRow(id: string, detection: ProfileDetection | null, platform: string): WizardRow {
  if (detection) {
    return {
      id,
      name: detection.profile.name || FALLBACK_NAMES[id] || id,
      command: detection.profile.command,
      installed: id === 'shell' ? true : detection.installed,
      version: detection.version,
      profile: detection.profile,
      custom: false,
      detection,
      edited: false,
    };
  }
  if (id === 'shell') {
    const profile = fallbackShellProfile(platform);
    return { id, name: 'Shell', command: profile.command, installed: true, version: null, profile, custom: false, detection: null, edited: false };
  }
  return { id, name: FALLBACK_NAMES[id] ?? id, command: '', installed: false, version: null, profile: null, custom: false, detection: null, edited: false };
}

function customRow(profile: Profile): WizardRow {
  const name = profile.name || profile.id;
  return { id: profile.id, name, command: profile.command, installed: false, version: null, profile, custom: true, detection: null, edited: false, saved: true };
}
