/**
 * ERR-05: what an error BODY must never show (OWASP API Top 10, API8 security misconfiguration): stack traces,
 * source file locations and server paths, SQL, exception class names, server/framework names with versions.
 * HARD-05 (hardening, SHOULD): response headers that name server software or its version (`headerLeaks`).
 * A gateway's page (`isGatewayPage`: an HTML or other non-JSON body on a throttle or gateway status) is not the API's
 * error answer: nginx's own 429 page names "nginx/1.22.1" without the API leaking anything (`pageLeaks`: only that
 * version string is exempt; a traceback or a file path on such a page leaks); a Server header naming the gateway is
 * HARD-05's business all the same.
 * Pure functions, so that the patterns are unit-tested (test/errors/leaks.test.ts).
 */

export interface Leak {
  /** what kind of internal detail leaked */
  kind: 'stack-trace' | 'file-path' | 'sql' | 'exception-class' | 'server-version' | 'framework-header';
  /** where: "body" or "header <name>" */
  where: string;
  /** the matching text, clipped */
  excerpt: string;
}

/** server and framework names */
const SOFTWARE =
  /\b(?:Express|Apache|nginx|Tomcat|Jetty|Kestrel|Microsoft-IIS|IIS|Node\.?js|PHP|Spring(?: Boot)?|Django|Flask|Werkzeug|gunicorn|uvicorn|OpenSSL|WildFly|JBoss|WebLogic|WebSphere|Undertow|Netty|Rails|Ruby)\b/i;
/** server and framework names with a version */
const SOFTWARE_VERSION =
  /\b(?:Express|Apache|nginx|Tomcat|Jetty|Kestrel|Microsoft-IIS|IIS|Node\.?js|PHP|Spring(?: Boot)?|Django|Flask|Werkzeug|gunicorn|uvicorn|OpenSSL|WildFly|JBoss|WebLogic|WebSphere|Undertow|Netty|Rails|Ruby)[/\s-]?v?\d+(?:\.\d+)+/i;

