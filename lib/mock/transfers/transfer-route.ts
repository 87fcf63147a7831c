/** Routing of the transfers API: the path below the basepath and the method give the operation, 404 or 405. */
import type { Operation } from './quota.ts';

export interface Route {
  op: Operation;
  transferId?: string;
}

export type RouteResult = Route | 'not-found' | { allow: string };

/**
 * `rest` is the path below the basepath, e.g. /transfers/abc. Lenient: GET /transfers/validate is read as the GET
 * of a transfer named "validate" (a router that resolves /transfers/{id} first), which is then not found.
 */
export function matchRoute(rest: string, method: string, lenient = false): RouteResult {
  const m = /^\/transfers\/([^/]+)$/.exec(rest);
  if (!m) return 'not-found';
  if (m[1] === 'validate' && !(lenient && method === 'GET'))
    return method === 'POST' ? { op: 'validate' } : { allow: 'POST' };
  let id: string;
  try {
    id = decodeURIComponent(m[1]!);
  } catch {
    return 'not-found';
  }
  if (method === 'GET') return { op: 'get', transferId: id };
  if (method === 'PUT') return { op: 'create', transferId: id };
  return { allow: 'GET, PUT' };
}

/** a method name is the caller's text: keep it short and harmless before putting it into a description */
export function sanitize(s: string): string {
  return s.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 16);
}
