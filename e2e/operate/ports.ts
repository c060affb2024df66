/**
 * Ports of the operations specs (e2e/operate/), each overridable and each spec its own, since spec files run in
 * parallel: Prometheus 4690–4698, tracing 4670–4674, clear of the others.
 */
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export const operatePorts = {
  redis: port("OPERATE_E2E_REDIS_PORT", 4690),
  auth: port("OPERATE_E2E_AUTH_PORT", 4691),
  api: port("OPERATE_E2E_API_PORT", 4692),
  blob: port("OPERATE_E2E_BLOB_PORT", 4693),
  appA: port("OPERATE_E2E_APP_A_PORT", 4694),
  appB: port("OPERATE_E2E_APP_B_PORT", 4695),
  metricsA: port("OPERATE_E2E_METRICS_A_PORT", 4696),
  metricsB: port("OPERATE_E2E_METRICS_B_PORT", 4697),
  prometheus: port("OPERATE_E2E_PROMETHEUS_PORT", 4698),
};

/** The tracing spec's sandbox, app instance and OTLP receiver. */
export const tracingPorts = {
  auth: port("TRACING_E2E_AUTH_PORT", 4670),
  api: port("TRACING_E2E_API_PORT", 4671),
  blob: port("TRACING_E2E_BLOB_PORT", 4672),
  appA: port("TRACING_E2E_APP_PORT", 4673),
  otlp: port("TRACING_E2E_OTLP_PORT", 4674),
};
