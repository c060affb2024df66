import path from "node:path";

/**
 * The bare page `npm run bench:pages` measures every page against (docs/page-weight.md): Next.js with its defaults,
 * nothing of the app's. Its packages are the app's own (the repository's node_modules), so the versions are the same.
 */
const nextConfig = {
  turbopack: { root: path.resolve(import.meta.dirname, "../../..") },
  // The app's documents carry this header (next.config.mjs), and Chrome answers it by loading the page in a new
  // renderer process, whose start-up Lighthouse counts as the page's work (1.5–2.1× the main-thread work of the same
  // bare page without it, docs/page-weight.md). Sent here too, so that the ratios measure the app's code.
  async headers() {
    return [{ source: "/:path((?!_next/static/).*)", headers: [{ key: "Cross-Origin-Opener-Policy", value: "same-origin" }] }];
  },
};

export default nextConfig;
