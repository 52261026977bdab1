// ConfirmAction: the dialog that asks before an action on the hub
// (deleting a record, disconnecting an agent) and does it.
import type { ReactNode } from "react";
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { Confirm } from "./ui";

/**
 * ConfirmAction shows Confirm's danger dialog; its button runs action. Once
 * that succeeded, the queries under each key of refresh are fetched again,
 * then onDone is called (closing the dialog, going on). A failure shows in
 * the dialog, through explain when given.
 */
export function ConfirmAction({
  title,
  confirmLabel,
  action,
  refresh,
  onDone,
  onCancel,
  explain,
  children,
}: {
  title: string;
  confirmLabel: string;
  action: () => Promise<unknown>;
  refresh: QueryKey[];
  onDone: () => void;
  onCancel: () => void;
  explain?: (error: unknown) => unknown;
  children: ReactNode;
}) {
  const qc = useQueryClient();
  const run = useMutation({
    mutationFn: action,
    onSuccess: async () => {
      for (const queryKey of refresh) await qc.invalidateQueries({ queryKey });
      onDone();
    },
  });
  return (
    <Confirm
      title={title}
      confirmLabel={confirmLabel}
      danger
      busy={run.isPending}
      error={explain ? explain(run.error) : run.error}
      onConfirm={() => run.mutate()}
      onCancel={onCancel}
    >
      {children}
    </Confirm>
  );
}
