/** One certificate of a presented chain, as kept in evidence. */
export interface ChainCertificate {
  subject: string;
  issuer: string;
  validFrom: string;
  validTo: string;
  sha256: string;
}

/** What a TLS handshake showed, as kept in a check's evidence. */
export interface TlsEvidence {
  label: string;
  protocol?: string | null;
  cipher?: string | null;
  authorized?: boolean;
  authorizationError?: string | null;
  peerCertificate?: {
    subject: string;
    issuer: string;
    validFrom: string;
    validTo: string;
    sha256: string;
    keyBits?: number;
    /** the subjectAltName extension as OpenSSL prints it, e.g. "DNS:localhost, IP Address:127.0.0.1" */
    subjectAltName?: string;
    /** rsa, ec, ed25519, ... */
    keyType?: string;
    /** the chain the server presented, leaf first (server-certificate inspection only) */
    chain?: ChainCertificate[];
  };
  outcome: string;
}
