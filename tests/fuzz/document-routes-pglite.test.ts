import { fuzzDocumentRoutes } from "./support/document-routes-fuzz";

// The events, import and list routes on the embedded database (PGlite, in this process).
fuzzDocumentRoutes("PGlite", async () => ({ env: {} }));
