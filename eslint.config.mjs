import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    // Playwright fixtures call a parameter named `use`, which the React hooks rule mistakes for React's.
    files: ["e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    // Links go through components/ui/link.tsx, which turns prefetching off (why: there).
    files: ["app/**", "components/**", "lib/**"],
    ignores: ["components/ui/link.tsx"],
    rules: { "no-restricted-imports": ["error", { paths: [{ name: "next/link", message: "Use { Link } from \"@/components/ui/link\": it does not prefetch (see there)." }] }] },
  },
  {
    ignores: [".next/**", "node_modules/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "bench/results/**", "bench/pages/bare/.next/**"],
  },
];

export default config;
