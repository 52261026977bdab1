// Quarantine: a Test Manager or Admin takes a flaky test's failures out of
// batch outcomes (docs/history.md). The dialog asks the reason; lifting
// asks for confirmation.
import { useId, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Test } from "../../api";
import type { LoadedTest } from "../../api/editorApi";
import { MAX_QUARANTINE_REASON, setQuarantine } from "../../api/historyApi";
import { Confirm, ErrorBox, FormActions, Modal } from "../../components/ui";

/** QuarantineDialog asks why, then quarantines the test. */
export function QuarantineDialog({ test, onDone, onClose }: { test: Test; onDone: (res: LoadedTest) => void; onClose: () => void }) {
  const id = useId();
  const qc = useQueryClient();
  const [reason, setReason] = useState("");
  const [empty, setEmpty] = useState(false);
  const save = useMutation({
    mutationFn: () => setQuarantine(test.id, reason.trim()),
    onSuccess: (res) => {
      void qc.invalidateQueries({ queryKey: ["tests"] });
      onDone(res);
    },
  });
  return (
    <Modal title={`Quarantine ${test.name}`} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setEmpty(!reason.trim());
          if (reason.trim()) save.mutate();
        }}
      >
        <div className="modal-body">
          <p>
            Its runs still run and show their result, but a failure no longer fails a batch, <code>agent ci</code> or a webhook&apos;s
            summary until the quarantine is lifted.
          </p>
          <label htmlFor={`${id}-reason`}>Reason</label>
          <textarea
            id={`${id}-reason`}
            required
            maxLength={MAX_QUARANTINE_REASON}
            rows={3}
            value={reason}
            placeholder="Why, and until when: fails on Staging since the payment sandbox changed"
            onChange={(e) => setReason(e.target.value)}
          />
        </div>
        {empty && (
          <p className="field-error" role="alert">
            Say why the test is quarantined.
          </p>
        )}
        <ErrorBox error={save.error} />
        <FormActions onCancel={onClose} label="Quarantine" busyLabel="Quarantining…" busy={save.isPending} />
      </form>
    </Modal>
  );
}

/**
 * QuarantineAction: "Quarantine…" or "Lift quarantine" for those whose
 * can.quarantine says so; nothing for others.
 */
export function QuarantineAction({ test, onChanged }: { test: Test; onChanged: (res: LoadedTest) => void }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const lift = useMutation({
    mutationFn: () => setQuarantine(test.id, null),
    onSuccess: (res) => {
      void qc.invalidateQueries({ queryKey: ["tests"] });
      setOpen(false);
      onChanged(res);
    },
  });
  if (!test.can.quarantine) return null;
  if (!test.quarantine) {
    return (
      <>
        <button type="button" onClick={() => setOpen(true)}>
          Quarantine…
        </button>
        {open && (
          <QuarantineDialog
            test={test}
            onClose={() => setOpen(false)}
            onDone={(res) => {
              setOpen(false);
              onChanged(res);
            }}
          />
        )}
      </>
    );
  }
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Lift quarantine
      </button>
      {open && (
        <Confirm
          title={`Lift the quarantine of ${test.name}`}
          confirmLabel="Lift quarantine"
          busy={lift.isPending}
          error={lift.error}
          onConfirm={() => lift.mutate()}
          onCancel={() => setOpen(false)}
        >
          Its failures will fail batches again. Batches that ran while it was quarantined keep their outcome.
        </Confirm>
      )}
    </>
  );
}
