/** Test PKI, generated at run time (never committed). All PEM strings. */
export interface KeyPair {
  /** PKCS#8 PEM */
  privateKeyPem: string;
  /** SPKI PEM */
  publicKeyPem: string;
}
export interface Issued extends KeyPair {
  certPem: string;
  /** SHA-256 of the DER certificate, lower-case hex */
  sha256: string;
  subjectCN: string;
  notAfter: Date;
}
export interface TestPki {
  /** the bank's CA: issues the server certificate */
  bankCa: Issued;
  /** TLS server certificate: CN=localhost, SAN DNS:localhost, IP:127.0.0.1, RSA 2048, issued by bankCa */
  server: Issued;
  /** the bank's API-domain key pair (JWE decrypt, JWS sign), as a certificate issued by bankCa */
  bankApi: Issued;
  /** the CA the bank trusts for client certificates */
  partnerCa: Issued;
  /** registered 2048-bit client certificates, issued by partnerCa, one per client identity */
  clients: { code: Issued; partner: Issued; internal: Issued };
  /** negative client certificates (one key shared by expired, untrustedCa and unregistered: each is refused for its certificate) */
  negative: {
    /** RSA 1024, issued by partnerCa (registered by the mock for the `weak` test client) */
    weak1024: Issued;
    /** expired yesterday, issued by partnerCa */
    expired: Issued;
    /** 2048, issued by an untrusted CA */
    untrustedCa: Issued;
    /** 2048, issued by partnerCa, registered to no client */
    unregistered: Issued;
  };
  /** a CA the bank does not trust (the attacker's: its key is the attacker key) */
  untrustedCa: Issued;
  /** a key pair nobody registered (attacker); it also signs as untrustedCa */
  attacker: KeyPair;
}
