import createNextIntlPlugin from "next-intl/plugin";

/**
 * next-intl (docs/languages.md): the request configuration, and the catalogs in messages/ precompiled at build
 * time, so the browser gets ready-made messages and a formatter without the ICU parser (~3.4 KiB instead of ~12).
 */
const withNextIntl = createNextIntlPlugin({
  requestConfig: "./lib/i18n/request.ts",
  experimental: { messages: { path: "./messages", format: "json", locales: "infer", precompile: true } },
});

/** Headers for every response, scripts and styles included: no type sniffing. */
const contentHeaders = [{ key: "X-Content-Type-Options", value: "nosniff" }];

/**
 * Headers that govern a document (referrer, framing, features, opener, HSTS): on everything but Next's hashed
 * static files, which are never documents and would otherwise carry ~260 bytes of them each (~3 KiB per page
 * load). The Content-Security-Policy (per-request nonce) is set in proxy.ts.
 */
const documentHeaders = [
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  // Browsers ignore HSTS over plain http, so it is safe to send from every production server.
  ...(process.env.NODE_ENV === "production"
    ? [{ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" }]
    : []),
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // A self-contained server folder (.next/standalone); scripts/complete-standalone-build.ts copies in the
  // static files Next leaves out. See docs/deployment.md.
  output: "standalone",
  poweredByHeader: false,
  // `npm test` runs `tsc --noEmit` over the same files before it builds, and sets this to skip Next's second pass
  // (~30 s here); so does `npm run demo`, which runs the app rather than checks it. Every other build (deploy,
  // `npm run build`) type-checks as usual.
  typescript: { ignoreBuildErrors: process.env.SKIP_BUILD_TYPECHECK === "1" },
  // Loaded from node_modules once per process rather than bundled into each route: one copy of the metrics and
  // tracing libraries (their state lives on globalThis too, see lib/metrics/registry.ts), and the standalone
  // folder gets them whole through file tracing.
  serverExternalPackages: [
    "prom-client",
    "@opentelemetry/api",
    "@opentelemetry/sdk-trace",
    "@opentelemetry/resources",
    "@opentelemetry/exporter-trace-otlp-http",
    // A native addon that require-addon finds at run time (prebuilds/<platform>-<arch>/): loaded from node_modules.
    "fs-native-extensions",
  ],
  // fs-native-extensions' addon (the embedded folders' lock) is found at run time by require-addon, which file tracing
  // cannot follow: ship its prebuilt .node files with every server route.
  outputFileTracingIncludes: { "/**": ["./node_modules/fs-native-extensions/prebuilds/*/*.node"] },
  // Page weight (docs/page-weight.md): most of each page's JavaScript is React DOM and Next's client, shipped as
  // CommonJS. Tree shaking and scope hoisting of those modules take ~1.7 KiB gzip off every page; a larger minimum
  // chunk size merges the framework's six first-load chunks into four, and every chunk costs ~0.4 KiB of response
  // headers. Checked with the e2e suite (uploads, worker and wasm included) on the production build.
  experimental: {
    turbopackCjsTreeShaking: true,
    turbopackCjsScopeHoisting: true,
    turbopackChunking: { minChunkSize: 150_000 },
  },
  async headers() {
    return [
      { source: "/:path*", headers: contentHeaders },
      { source: "/:path((?!_next/static/).*)", headers: documentHeaders },
    ];
  },
};

export default withNextIntl(nextConfig);
