import { startPostgresServer } from "../../scripts/lib/postgres-server";
import { fuzzDocumentRoutes } from "./support/document-routes-fuzz";

// The events, import and list routes on a real PostgreSQL (Debian's server binaries), started on its own port.
const POSTGRES_PORT = Number(process.env.TEST_FUZZ_POSTGRES_PORT ?? 4714);

fuzzDocumentRoutes("PostgreSQL", async () => {
  const postgres = await startPostgresServer(POSTGRES_PORT);
  return { env: { DATABASE_URL: postgres.url }, stop: () => postgres.stop() };
});
