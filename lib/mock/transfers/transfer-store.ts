/** Transfers created through the API, namespaced by owner (client id + customer), plus a payment count. */
import { randomInt } from 'node:crypto';
import type { FaultSet } from '../fault-set.ts';
import { raceGap, raceGapOn } from '../race.ts';

export interface TransferRequest {
  beneficiary_id: string;
  amount: { value: string; currency: string };
  account_id?: string;
  emirates_id?: string;
  purpose_code?: string;
  remarks?: string;
}

export interface StoredTransfer {
  transferId: string;
  owner: string;
  request: TransferRequest;
  /** canonical JSON of the request: the idempotency comparison */
  fingerprint: string;
  paymentReferenceId: string;
  status: string;
  createdAt: string;
}

export function ownerKey(clientId: string, customerUuid: string): string {
  return `${clientId}|${customerUuid}`;
}

export function newPaymentReference(): string {
  let s = 'PRF';
  for (let i = 0; i < 12; i++) s += String(randomInt(0, 10));
  return s;
}

/** canonical JSON: keys sorted, so member order does not make two equal bodies differ */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export class TransferStore {
  private byKey = new Map<string, StoredTransfer>();
  /** payments initiated (a repeated idempotent PUT initiates none) */
  payments = 0;

  get(owner: string, transferId: string): StoredTransfer | undefined {
    return this.byKey.get(`${owner}|${transferId}`);
  }

  /**
   * The lookup before a create: the transfer at once (the caller stores in the same synchronous step), or, under
   * race-put-check-then-act, a Promise of it after a gap (the check-then-act race).
   */
  find(
    owner: string,
    transferId: string,
    faults: FaultSet,
  ): StoredTransfer | undefined | Promise<StoredTransfer | undefined> {
    const found = this.get(owner, transferId);
    return raceGapOn(faults, 'race-put-check-then-act') ? raceGap().then(() => found) : found;
  }

  /** any owner's transfer with this id (the `bola` and `put-other-customer-replaces` faults only) */
  anyOwner(transferId: string): StoredTransfer | undefined {
    for (const t of this.byKey.values()) if (t.transferId === transferId) return t;
    return undefined;
  }

  save(t: StoredTransfer, newPayment: boolean): void {
    this.byKey.set(`${t.owner}|${t.transferId}`, t);
    if (newPayment) this.payments++;
  }

  count(): number {
    return this.byKey.size;
  }
}
