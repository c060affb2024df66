import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type CryptoKey } from "jose";

export type StandInIssuer = {
  url: string;
  /** What discovery publishes as `issuer`: `url`, or `url/` when asked for a trailing slash. */
  issuer: string;
  /** The private half of the one key the issuer publishes (kid "k1"). */
  signingKey: CryptoKey;
  /** What `/connect/token` answers; tests set it before each call. */
  tokenAnswer: Record<string, unknown>;
  /** `/connect/token`'s status (200 unless a test sets another) and how long it waits before answering. */
  tokenStatus: number;
  tokenDelayMs: number;
  /** How many calls `/connect/token` has had. */
  tokenCalls: number;
  /** When set, `/jwks` answers this status instead of the keys (the key set cannot be fetched). */
  jwksFailure: number | undefined;
  /** Public keys `/jwks` publishes after k1's (a rotation: tests push the new key's JWK here). */
  additionalKeys: Record<string, unknown>[];
  /** When set, discovery publishes `/connect/revocation` (RFC 7009), which records each token it is sent. */
  publishRevocation: boolean;
  revokedTokens: string[];
  close(): Promise<void>;
};

/**
 * A stand-in auth server on a free loopback port: discovery, one RS256 signing key, and a token endpoint
 * answering whatever the test sets. Lets unit tests run the app's id_token and refresh code over real HTTP.
 */
export async function startStandInIssuer(options: { issuerWithTrailingSlash?: boolean } = {}): Promise<StandInIssuer> {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  let url = "";
  const issuer: StandInIssuer = {
    url,
    issuer: url,
    signingKey: privateKey,
    tokenAnswer: {},
    tokenStatus: 200,
    tokenDelayMs: 0,
    tokenCalls: 0,
    jwksFailure: undefined,
    additionalKeys: [],
    publishRevocation: false,
    revokedTokens: [],
    close: () => new Promise((r) => server.close(() => r())) };
  const server: Server = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.url === "/.well-known/openid-configuration") {
      const revocation = issuer.publishRevocation ? { revocation_endpoint: `${url}/connect/revocation` } : {};
      res.end(JSON.stringify({ issuer: issuer.issuer, jwks_uri: `${url}/jwks`, ...revocation }));
    } else if (req.url === "/connect/revocation") {
      let body = "";
      req.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      req.once("end", () => {
        const token = new URLSearchParams(body).get("token");
        if (token) issuer.revokedTokens.push(token);
        res.writeHead(200).end();
      });
    } else if (req.url === "/jwks") {
      if (issuer.jwksFailure) res.writeHead(issuer.jwksFailure).end("{}");
      else res.end(JSON.stringify({ keys: [jwk, ...issuer.additionalKeys] }));
    } else if (req.url === "/connect/token") {
      issuer.tokenCalls += 1;
      req.resume().once("end", () => {
        setTimeout(() => res.writeHead(issuer.tokenStatus).end(JSON.stringify(issuer.tokenAnswer)), issuer.tokenDelayMs);
      });
    }
    else res.writeHead(404).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  issuer.url = url;
  issuer.issuer = options.issuerWithTrailingSlash ? `${url}/` : url;
  return issuer;
}
