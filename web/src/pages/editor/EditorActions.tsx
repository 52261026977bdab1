// The lifecycle actions the caller may take on the test, each offered only
// when its `can` flag says so: Mark Ready, Deprecate, New revision,
// Duplicate, Sharing, Delete.
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import type { Test } from "../../api";
import { deleteTest, duplicateTest, reviseTest, saveTest, type LoadedTest } from "../../api/editorApi";
import { Confirm } from "../../components/ui";
import { useWorkspace } from "../../session";
import { SharingModal } from "./SharingModal";

type Dialog = "deprecate" | "duplicate" | "sharing" | "delete" | null;

export function EditorActions({
  test,
  etag,
  dirty,
  onChanged,
  onProblem,
}: {
  test: Test;
  etag: string;
  dirty: boolean;
  /** The hub's answer to an action that changed this test. */
  onChanged: (res: LoadedTest) => void;
  /** A refused action (409, 412 ...) or null when one starts. */
  onProblem: (err: unknown) => void;
}) {
  const { can } = test;
  const ws = useWorkspace();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const changed = (res: LoadedTest) => {
    qc.invalidateQueries({ queryKey: ["tests"] });
    onChanged(res);
  };
  const failed = (err: unknown) => {
    close();
    onProblem(err);
  };

  const markReady = useMutation({ mutationFn: () => saveTest(test.id, { status: "Ready" }, etag), onSuccess: changed, onError: failed });
  const deprecate = useMutation({
    mutationFn: () => saveTest(test.id, { status: "Deprecated" }, etag),
    onSuccess: (res) => {
      close();
      changed(res);
    },
    onError: failed,
  });
  const revise = useMutation({ mutationFn: () => reviseTest(test.id), onSuccess: changed, onError: failed });
  const duplicate = useMutation({
    mutationFn: () => duplicateTest(test.id),
    onSuccess: (res) => {
      close();
      qc.invalidateQueries({ queryKey: ["tests"] });
      navigate(`/tests/${res.test.id}`);
    },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: () => deleteTest(test.id),
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: ["tests"] });
      navigate("/tests");
    },
  });
  const start = (run: () => void) => () => {
    onProblem(null);
    run();
  };
  const shared = (res: LoadedTest) => {
    close();
    // A private test handed to someone else is no longer visible here.
    if (res.test.visibility === "Private" && res.test.owner?.id !== ws.user.id) {
      qc.invalidateQueries({ queryKey: ["tests"] });
      navigate("/tests");
      return;
    }
    changed(res);
  };

  const versions = test.version === 1 ? "its only version" : `all ${test.version} versions`;
  return (
    <>
      {can.markReady && (
        <button
          type="button"
          disabled={dirty || markReady.isPending}
          title={dirty ? "Save your changes first" : "Freeze this version for regression runs"}
          onClick={start(() => markReady.mutate())}
        >
          Mark Ready
        </button>
      )}
      {can.markReady && dirty && <span className="hint">Save your changes before marking the test Ready.</span>}
      {can.deprecate && (
        <button type="button" onClick={start(() => setDialog("deprecate"))}>
          Deprecate
        </button>
      )}
      {can.revise && (
        <button type="button" disabled={revise.isPending} onClick={start(() => revise.mutate())}>
          New revision
        </button>
      )}
      {can.duplicate && (
        <button type="button" disabled={duplicate.isPending} onClick={start(() => (dirty ? setDialog("duplicate") : duplicate.mutate()))}>
          Duplicate
        </button>
      )}
      {(can.share || can.transfer) && (
        <button type="button" onClick={start(() => setDialog("sharing"))}>
          Sharing
        </button>
      )}
      {can.delete && (
        <button type="button" className="danger-outline" onClick={start(() => setDialog("delete"))}>
          Delete
        </button>
      )}

      {dialog === "deprecate" && (
        <Confirm
          title={`Deprecate ${test.name}?`}
          confirmLabel="Deprecate"
          busy={deprecate.isPending}
          onConfirm={() => deprecate.mutate()}
          onCancel={close}
        >
          <p>A Deprecated test is kept for its history: it can no longer be run, revised or deleted. Duplicate it to work from a copy.</p>
        </Confirm>
      )}
      {dialog === "duplicate" && (
        <Confirm
          title="Duplicate the saved version?"
          confirmLabel="Duplicate"
          busy={duplicate.isPending}
          onConfirm={() => duplicate.mutate()}
          onCancel={close}
        >
          <p>
            The copy is made from the saved version v{test.version}. Your unsaved changes are not copied, and they are lost when the copy
            opens.
          </p>
        </Confirm>
      )}
      {dialog === "sharing" && <SharingModal test={test} onClose={close} onDone={shared} />}
      {dialog === "delete" && (
        <Confirm
          title={`Delete ${test.name}?`}
          confirmLabel="Delete test"
          danger
          busy={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate()}
          onCancel={() => {
            remove.reset();
            close();
          }}
        >
          <p>
            This deletes {versions} of <strong>{test.name}</strong> and its run history: every run of this test, with its results and
            screenshots. This cannot be undone.
          </p>
        </Confirm>
      )}
    </>
  );
}