const BODY_PATTERNS: readonly { kind: Leak['kind']; re: RegExp }[] = [
  // JavaScript "at fn (/path/file.js:12:3)", "at /path/file.js:12:3", Java "at com.x.Y.m(Y.java:12)", .NET "in C:\x.cs:line 12"
  {
    kind: 'stack-trace',
    re: /\bat\s+[\w$.<>[\]\s]{0,120}\((?:[^()\s]*[/\\][^()\s]*|[\w$.-]+\.[A-Za-z]+):\d+(?::\d+)?\)/,
  },
  { kind: 'stack-trace', re: /\bat\s+(?:file:\/\/)?\/[^\s:]+:\d+(?::\d+)?/ },
  { kind: 'stack-trace', re: /Traceback \(most recent call last\)|\bFile "[^"]+", line \d+/ },
  { kind: 'stack-trace', re: /\bin\s+[A-Za-z]:\\[^\n]*:line\s+\d+/ },
  { kind: 'stack-trace', re: /\bgoroutine \d+ \[|\bpanic: / },
  // server-side paths and source locations
  {
    kind: 'file-path',
    re: /(?:^|[\s"'(=:,[])\/(?:home|usr|var|opt|etc|tmp|root|workspace|build|dist|node_modules)\/[^\s"']*/,
  },
  { kind: 'file-path', re: /\b[A-Za-z]:\\(?:[^\\\s"']+\\)+[^\\\s"']*/ },
  { kind: 'file-path', re: /\b[\w./-]+\.(?:ts|js|mjs|cjs|java|kt|py|rb|php|go|cs|scala)(?::\d+)+/ },
  // SQL and database errors
  // upper-case SQL keywords (case-sensitive: "select an account from the list" is English), or an ORM's lower-case
  // "select t0.a, t0.b from t" (a column list)
  {
    kind: 'sql',
    re: /\bSELECT\s+[\w*.,\s"`]+\s+FROM\s+\w|\bINSERT\s+INTO\s+\w|\bUPDATE\s+\w+\s+SET\s|\bDELETE\s+FROM\s+\w/,
  },
  { kind: 'sql', re: /\bselect\s+[\w.*"`]+(?:\s*,\s*[\w.*"`]+)+\s+from\s+[\w."`]+/i },
  {
    kind: 'sql',
    re: /\bSQLSTATE\b|\bORA-\d{5}\b|syntax error at or near|\bSQLITE_[A-Z]+\b|\bER_[A-Z_]+\b|You have an error in your SQL syntax/,
  },
  // exception class names (language runtimes and frameworks)
  {
    kind: 'exception-class',
    re: /\b(?:[A-Z][a-z0-9]+)+Exception\b|\b(?:TypeError|ReferenceError|SyntaxError|RangeError|EvalError|URIError)\b/,
  },
  {
    kind: 'exception-class',
    re: /\bjava\.[a-z]+\.[A-Z]\w+|\bSystem\.[A-Z]\w+Exception\b|\borg\.(?:springframework|hibernate|apache)\.\w+/,
  },
  // server and framework names with a version
  { kind: 'server-version', re: SOFTWARE_VERSION },
];
/** Headers that name the software by their nature (any value is a leak under HARD-05). */
const FRAMEWORK_HEADERS = [
  'x-powered-by',
  'x-aspnet-version',
  'x-aspnetmvc-version',
  'x-runtime-version',
  'x-generator',
];
/**
 * Headers whose value may name server software: a leak when it has a version or a known product name. `Via` is not
 * one: it names the protocol and a pseudonym of the intermediary (RFC 9110 §7.6.3), e.g. `1.1 gateway`.
 */
const SERVER_HEADERS = ['server', 'x-server', 'x-backend-server'];

function clipText(s: string, n = 160): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n)}…` : one;
}

/** Leaks in a body text (an error document, as JSON text or plain text). */
export function bodyLeaks(text: string): Leak[] {
  const out: Leak[] = [];
  for (const { kind, re } of BODY_PATTERNS) {
    const m = re.exec(text);
    if (m) out.push({ kind, where: 'body', excerpt: clipText(m[0]) });
  }
  return out;
}

/**
 * Leaks in a gateway's page (isGatewayPage): its software and version are the gateway's own words (nginx's page names
 * "nginx/1.22.1"), not the API's; a stack trace, a server path, SQL or an exception class leak whatever the status and
 * the content type (a crash's page a 503 carries is the bank's).
 */
export function pageLeaks(text: string): Leak[] {
  return bodyLeaks(text).filter((l) => l.kind !== 'server-version');
}

/** HARD-05: response headers that name server software or its version (names lower-case). */
export function headerLeaks(headers: Record<string, string>): Leak[] {
  const out: Leak[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const n = name.toLowerCase();
    if (FRAMEWORK_HEADERS.includes(n))
      out.push({ kind: 'framework-header', where: `header ${n}`, excerpt: clipText(value) });
    else if (SERVER_HEADERS.includes(n) && (/\d+\.\d+/.test(value) || SOFTWARE.test(value)))
      out.push({ kind: 'server-version', where: `header ${n}`, excerpt: clipText(value) });
  }
  return out;
}

/** the statuses a gateway in front of the API answers with a page of its own: throttling, no or a bad upstream */
const GATEWAY_STATUSES = new Set([429, 502, 503, 504]);

/**
 * a gateway's page, not the API's error answer: a throttle or gateway status (429, 502, 503, 504, or the profile's
 * quota status) whose body is not JSON (the API answers errors with its JSON error body, sealed or not)
 */
export function isGatewayPage(status: number, text: string, quotaStatus = 429): boolean {
  if (!GATEWAY_STATUSES.has(status) && status !== quotaStatus) return false;
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}
