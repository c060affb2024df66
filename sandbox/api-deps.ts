import type { ServerResponse } from "node:http";
import type { BackchannelLogoutUri, SentLogoutTokens } from "./backchannel-logout";
import type { BlobStorage } from "./blob-storage";
import type { SandboxConfig } from "./config";
import type { DocumentRegistry } from "./documents";
import type { Faults } from "./faults";
import type { IdentityStyleSwitch } from "./identity-style";
import type { IssuedTokens } from "./issued-tokens";
import type { LogoutTokenMinter } from "./logout-token-minting";
import type { OidcStore } from "./oidc-store";
import type { ProviderSlot } from "./provider-slot";
import type { ResponseStyleSwitch } from "./response-style";
import type { RevocationEndpoint, Revocations } from "./revocations";
import type { SigningKeys } from "./signing-keys";
import type { Stats } from "./stats";

/** What the API server and its admin routes share: the sandbox's parts (one file, so neither imports the other for it). */
export interface ApiDeps {
  config: SandboxConfig;
  /** The live oidc-provider; replaced when keys rotate or client metadata changes. */
  providers: ProviderSlot;
  store: OidcStore;
  sentLogoutTokens: SentLogoutTokens;
  backchannelLogoutUri: BackchannelLogoutUri;
  logoutTokens: LogoutTokenMinter;
  blobs: BlobStorage;
  documents: DocumentRegistry;
  faults: Faults;
  stats: Stats;
  issued: IssuedTokens;
  style: ResponseStyleSwitch;
  identity: IdentityStyleSwitch;
  keys: SigningKeys;
  revocations: Revocations;
  revocationEndpoint: RevocationEndpoint;
  /** Responses held open by a hang fault, closed on stop so nothing leaks. */
  hanging: Set<ServerResponse>;
  /** Stops a server from accepting connections for `ms` (connection refused), then listens again. */
  outage: (part: OutagePart, ms: number) => void;
}

export type OutagePart = "api" | "auth";
