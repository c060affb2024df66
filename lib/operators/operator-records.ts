import "server-only";
import { getDatabase, type OpenDatabase } from "@/lib/db/client";
import type {
  Operator,
  OperatorAccessEntry,
  OperatorAccessInput,
  OperatorDocumentPage,
  OperatorOverview,
  OperatorPeriod,
  OperatorSearchResult,
  OperatorUserPage,
  StuckDocument,
  StuckDocumentsQuery,
} from "@/lib/operators/types";

const notImplemented = (): never => {
  throw new Error("not implemented");
};

/** The operator's reads across users, and the access log, on one database (lib/db). */
export function operatorRecordsFor(open: () => Promise<Pick<OpenDatabase, "db" | "kind">>) {
  void open;
  return {
    getOperatorOverview: (period: OperatorPeriod): Promise<OperatorOverview> => notImplemented(),
    listStuckDocuments: (query: StuckDocumentsQuery): Promise<StuckDocument[]> => notImplemented(),
    searchOperator: (query: string, options?: { limit?: number }): Promise<OperatorSearchResult> => notImplemented(),
    getOperatorUser: (userKey: string, options?: { cursor?: string; limit?: number }): Promise<OperatorUserPage | null> => notImplemented(),
    getOperatorDocument: (userKey: string, itemId: string): Promise<OperatorDocumentPage | null> => notImplemented(),
    recordOperatorAccess: (operator: Operator, input: OperatorAccessInput): Promise<void> => notImplemented(),
    listOperatorAccess: (options?: { before?: number; limit?: number }): Promise<{ entries: OperatorAccessEntry[]; nextBefore: number | null }> => notImplemented(),
  };
}

export type OperatorRecords = ReturnType<typeof operatorRecordsFor>;

export const operatorRecords: OperatorRecords = operatorRecordsFor(getDatabase);

export const { getOperatorOverview, listStuckDocuments, searchOperator, getOperatorUser, getOperatorDocument, recordOperatorAccess, listOperatorAccess } = operatorRecords;
