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
  };
  outcome: string;
}
