/** ERR-05 leak patterns: each kind is found, and ordinary error messages are not flagged. */
import { describe, expect, it } from 'vitest';
import { bodyLeaks, headerLeaks, pageLeaks } from '../../suites/errors/leaks.ts';

const kinds = (text: string): string[] => [...new Set(bodyLeaks(text).map((l) => l.kind))].sort();

describe('bodyLeaks', () => {
  it.each([
    [
      'node stack',
      'boom\n    at TransferService.handle (/srv/bank/app/dist/transfers/service.js:214:17)',
      'stack-trace',
    ],
    ['node stack without function', 'at /app/server.js:10:5', 'stack-trace'],
    ['java stack', 'at com.bank.transfers.Service.create(Service.java:88)', 'stack-trace'],
    ['python traceback', 'Traceback (most recent call last):\n  File "/opt/app/main.py", line 4', 'stack-trace'],
    ['.NET stack', 'in C:\\src\\Bank\\Transfers.cs:line 42', 'stack-trace'],
    ['unix path', 'cannot open /home/deploy/config.yml', 'file-path'],
    ['source location', 'failed in transfers/service.ts:12:3', 'file-path'],
    ['windows path', 'see C:\\inetpub\\wwwroot\\web.config', 'file-path'],
    ['upper-case SQL', 'query failed: SELECT * FROM transfers WHERE id = 1', 'sql'],
    ['ORM SQL', 'select t0.id, t0.amount from transfers t0', 'sql'],
    ['oracle', 'ORA-00942: table or view does not exist', 'sql'],
    ['sqlstate', 'SQLSTATE[23000]: Integrity constraint violation', 'sql'],
    ['java exception', 'java.lang.NullPointerException', 'exception-class'],
    ['js error class', 'TypeError: Cannot read properties of undefined', 'exception-class'],
    ['framework version', 'powered by Express 4.18.2', 'server-version'],
    ['server version', 'Apache/2.4.57 (Unix) Server at bank Port 443', 'server-version'],
  ])('finds %s', (_, text, kind) => {
    expect(kinds(text)).toContain(kind);
  });

  it.each([
    'beneficiary_id is missing',
    'The required property amount.value is missing from the request.',
    'The method DELETE is not allowed for this resource.',
    'No resource exists at this path.',
    'The sealed request body was refused: payload: not valid JSON (at offset 61).',
    'Please select an account from the list and retry at a later time (in 10:30).',
    'See https://developer.bank.example/app/docs/errors for the list of codes.',
    'No resource exists at /app/v1/transfers/x.',
    'The path /srv/api/transfers is not served here.',
    'The access token is malformed, unknown, expired or revoked.',
    'The property amount.currency is invalid: it is not in the currency code list.',
  ])('does not flag %j', (text) => {
    expect(bodyLeaks(text)).toEqual([]);
  });
});

describe('headerLeaks', () => {
  it('flags a versioned Server header and any X-Powered-By', () => {
    expect(
      headerLeaks({ server: 'nginx/1.25.3', 'x-powered-by': 'Express' })
        .map((l) => l.where)
        .sort(),
    ).toEqual(['header server', 'header x-powered-by']);
  });
  it('accepts a Server header without a version and ordinary headers', () => {
    expect(
      headerLeaks({
        server: 'bank-gateway',
        'content-type': 'application/json',
        allow: 'GET, PUT',
        'retry-after': '3600',
        via: '1.1 gateway, 1.1 edge (proxy)',
      }),
    ).toEqual([]);
  });
  it('flags a Server header that names software without a version', () => {
    expect(headerLeaks({ server: 'Apache' }).map((l) => l.kind)).toEqual(['server-version']);
  });
});

describe("pageLeaks: a gateway's page (a 429 or 503 in HTML)", () => {
  it('only its software and version are exempt: nginx names itself on its own page', () => {
    const nginx =
      '<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n';
    expect(pageLeaks(nginx)).toEqual([]);
  });
  it('a traceback and a file path on such a page leak, whatever its status and content type', () => {
    const crash =
      '<html><body><pre>Traceback (most recent call last):\n  File "/opt/bank/app/transfers.py", line 88, in validate\n</pre><hr>gunicorn/21.2.0</body></html>';
    expect(pageLeaks(crash).map((l) => `${l.kind}: ${l.excerpt}`)).toEqual([
      'stack-trace: Traceback (most recent call last)',
      'file-path: "/opt/bank/app/transfers.py',
    ]);
  });
});
