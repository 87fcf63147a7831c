/**
 * Fault probes: ERR and XFER: the error body and the transfers operations.
 * Gathered by test/mock/faults.test.ts (every test/mock/probes-*.ts), which runs each without and with its fault.
 */
import { api, transferBody } from './helpers.ts';
import { type Probe, missingBeneficiary, tok, validate } from './probe-kit.ts';

export const PROBES: Record<string, Probe> = {
  // ERR
  'error-extra-member': async (x) => 'errors' in (await missingBeneficiary(x)),
  'error-status-number': async (x) => typeof (await missingBeneficiary(x)).status === 'number',
  'missing-property-not-named': async (x) => (await missingBeneficiary(x)).property !== 'beneficiary_id',
  'invalid-currency-accepted': async (x) =>
    (await validate(x, { amount: { value: '1.00', currency: 'XYZ' } })).status === 200,
  'nonpositive-amount-accepted': async (x) =>
    (await validate(x, { amount: { value: '0', currency: 'AED' } })).status === 200,
  'unknown-transfer-200': async (x) =>
    (await api(x.p, { method: 'GET', path: '/transfers/none', token: await tok(x) })).status === 200,
  'method-not-allowed-404': async (x) =>
    (await api(x.p, { method: 'DELETE', path: '/transfers/none', token: await tok(x) })).status === 404,
  'malformed-json-500': async (x) => {
    const raw = x.p.environment === 'uat' ? '{"a":' : '{"a":';
    return (
      (
        await api(x.p, {
          method: 'POST',
          path: '/transfers/validate',
          token: await tok(x),
          raw,
          headers: { 'Content-Type': 'application/json' },
        })
      ).status === 500
    );
  },
  'error-leaks-stack': async (x) =>
    /\.js:\d+/.test(
      String((await api(x.p, { method: 'GET', path: '/transfers/none', token: await tok(x) })).body.description),
    ),
  // XFER
  'validate-missing-debit-amount': async (x) => !('debit_amount' in (await validate(x)).body),
  'approvers-always': async (x) => 'approvers' in (await validate(x)).body,
  'create-no-reference': async (x) =>
    !(
      'payment_reference_id' in
      (
        await api(x.p, {
          method: 'PUT',
          path: `/transfers/r-${Math.random()}`.replace('0.', ''),
          token: await tok(x),
          body: transferBody(x.p),
        })
      ).body
    ),
  'get-no-status': async (x) => {
    const token = await tok(x);
    await api(x.p, { method: 'PUT', path: '/transfers/gs-1', token, body: transferBody(x.p) });
    return !('status' in (await api(x.p, { method: 'GET', path: '/transfers/gs-1', token })).body);
  },
  'put-not-idempotent': async (x) => {
    const token = await tok(x);
    const id = `/transfers/pi-${Date.now()}`;
    const a = await api(x.p, { method: 'PUT', path: id, token, body: transferBody(x.p) });
    const b = await api(x.p, { method: 'PUT', path: id, token, body: transferBody(x.p) });
    return a.body.payment_reference_id !== b.body.payment_reference_id;
  },
  'put-different-body-accepted': async (x) => {
    const token = await tok(x);
    const id = `/transfers/pd-${Date.now()}`;
    await api(x.p, { method: 'PUT', path: id, token, body: transferBody(x.p) });
    return (
      (await api(x.p, { method: 'PUT', path: id, token, body: transferBody(x.p, 0, { remarks: 'changed' }) }))
        .status === 200
    );
  },
  'read-only-honoured': async (x) =>
    (
      await api(x.p, {
        method: 'PUT',
        path: `/transfers/ro-${Date.now()}`,
        token: await tok(x),
        body: transferBody(x.p, 0, { status: 'COMPLETED' }),
      })
    ).body.status === 'COMPLETED',
  bola: async (x) => {
    const id = `/transfers/bo-${Date.now()}`;
    await api(x.p, { method: 'PUT', path: id, token: await tok(x), body: transferBody(x.p) });
    return (await api(x.p, { method: 'GET', path: id, token: await tok(x, 1) })).status === 200;
  },
  'api-key-not-required': async (x) =>
    (
      await api(x.p, {
        method: 'GET',
        path: '/transfers/none',
        token: await tok(x),
        headers: { 'X-Gateway-Client-Id': '' },
      })
    ).status === 404,
};
