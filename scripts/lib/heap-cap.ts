/**
 * The V8 heap cap (MiB) each app instance runs with by default: `--max-old-space-size` in
 * deploy/systemd/esign-partner@.service and the Dockerfile (NODE_OPTIONS), and in `npm run demo:scale`.
 * tests/unit/heap-cap.test.ts keeps the three equal. Figures behind it: `npm run bench:memory`.
 */
export const DEFAULT_HEAP_CAP_MIB = 192;
