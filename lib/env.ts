import "server-only";
import { z } from "zod";
import { parseBackupConfig, type BackupConfig } from "@/lib/backup/backup-config";
import { parseBrand, type Brand } from "@/lib/brand/brand";
import { LOCALE_CODES, type Locale } from "@/lib/i18n/locales";
import { parseRateLimitConfig, type RateLimitConfig } from "@/lib/rate-limit/rate-limit-config";

/** Where the sandbox listens when nothing is configured (see docs/sandbox.md). */
export const SANDBOX_DEFAULTS = {
  ESIGN_AUTH_URL: "http://localhost:4000",
  // Server-to-server only, so the loopback address: "localhost" costs a resolution on every new connection.
  ESIGN_API_URL: "http://127.0.0.1:4001",
  ESIGN_CLIENT_ID: "partner-app",
  ESIGN_CLIENT_SECRET: "partner-app-secret",
  ESIGN_STORAGE_ORIGINS: "http://127.0.0.1:4002",
} as const;

/** Relative to the server's working directory: the project root for `npm run dev`, the standalone folder for `npm start`. */
export const DEFAULT_SESSION_STORE_DIR = ".data/sessions";
/** Where the embedded database (PGlite) keeps its files without DATABASE_URL; relative like the session store's. */
export const DEFAULT_DATABASE_DIR = ".data/db";

const CONFIDENTIAL_SCOPES = "openid profile email service.api offline_access";
// The shared development client may not ask for offline_access (spec, Authentication §4).
const PUBLIC_CLIENT_SCOPES = "openid email service.api";

const httpUrlText = (key: string) =>
  z
    .string({ error: `${key} is required` })
    .trim()
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), `${key} must be an http(s) URL`);

/** An http(s) URL without trailing slashes, so that paths can be appended. */
const httpUrl = (key: string) => httpUrlText(key).transform((v) => v.replace(/\/+$/, ""));

const originList = (key: string) =>
  z
    .string()
    .trim()
    .transform((v) => v.split(",").map((s) => s.trim()).filter(Boolean))
    .refine(
      (list) => list.every((o) => URL.canParse(o) && new URL(o).origin === o),
      `${key} must be a comma-separated list of origins like https://account.blob.core.windows.net`,
    );

const MIB = 1024 * 1024;

/** The spec leaves document types open; these are only suggestions in the form's free-text field. */
export const DEFAULT_DOCTYPE_SUGGESTIONS = ["contract", "agreement", "invoice", "nda", "offer", "policy", "form"];

const doctypeList = (key: string) =>
  z
    .string()
    .transform((v) => v.split(",").map((s) => s.trim()).filter(Boolean))
    .refine((list) => list.every((d) => d.length <= 100), `${key} must be a comma-separated list of document types, each at most 100 characters`);

/** A whole number of MiB in [min, max]. Block size ≤ 100 MiB: the limit of the oldest SAS versions still accepted. */
const mebibytes = (key: string, min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: `${key} must be a whole number of MiB from ${min} to ${max}` })
    .int(`${key} must be a whole number of MiB from ${min} to ${max}`)
    .min(min, `${key} must be a whole number of MiB from ${min} to ${max}`)
    .max(max, `${key} must be a whole number of MiB from ${min} to ${max}`)
    .default(fallback);

const wholeNumber = (key: string, min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: `${key} must be a whole number from ${min} to ${max}` })
    .int(`${key} must be a whole number from ${min} to ${max}`)
    .min(min, `${key} must be a whole number from ${min} to ${max}`)
    .max(max, `${key} must be a whole number from ${min} to ${max}`)
    .default(fallback);

