/**
 * The document's coverage by a run (docs/results-schema.md `openapi.coverage`): each operation × each documented
 * status, seen and valid, seen and invalid, or never seen; a status answered that the document does not list; the
 * operations the run never called.
 */
import type { DocOperation, OpenApiModel } from './types.ts';

export type CoverageState = 'valid' | 'invalid' | 'never';

export interface CoverageRow {
  /** `POST /v1/transfers/validate` */
  operation: string;
  /** the harness's name for it, when it calls it */
  key?: string;
  /** the documented status (`200`, `4XX`, `default`), or an answered status the document does not list */
  status: string;
  documented: boolean;
  /** answers judged valid / invalid against it */
  valid: number;
  invalid: number;
  state: CoverageState;
}

export interface CoverageTable {
  /** the document as the profile names it */
  source: string;
  rows: CoverageRow[];
  /** operations of the document the run never called */
  notCalled: string[];
  /** answers to a path or method the document does not describe (not judged) */
  unmatched: number;
}

const nameOf = (op: DocOperation): string => `${op.method} ${op.path}`;

export class Coverage {
  private readonly counts = new Map<DocOperation, Map<string, { valid: number; invalid: number }>>();

  constructor(private readonly model: OpenApiModel) {}

  seen(op: DocOperation, status: string, valid: boolean): void {
    let byStatus = this.counts.get(op);
    if (!byStatus) this.counts.set(op, (byStatus = new Map()));
    let c = byStatus.get(status);
    if (!c) byStatus.set(status, (c = { valid: 0, invalid: 0 }));
    if (valid) c.valid++;
    else c.invalid++;
  }

  table(unmatched: number): CoverageTable {
    const rows: CoverageRow[] = [];
    for (const op of this.model.operations) {
      const byStatus = this.counts.get(op) ?? new Map<string, { valid: number; invalid: number }>();
      const documented = op.responses.map((r) => r.status);
      const statuses = [...documented, ...[...byStatus.keys()].filter((s) => !documented.includes(s)).sort()];
      for (const status of statuses) {
        const c = byStatus.get(status) ?? { valid: 0, invalid: 0 };
        rows.push({
          operation: nameOf(op),
          ...(op.key ? { key: op.key } : {}),
          status: status === 'DEFAULT' ? 'default' : status,
          documented: documented.includes(status),
          valid: c.valid,
          invalid: c.invalid,
          state: c.invalid > 0 ? 'invalid' : c.valid > 0 ? 'valid' : 'never',
        });
      }
    }
    const notCalled = this.model.operations.filter((op) => !this.counts.has(op)).map(nameOf);
    return { source: this.model.source, rows, notCalled, unmatched };
  }
}
