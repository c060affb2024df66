import { envPort } from "../../scripts/lib/env-port";

/**
 * The extra app servers the deployment specs (and the visual spec, for a database outage) start themselves,
 * beside the config's webServers: each port from its own variable (defaults in 4650–4699, 4760–4762 and 4807–4813,
 * clear of the suite's defaults). The sandbox must accept their
 * callbacks and CORS origins, so playwright.config.ts reads this file too.
 */
export const deployPorts = {
  /** nginx, TLS: the public origin of the behind-a-proxy spec. */
  tlsProxy: envPort("E2E_TLS_PROXY_PORT", 4650),
  /** nginx, plain http → https redirect server. */
  tlsProxyHttp: envPort("E2E_TLS_PROXY_HTTP_PORT", 4651),
  /** The two app instances behind it. */
  tlsAppA: envPort("E2E_TLS_APP_A_PORT", 4652),
  tlsAppB: envPort("E2E_TLS_APP_B_PORT", 4653),
  /** The redis-server they share refresh coordination through, as a two-instance deployment must. */
  tlsRedis: envPort("E2E_TLS_REDIS_PORT", 4654),
  /** The standalone folder copied to an empty directory. */
  standaloneCopy: envPort("E2E_STANDALONE_COPY_PORT", 4655),
  /** The instance restarted with a rotated AUTH_SECRET. */
  secretRotation: envPort("E2E_SECRET_ROTATION_PORT", 4656),
  /** The instance SIGTERMed with a request in flight. */
  gracefulShutdown: envPort("E2E_SHUTDOWN_PORT", 4657),
  /** The instance under a second brand (BRAND_*). */
  branded: envPort("E2E_BRANDED_APP_PORT", 4658),
  /** The instance with small budgets, whose 429s the upload queue rides out. */
  rateLimited: envPort("E2E_RATE_LIMITED_APP_PORT", 4659),
  /** Its metrics listener: the database reads a flood of page requests did or did not cause. */
  rateLimitedMetrics: envPort("E2E_RATE_LIMITED_METRICS_PORT", 4762),
  /** The instance whose DATABASE_URL points at a port where nothing listens: the documents list's outage state. */
  documentsOutage: envPort("E2E_DOCUMENTS_OUTAGE_PORT", 4760),
  /** That dead database port. */
  documentsOutageDatabase: envPort("E2E_DOCUMENTS_OUTAGE_DB_PORT", 4761),
  /** The instance restarted on its embedded database, and the second process on the same folder (never listens). */
  embeddedRestart: envPort("E2E_EMBEDDED_RESTART_PORT", 4807),
  embeddedRestartSecond: envPort("E2E_EMBEDDED_RESTART_SECOND_PORT", 4808),
  /** The instance on the embedded database whose disk syncs are traced. */
  embeddedDurability: envPort("E2E_EMBEDDED_DURABILITY_PORT", 4809),
  /** The restore drill's instance (e2e/deploy/backup-restore.spec.ts), its /metrics, and its object stores. */
  backupDrill: envPort("E2E_BACKUP_DRILL_PORT", 4810),
  backupDrillMetrics: envPort("E2E_BACKUP_DRILL_METRICS_PORT", 4811),
  backupS3: envPort("E2E_BACKUP_S3_PORT", 4812),
  backupAzure: envPort("E2E_BACKUP_AZURE_PORT", 4813),
};

/** A public-looking name that Chromium maps to loopback (--host-resolver-rules); nothing else resolves it. */
export const PUBLIC_HOST = "partner.example.test";

export const deployUrls = {
  publicTls: `https://${PUBLIC_HOST}:${deployPorts.tlsProxy}`,
  standaloneCopy: `http://localhost:${deployPorts.standaloneCopy}`,
  secretRotation: `http://localhost:${deployPorts.secretRotation}`,
  gracefulShutdown: `http://localhost:${deployPorts.gracefulShutdown}`,
  branded: `http://localhost:${deployPorts.branded}`,
  documentsOutage: `http://localhost:${deployPorts.documentsOutage}`,
  embeddedRestart: `http://localhost:${deployPorts.embeddedRestart}`,
  rateLimited: `http://localhost:${deployPorts.rateLimited}`,
  embeddedDurability: `http://localhost:${deployPorts.embeddedDurability}`,
  backupDrill: `http://localhost:${deployPorts.backupDrill}`,
};