/** One address of OPERATOR_EMAILS: something@domain, no spaces or second @ (the service verifies the address itself). */
const OPERATOR_EMAIL_PATTERN = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    ESIGN_USE_SANDBOX: z
      .enum(["true", "false", "1", "0", ""])
      .optional()
      .transform((v) => v === "true" || v === "1"),
    // Kept as written: it is also the issuer, which id_tokens must name exactly (with or without a trailing slash).
    ESIGN_AUTH_URL: httpUrlText("ESIGN_AUTH_URL").optional(),
    ESIGN_API_URL: httpUrl("ESIGN_API_URL").optional(),
    ESIGN_CLIENT_ID: z.string().trim().min(1, "ESIGN_CLIENT_ID must not be empty").optional(),
    ESIGN_CLIENT_SECRET: z.string().optional(),
    ESIGN_PUBLIC_CLIENT: z
      .enum(["true", "false", "1", "0", ""], { error: "ESIGN_PUBLIC_CLIENT must be true or false" })
      .optional()
      .transform((v) => v === "true" || v === "1"),
    ESIGN_TOKEN_AUTH_METHOD: z
      .enum(["client_secret_post", "client_secret_basic", "none"], {
        error: "ESIGN_TOKEN_AUTH_METHOD must be client_secret_post, client_secret_basic or none",
      })
      .optional(),
    ESIGN_SCOPES: z.string().trim().min(1, "ESIGN_SCOPES must not be empty").optional(),
    ESIGN_STORAGE_ORIGINS: originList("ESIGN_STORAGE_ORIGINS").optional(),
    ESIGN_DOCTYPE_SUGGESTIONS: doctypeList("ESIGN_DOCTYPE_SUGGESTIONS").optional(),
    ESIGN_REQUEST_TIMEOUT_MS: z.coerce
      .number({ error: "ESIGN_REQUEST_TIMEOUT_MS must be a number of milliseconds" })
      .int()
      .min(100, "ESIGN_REQUEST_TIMEOUT_MS must be at least 100")
      .max(120_000, "ESIGN_REQUEST_TIMEOUT_MS must be at most 120000")
      .default(10_000),
    ESIGN_UPLOAD_BLOCK_THRESHOLD_MIB: mebibytes("ESIGN_UPLOAD_BLOCK_THRESHOLD_MIB", 0, 5000, 64),
    ESIGN_UPLOAD_BLOCK_SIZE_MIB: mebibytes("ESIGN_UPLOAD_BLOCK_SIZE_MIB", 1, 100, 8),
    ESIGN_UPLOAD_BLOCK_CONCURRENCY: z.coerce
      .number({ error: "ESIGN_UPLOAD_BLOCK_CONCURRENCY must be a whole number from 1 to 6" })
      .int("ESIGN_UPLOAD_BLOCK_CONCURRENCY must be a whole number from 1 to 6")
      .min(1, "ESIGN_UPLOAD_BLOCK_CONCURRENCY must be a whole number from 1 to 6")
      .max(6, "ESIGN_UPLOAD_BLOCK_CONCURRENCY must be a whole number from 1 to 6 (browsers open at most six connections per host)")
      .default(4),
    // Comma-separated for rotation: the first encrypts new session cookies, every one decrypts (docs/operations.md, "Rotating AUTH_SECRET").
    AUTH_SECRET: z
      .string({ error: "AUTH_SECRET is required (generate one with `npx auth secret`; `npm run demo` writes one to .env.local)" })
      .transform((v) => v.split(",").map((s) => s.trim()).filter(Boolean))
      .refine((list) => list.length > 0, "AUTH_SECRET is required (generate one with `npx auth secret`)")
      .refine(
        (list) => list.every((s) => s.length >= 32),
        "AUTH_SECRET must be at least 32 characters, each one when several are listed (generate one with `npx auth secret`)",
      ),
    AUTH_URL: httpUrl("AUTH_URL").optional(),
    REDIS_URL: z
      .string()
      .trim()
      // Empty means unset, so a blank line in an env file keeps the in-memory store.
      .refine((v) => v === "" || (URL.canParse(v) && /^rediss?:$/.test(new URL(v).protocol)), "REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379")
      .optional(),
    SESSION_STORE_DIR: z.string().trim().min(1, "SESSION_STORE_DIR must not be empty").optional(),
    SESSION_IDLE_TIMEOUT_MINUTES: wholeNumber("SESSION_IDLE_TIMEOUT_MINUTES", 5, 60 * 24 * 30, 8 * 60),
    SESSION_MAX_AGE_HOURS: wholeNumber("SESSION_MAX_AGE_HOURS", 1, 24 * 365, 7 * 24),
    APP_DEFAULT_LOCALE: z
      .enum(LOCALE_CODES, {
        error: `APP_DEFAULT_LOCALE must be one of ${LOCALE_CODES.join(", ")} (the languages with a catalog in messages/)`,
      })
      .default("en"),
    DATABASE_URL: z
      .string()
      .trim()
      // Empty means unset, so a blank line in an env file keeps the embedded database.
      .refine(
        (v) => v === "" || (URL.canParse(v) && /^postgres(ql)?:$/.test(new URL(v).protocol)),
        "DATABASE_URL must be a postgres:// or postgresql:// URL, e.g. postgresql://app:secret@127.0.0.1:5432/app",
      )
      .optional(),
    DATABASE_DIR: z.string().trim().min(1, "DATABASE_DIR must not be empty").optional(),
    // Empty or unset: keep document records for as long as the database lives.
    DOCUMENT_RETENTION_DAYS: z
      .string()
      .trim()
      .refine((v) => v === "" || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 36_500), "DOCUMENT_RETENTION_DAYS must be a whole number of days from 1 to 36500, or empty to keep records")
      .optional(),
    // Empty or unset: nobody is an operator, and every operator page answers 404.
    OPERATOR_EMAILS: z
      .string()
      .optional()
      .transform((v, ctx) => {
        const emails = new Set<string>();
        for (const entry of (v ?? "").split(",")) {
          const email = entry.trim().toLowerCase();
          if (!email) continue;
          if (!OPERATOR_EMAIL_PATTERN.test(email)) {
            ctx.addIssue({ code: "custom", message: `OPERATOR_EMAILS: "${entry.trim()}" is not an email address (a comma-separated list of addresses, e.g. ops@example.com,lead@example.com)` });
            continue;
          }
          emails.add(email);
        }
        return emails as ReadonlySet<string>;
      }),
  });


