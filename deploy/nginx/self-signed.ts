import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { findSystemBinary } from "../../scripts/lib/system-binary";

/** A throw-away self-signed certificate for `host` (tests and benches on loopback only). */
export function makeSelfSignedCertificate(host: string): { certificate: string; certificateKey: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "esign-tls-"));
  const certificate = path.join(dir, "cert.pem");
  const certificateKey = path.join(dir, "key.pem");
  execFileSync(
    findSystemBinary("openssl", "openssl"),
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", `/CN=${host}`, "-addext", `subjectAltName=DNS:${host}`, "-keyout", certificateKey, "-out", certificate],
    { stdio: "ignore" },
  );
  return { certificate, certificateKey };
}
