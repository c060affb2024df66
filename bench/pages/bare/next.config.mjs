import path from "node:path";

/**
 * The bare page `npm run bench:pages` measures every page against (docs/page-weight.md): Next.js with its defaults,
 * nothing of the app's. Its packages are the app's own (the repository's node_modules), so the versions are the same.
 */
const nextConfig = {
  turbopack: { root: path.resolve(import.meta.dirname, "../../..") },
};

export default nextConfig;