const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

const isTrue = (value: string | undefined) => value === "true" || value === "1";

/** Rules that span several keys; checked on the raw values so they are reported alongside per-key problems. */
function crossKeyProblems(source: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  const production = source.NODE_ENV === "production";
  const sandboxRequested = isTrue(source.ESIGN_USE_SANDBOX);
  if (production) problems.push(...productionProblems(source, sandboxRequested));
  if (Boolean(source.ESIGN_AUTH_URL) !== Boolean(source.ESIGN_API_URL)) {
    problems.push("ESIGN_AUTH_URL and ESIGN_API_URL must be set together (leave both unset to use the sandbox)");
  }
  const method = source.ESIGN_TOKEN_AUTH_METHOD;
  if (method && method !== "none" && !source.ESIGN_CLIENT_SECRET) {
    problems.push(`ESIGN_TOKEN_AUTH_METHOD=${method} needs ESIGN_CLIENT_SECRET`);
  }
  if (isTrue(source.ESIGN_PUBLIC_CLIENT) && source.ESIGN_CLIENT_SECRET) {
    problems.push("ESIGN_PUBLIC_CLIENT=true and ESIGN_CLIENT_SECRET contradict each other: a public client has no secret");
  }
  return problems;
}

/**
 * What the guide's production table (docs/configuration.md, "In production") marks as required, one line per key.
 * ESIGN_USE_SANDBOX=true (demos, e2e) keeps the sandbox's defaults for the service keys; AUTH_URL is
 * required either way, because without it URLs and cookie names would come from request headers.
 */
function productionProblems(source: Record<string, string | undefined>, sandboxRequested: boolean): string[] {
  const problems: string[] = [];
  const orSandbox = "(or set ESIGN_USE_SANDBOX=true to run the demo against the sandbox)";
  if (!source.AUTH_URL?.trim()) {
    problems.push("AUTH_URL is required in production: the app's public https origin, e.g. https://partner.example.com");
  } else if (URL.canParse(source.AUTH_URL.trim())) {
    const { protocol, hostname } = new URL(source.AUTH_URL.trim());
    if (protocol === "http:" && !LOOPBACK_HOSTS.has(hostname)) {
      problems.push(
        `AUTH_URL must be https in production (got ${source.AUTH_URL.trim()}): over plain http the session cookie is neither Secure nor __Secure-; only localhost may use http`,
      );
    }
  }
  if (sandboxRequested) return problems;
  for (const key of ["ESIGN_AUTH_URL", "ESIGN_API_URL", "ESIGN_CLIENT_ID"]) {
    if (!source[key]) problems.push(`${key} is required in production ${orSandbox}`);
  }
  if (!source.ESIGN_CLIENT_SECRET && !isTrue(source.ESIGN_PUBLIC_CLIENT)) {
    problems.push(
      "ESIGN_CLIENT_SECRET is required in production (or set ESIGN_PUBLIC_CLIENT=true for a public client: no refresh tokens, so every session ends when its access token expires)",
    );
  }
  if (source.ESIGN_CLIENT_SECRET === SANDBOX_DEFAULTS.ESIGN_CLIENT_SECRET) {
    problems.push("ESIGN_CLIENT_SECRET is the sandbox's public demo secret; production needs the real one");
  }
  const storage = (source.ESIGN_STORAGE_ORIGINS ?? "").split(",").map((o) => o.trim()).filter(Boolean);
  if (storage.length === 0) {
    problems.push(`ESIGN_STORAGE_ORIGINS is required in production: the https blob origins uploads go to, e.g. https://account.blob.core.windows.net`);
  }
  const plainHttpStorage = storage.filter((o) => o.startsWith("http:"));
  if (plainHttpStorage.length > 0) {
    problems.push(`ESIGN_STORAGE_ORIGINS must use https in production (found ${plainHttpStorage.join(", ")})`);
  }
  return problems;
}

