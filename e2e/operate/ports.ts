import { envPort } from "../../scripts/lib/env-port";

/**
 * Ports of the operations specs (e2e/operate/), each overridable and each spec its own, since spec files run in
 * parallel: Prometheus 4690–4698, tracing 4670–4674, clear of the others.
 */
export const operatePorts = {
  redis: envPort("OPERATE_E2E_REDIS_PORT", 4690),
  auth: envPort("OPERATE_E2E_AUTH_PORT", 4691),
  api: envPort("OPERATE_E2E_API_PORT", 4692),
  blob: envPort("OPERATE_E2E_BLOB_PORT", 4693),
  appA: envPort("OPERATE_E2E_APP_A_PORT", 4694),
  appB: envPort("OPERATE_E2E_APP_B_PORT", 4695),
  metricsA: envPort("OPERATE_E2E_METRICS_A_PORT", 4696),
  metricsB: envPort("OPERATE_E2E_METRICS_B_PORT", 4697),
  prometheus: envPort("OPERATE_E2E_PROMETHEUS_PORT", 4698),
};

/** The tracing spec's sandbox, app instance and OTLP receiver. */
export const tracingPorts = {
  auth: envPort("TRACING_E2E_AUTH_PORT", 4670),
  api: envPort("TRACING_E2E_API_PORT", 4671),
  blob: envPort("TRACING_E2E_BLOB_PORT", 4672),
  appA: envPort("TRACING_E2E_APP_PORT", 4673),
  otlp: envPort("TRACING_E2E_OTLP_PORT", 4674),
};
