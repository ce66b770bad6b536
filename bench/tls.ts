/**
 * A throwaway certificate for the bench's HTTPS + HTTP/2 servers, made at bench time with the
 * openssl CLI (Node can read certificates but not make them). Chromium is told to trust exactly
 * this key by its SPKI hash (`--ignore-certificate-errors-spki-list`), for the bench's own
 * temporary profile only; the Node client trusts it as its only CA.
 */
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface BenchCert {
  key: string;
  cert: string;
  /** base64 SHA-256 of the DER SubjectPublicKeyInfo, the form Chromium's switch takes. */
  spki: string;
}

export async function throwawayCert(): Promise<BenchCert | { reason: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-tls-'));
  try {
    const keyFile = join(dir, 'key.pem');
    const certFile = join(dir, 'cert.pem');
    // ECDSA P-256, valid one day, for 127.0.0.1 only.
    // prettier-ignore
    const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile];
    execFileSync('openssl', args, { stdio: 'ignore' });
    const [key, cert] = await Promise.all([readFile(keyFile, 'utf8'), readFile(certFile, 'utf8')]);
    const der = new X509Certificate(cert).publicKey.export({ type: 'spki', format: 'der' });
    return { key, cert, spki: createHash('sha256').update(der).digest('base64') };
  } catch (e) {
    return { reason: `no throwaway certificate (openssl: ${String(e).slice(0, 120)})` };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