export type AppConfig = {
  /** ESIGN_AUTH_URL without trailing slashes, for building endpoint URLs. */
  authUrl: string;
  /** ESIGN_AUTH_URL exactly as configured: the issuer that discovery publishes and id_tokens name. */
  issuer: string;
  apiUrl: string;
  clientId: string;
  /** Absent for a public client (the shared development client): PKCE alone protects the code. */
  clientSecret: string | undefined;
  tokenAuthMethod: "client_secret_post" | "client_secret_basic" | "none";
  scopes: string;
  storageOrigins: string[];
  doctypeSuggestions: string[];
  requestTimeoutMs: number;
  /** Files above `thresholdBytes` go up as staged blocks (docs/documents.md explains the numbers). */
  uploadBlocks: { thresholdBytes: number; blockSize: number; concurrency: number };
  /** The first encrypts session cookies; all of them decrypt (rotation). */
  authSecrets: string[];
  usesSandbox: boolean;
  /** Set when several instances share the session store through Redis (lib/session/redis-session-store.ts). */
  redisUrl: string | undefined;
  /** Server-side sessions: where the embedded store keeps them (without Redis), and how long they live. */
  sessions: { storeDir: string; idleTimeoutMs: number; maxAgeMs: number };
  /** The partner's name, logo, colour and support contact (BRAND_*), or today's brand. */
  brand: Brand;
  /** The language for a visitor who chose none and whose browser asks for none the app has (APP_DEFAULT_LOCALE). */
  defaultLocale: Locale;
  /**
   * The document records (lib/db): PostgreSQL when `url` is set (DATABASE_URL, shared by every instance), otherwise
   * the embedded PGlite in `dir` (one instance only). `retentionDays` undefined keeps records.
   */
  database: { url: string | undefined; dir: string; retentionDays: number | undefined };
  /** Budgets per user and per client address (RATE_LIMIT_*), and the proxies whose X-Forwarded-For is believed. */
  rateLimits: RateLimitConfig;
  /**
   * Who may open the operator pages (OPERATOR_EMAILS, lower-cased): matched against the email the service marked
   * verified at the user's sign-in (lib/operators/operator-access.ts). Empty: nobody.
   */
  operatorEmails: ReadonlySet<string>;
  /** Backups of the embedded database (BACKUP_*, lib/backup): where, how many, when, with which key. */
  backups: BackupConfig;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Parses configuration from an env-like record; throws ConfigError listing every bad or missing key. */
export function parseConfig(source: Record<string, string | undefined>): AppConfig {
  const parsed = schema.safeParse(source);
  const { brand, problems: brandProblems } = parseBrand(source);
  const { config: rateLimits, problems: rateLimitProblems } = parseRateLimitConfig(source);
  const { config: backups, problems: backupProblems } = parseBackupConfig(source, backupContextOf(source));
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((i) => i.message)),
    ...crossKeyProblems(source),
    ...brandProblems,
    ...rateLimitProblems,
    ...backupProblems,
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const env = parsed.data;
  // ESIGN_USE_SANDBOX lets tests and demos point at a sandbox on other ports and keep its demo client.
  const usesSandbox = env.ESIGN_USE_SANDBOX || (!env.ESIGN_AUTH_URL && !env.ESIGN_API_URL);
  const clientId = env.ESIGN_CLIENT_ID ?? SANDBOX_DEFAULTS.ESIGN_CLIENT_ID;
  // The sandbox's confidential client gets its demo secret by default; any other client is public unless a secret is set.
  const clientSecret =
    env.ESIGN_CLIENT_SECRET ||
    (usesSandbox && clientId === SANDBOX_DEFAULTS.ESIGN_CLIENT_ID ? SANDBOX_DEFAULTS.ESIGN_CLIENT_SECRET : undefined);
  return {
    authUrl: (env.ESIGN_AUTH_URL ?? SANDBOX_DEFAULTS.ESIGN_AUTH_URL).replace(/\/+$/, ""),
    issuer: env.ESIGN_AUTH_URL ?? SANDBOX_DEFAULTS.ESIGN_AUTH_URL,
    apiUrl: env.ESIGN_API_URL ?? SANDBOX_DEFAULTS.ESIGN_API_URL,
    clientId,
    clientSecret,
    tokenAuthMethod: clientSecret ? (env.ESIGN_TOKEN_AUTH_METHOD ?? "client_secret_post") : "none",
    scopes: env.ESIGN_SCOPES ?? (clientSecret ? CONFIDENTIAL_SCOPES : PUBLIC_CLIENT_SCOPES),
    storageOrigins:
      env.ESIGN_STORAGE_ORIGINS ?? (usesSandbox ? [SANDBOX_DEFAULTS.ESIGN_STORAGE_ORIGINS] : []),
    doctypeSuggestions: env.ESIGN_DOCTYPE_SUGGESTIONS ?? DEFAULT_DOCTYPE_SUGGESTIONS,
    requestTimeoutMs: env.ESIGN_REQUEST_TIMEOUT_MS,
    uploadBlocks: {
      thresholdBytes: env.ESIGN_UPLOAD_BLOCK_THRESHOLD_MIB * MIB,
      blockSize: env.ESIGN_UPLOAD_BLOCK_SIZE_MIB * MIB,
      concurrency: env.ESIGN_UPLOAD_BLOCK_CONCURRENCY,
    },
    authSecrets: env.AUTH_SECRET,
    usesSandbox,
    redisUrl: env.REDIS_URL || undefined,
    sessions: {
      storeDir: env.SESSION_STORE_DIR ?? DEFAULT_SESSION_STORE_DIR,
      idleTimeoutMs: env.SESSION_IDLE_TIMEOUT_MINUTES * 60_000,
      maxAgeMs: env.SESSION_MAX_AGE_HOURS * 3_600_000,
    },
    brand,
    defaultLocale: env.APP_DEFAULT_LOCALE,
    database: databaseConfigOf(env),
    rateLimits,
    operatorEmails: env.OPERATOR_EMAILS,
    backups,
  };
}

