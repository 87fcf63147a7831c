/**
 * Request builders of the load scripts: plain functions of the data file (no k6 import), so that they are unit
 * tested in Node (test/load) and bundled into the k6 script by esbuild.
 */
import type { LoadData } from '../lib/data/load.ts';

export interface LoadRequest {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  body?: string;
  headers: Record<string, string>;
  /** the operation, for tags and checks */
  name: 'authorize' | 'token' | 'validate' | 'create' | 'get';
}

export function authorizeRequest(d: LoadData, vu: number): LoadRequest {
  if (d.authorizeUrls.length === 0) throw new Error('load data: no authorize URL');
  return { method: 'GET', url: d.authorizeUrls[vu % d.authorizeUrls.length]!, headers: {}, name: 'authorize' };
}

/** the authorization code of an /authorize redirect (Location header), if any */
export function codeFromLocation(location: string | undefined): string | undefined {
  const m = location ? /[?&]code=([^&#]+)/.exec(location) : null;
  return m ? decodeURIComponent(m[1]!.replace(/\+/g, ' ')) : undefined;
}

/** the token request of the customer sign-in API (plain form and Basic auth, in UAT too) */
export function tokenRequest(d: LoadData, code: string, basicAuth: string): LoadRequest {
  const form = `grant_type=authorization_code&code=${encodeURIComponent(code)}&redirect_uri=${encodeURIComponent(d.redirectUri)}`;
  return {
    method: 'POST',
    url: d.urls.token,
    body: form,
    headers: {
      authorization: `Basic ${basicAuth}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    name: 'token',
  };
}

function apiHeaders(d: LoadData, token: string, body: boolean): Record<string, string> {
  return {
    accept: 'application/json',
    authorization: `Bearer ${token}`,
    'x-gateway-client-id': d.clientId,
    ...(body ? { 'content-type': 'application/json' } : {}),
  };
}

function bodyOf(d: LoadData, i: number): string {
  if (d.bodies.length === 0) throw new Error('load data: no transfer body');
  return JSON.stringify(d.bodies[i % d.bodies.length]);
}

export function validateRequest(d: LoadData, token: string, i: number): LoadRequest {
  return {
    method: 'POST',
    url: d.urls.validate,
    body: bodyOf(d, i),
    headers: apiHeaders(d, token, true),
    name: 'validate',
  };
}

export function transferUrl(d: LoadData, transferId: string): string {
  return d.urls.transfer.replace('{transfer_id}', encodeURIComponent(transferId));
}

export function createRequest(d: LoadData, token: string, transferId: string, i: number): LoadRequest {
  return {
    method: 'PUT',
    url: transferUrl(d, transferId),
    body: bodyOf(d, i),
    headers: apiHeaders(d, token, true),
    name: 'create',
  };
}

export function getRequest(d: LoadData, token: string, transferId: string): LoadRequest {
  return { method: 'GET', url: transferUrl(d, transferId), headers: apiHeaders(d, token, false), name: 'get' };
}

/** a transfer id unique per VU and iteration (and per run, by the start time) */
export function loadTransferId(runId: string, vu: number, iter: number): string {
  return `LOAD-${runId}-${vu}-${iter}`;
}
