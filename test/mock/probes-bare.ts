/**
 * Fault probes: the bank's own answers that look like a gateway's throttle (a bare 429, a 429 asking for the rest of
 * the hour, a 503 page holding a crash's traceback). Gathered by test/mock/faults.test.ts.
 */
import { api } from './helpers.ts';
import { type Probe, gets, internalToken, tok } from './probe-kit.ts';

export const PROBES: Record<string, Probe> = {
  // the 101st call: 429, no Retry-After, an empty body
  'quota-refusal-bare': async (x) => {
    const t = await internalToken(x);
    await gets(x, t, 100);
    const r = await api(x.p, { method: 'GET', path: '/transfers/over', token: t, client: x.p.clients.internal! });
    return r.status === 429 && r.res.headers['retry-after'] === undefined && r.res.text === '';
  },
  // the 51st call: 429 asking for more than 50 minutes, an empty body
  'quota-early-long-wait': async (x) => {
    const t = await internalToken(x);
    const first = await gets(x, t, 51);
    const r = await api(x.p, { method: 'GET', path: '/transfers/over', token: t, client: x.p.clients.internal! });
    return first[50] === 429 && Number(r.res.headers['retry-after']) > 3000 && r.res.text === '';
  },
  // a cut JSON body: 503, an HTML page naming a Python source file
  'malformed-json-503-traceback': async (x) => {
    const r = await api(x.p, {
      method: 'POST',
      path: '/transfers/validate',
      token: await tok(x),
      raw: '{"amount": ',
      headers: { 'Content-Type': 'application/json' },
    });
    return (
      r.status === 503 && /^text\/html/.test(r.res.headers['content-type'] ?? '') && /\.py", line \d+/.test(r.res.text)
    );
  },
};
