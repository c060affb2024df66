import { readFileSync } from "node:fs";
import path from "node:path";

export type SiteOptions = {
  serverName: string;
  httpsPort: number;
  httpPort: number;
  certificate: string;
  certificateKey: string;
  upstreamPorts: [number, number];
};

/**
 * deploy/nginx/esign-partner.conf with the values a machine-local run must change (ports, name, certificate)
 * and nothing else, so tests and benches exercise the shipped file. Fails if the file no longer holds a value
 * it expects to replace.
 */
export function renderNginxSite(options: SiteOptions): string {
  let site = readFileSync(path.join(import.meta.dirname, "esign-partner.conf"), "utf8");
  const replace = (from: string, to: string) => {
    if (!site.includes(from)) throw new Error(`deploy/nginx/esign-partner.conf no longer contains "${from}"`);
    site = site.split(from).join(to);
  };
  replace("listen 443 ssl http2;", `listen 127.0.0.1:${options.httpsPort} ssl http2;`);
  replace("listen [::]:443 ssl http2;", "");
  replace("listen 80;", `listen 127.0.0.1:${options.httpPort};`);
  replace("listen [::]:80;", "");
  replace("server_name partner.example.com;", `server_name ${options.serverName};`);
  replace("/etc/letsencrypt/live/partner.example.com/fullchain.pem", options.certificate);
  replace("/etc/letsencrypt/live/partner.example.com/privkey.pem", options.certificateKey);
  replace("server 127.0.0.1:3000 ", `server 127.0.0.1:${options.upstreamPorts[0]} `);
  replace("server 127.0.0.1:3001 ", `server 127.0.0.1:${options.upstreamPorts[1]} `);
  return site;
}
