/**
 * The faults a mock has switched on (FaultSet), read by its handlers; the catalogue they are drawn from is faults.ts.
 */
import type { FaultDefinition } from './types.ts';
import { ConfigurationError } from '../errors.ts';
import { FAULTS } from './faults.ts';

const byId = new Map(FAULTS.map((d) => [d.id, d] as const));

export function faultDefinition(id: string): FaultDefinition | undefined {
  return byId.get(id);
}

export class UnknownFaultError extends ConfigurationError {
  readonly code = 'MOCK_UNKNOWN_FAULT';
  constructor(readonly ids: string[]) {
    super(`unknown fault id(s): ${ids.join(', ')}`);
    this.name = 'UnknownFaultError';
  }
}

/** The set of faults switched on. `set` replaces it atomically; unknown ids are refused (nothing changes). */
export class FaultSet {
  private active = new Set<string>();
  private listeners: (() => void)[] = [];
  private readings = new Map<object, unknown>();

  constructor(ids: string[] = []) {
    this.set(ids);
  }

  set(ids: string[]): void {
    const unknown = ids.filter((id) => !byId.has(id));
    if (unknown.length > 0) throw new UnknownFaultError(unknown);
    this.active = new Set(ids);
    this.readings.clear();
    for (const l of this.listeners) l();
  }

  list(): string[] {
    return [...this.active].sort();
  }

  on(id: string): boolean {
    // a typo in the mock's own code must not silently disable a fault
    if (!byId.has(id)) throw new UnknownFaultError([id]);
    // the clean mock (no fault on) asks a score of times a call: one lookup each, not two
    return this.active.size > 0 && this.active.has(id);
  }

  /**
   * what `read` makes of the faults switched on, computed once per set of faults (a handler's table of booleans
   * read on every call): `read` must depend on nothing but `on`
   */
  memo<T>(read: (faults: FaultSet) => T): T {
    if (this.readings.has(read)) return this.readings.get(read) as T;
    const value = read(this);
    this.readings.set(read, value);
    return value;
  }

  /** called after every change (e.g. to swap the TLS context) */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }
}
