// The table of a project's records (environments, applications, suites):
// its loading, error and empty states, one row per record, and a last
// column of row actions.
import type { ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { Empty, ErrorBox, Loading } from "./ui";

export interface Column<T> {
  header: ReactNode;
  /** Class of the column's cells. */
  className?: string;
  /** Class of the column's header, e.g. "num". */
  headerClassName?: string;
  cell: (row: T) => ReactNode;
}

export function ResourceTable<T>({
  query,
  columns,
  rowKey,
  actions,
  actionsClassName = "row-actions",
  loadingLabel,
  errorTitle,
  empty,
  className = "table",
}: {
  query: UseQueryResult<T[]>;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  /** The buttons of a row; without it the table has no actions column. */
  actions?: (row: T) => ReactNode;
  actionsClassName?: string;
  loadingLabel: string;
  errorTitle: string;
  /** What the empty state says. */
  empty: ReactNode;
  className?: string;
}) {
  if (query.isPending) return <Loading label={loadingLabel} />;
  if (query.isError) return <ErrorBox error={query.error} title={errorTitle} />;
  if (query.data.length === 0) return <Empty>{empty}</Empty>;
  return (
    <table className={className}>
      <thead>
        <tr>
          {columns.map((c, i) => (
            <th key={i} className={c.headerClassName}>
              {c.header}
            </th>
          ))}
          {actions && (
            <th>
              <span className="sr-only">Actions</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {query.data.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((c, i) => (
              <td key={i} className={c.className}>
                {c.cell(row)}
              </td>
            ))}
            {actions && <td className={actionsClassName}>{actions(row)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