/**
 * Backups are the app's job only on the embedded database; production then needs BACKUP_TARGET (or `none`). A demo
 * against the sandbox (ESIGN_USE_SANDBOX=true) counts as no production here, as for the service keys.
 */
function backupContextOf(source: Record<string, string | undefined>): { production: boolean; embedded: boolean } {
  return { production: source.NODE_ENV === "production" && !isTrue(source.ESIGN_USE_SANDBOX), embedded: !source.DATABASE_URL?.trim() };
}

function databaseConfigOf(env: Pick<z.infer<typeof schema>, "DATABASE_URL" | "DATABASE_DIR" | "DOCUMENT_RETENTION_DAYS">): AppConfig["database"] {
  return {
    url: env.DATABASE_URL || undefined,
    dir: env.DATABASE_DIR ?? DEFAULT_DATABASE_DIR,
    retentionDays: env.DOCUMENT_RETENTION_DAYS ? Number(env.DOCUMENT_RETENTION_DAYS) : undefined,
  };
}

/**
 * Only the database keys, for `npm run db:migrate`, which an operator may run with nothing else configured;
 * throws ConfigError like parseConfig.
 */
export function parseDatabaseConfig(source: Record<string, string | undefined>): AppConfig["database"] {
  const parsed = schema.pick({ DATABASE_URL: true, DATABASE_DIR: true, DOCUMENT_RETENTION_DAYS: true }).safeParse(source);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => i.message));
  return databaseConfigOf(parsed.data);
}

/**
 * The database and backup keys only, for `npm run backup` and `npm run restore`, which an operator may run with
 * nothing else configured; throws ConfigError like parseConfig.
 */
export function parseBackupToolConfig(source: Record<string, string | undefined>): { database: AppConfig["database"]; backups: BackupConfig } {
  const { config: backups, problems } = parseBackupConfig(source, { ...backupContextOf(source), production: false });
  const database = parseDatabaseConfig(source);
  if (problems.length > 0) throw new ConfigError(problems);
  return { database, backups };
}

let cached: AppConfig | undefined;

/** The validated configuration of this process (parsed once, on first use). */
export function getConfig(): AppConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
