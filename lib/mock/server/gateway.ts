/**
 * A gateway that throttles in front of the bank (MockOptions.throttle), as nginx's `limit_req`, AWS API Gateway and
 * many others do: a token bucket per source address (nginx keys `limit_req` on the client's address), refilled at
 * `perSecond`, holding `burst` + 1 calls at most. A call that finds the bucket empty never reaches the bank (the
 * quota does not count it): the gateway answers it with the status (429 by default, or 503), no Retry-After, and
 * its own HTML page naming its software, as nginx's default error page does. This is not the contract's quota
 * answer (docs/contract.md "Quotas": Retry-After and the error body); the spike arrest of quota.ts is.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { normaliseAddress } from './http.ts';
import type { ThrottleOptions } from '../types.ts';
import { realWaits, type Waits } from '../../waits.ts';

/** nginx's default error page of a status (its exact text, software and version included) */
export function gatewayPage(status: 429 | 503): string {
  const title = status === 429 ? '429 Too Many Requests' : '503 Service Temporarily Unavailable';
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n`;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class Gateway {
  private readonly buckets = new Map<string, Bucket>();
  /** calls the gateway refused (for selftests) */
  refused = 0;
  constructor(
    private readonly o: ThrottleOptions,
    /** the time the bucket refills by (MockOptions.waits) */
    private readonly waits: Waits = realWaits,
  ) {}

  /** one call of `source` now: admitted (a token taken) or not */
  admit(source: string, now = this.waits.now()): boolean {
    const capacity = 1 + Math.max(0, Math.floor(this.o.burst ?? 0));
    const b = this.buckets.get(source) ?? { tokens: capacity, at: now };
    b.tokens = Math.min(capacity, b.tokens + ((now - b.at) / 1000) * this.o.perSecond);
    b.at = now;
    this.buckets.set(source, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  /**
   * lets the call through (false) or answers it as the gateway (true): the bank never sees it (node:http reads
   * and drops the request body, the connection is kept, as nginx keeps it)
   */
  refuse(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.admit(normaliseAddress(req.socket.remoteAddress))) return false;
    this.refused++;
    const status = this.o.status ?? 429;
    const page = gatewayPage(status);
    res.writeHead(status, {
      Server: 'nginx/1.22.1',
      'Content-Type': 'text/html',
      'Content-Length': String(Buffer.byteLength(page)),
    });
    res.end(page);
    return true;
  }
}
