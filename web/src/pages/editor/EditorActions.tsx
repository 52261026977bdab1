// The lifecycle actions the caller may take on the test, each offered only
// when its `can` flag says so: Mark Ready, Deprecate, New revision,
// Duplicate, Sharing, Delete.
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import type { Test } from "../../api";
import { deleteTest, reviseTest, saveTest, type LoadedTest } from "../../api/editorApi";
import { Confirm } from "../../components/ui";
import { useWorkspace } from "../../session";
import { DuplicateDialog } from "./DuplicateDialog";
import { DISCARDED } from "./LeaveGuard";
import { SharingModal } from "./SharingModal";

type Dialog = "ready" | "revise" | "deprecate" | "duplicate" | "sharing" | "delete" | null;

/** The longest version note the hub keeps. */
const MAX_NOTE = 500;

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
  const [note, setNote] = useState("");
  const close = () => setDialog(null);
  const open = (d: Dialog) => {
    setNote("");
    setDialog(d);
  };
  const changed = (res: LoadedTest) => {
    qc.invalidateQueries({ queryKey: ["tests"] });
    onChanged(res);
  };
  const failed = (err: unknown) => {
    close();
    onProblem(err);
  };

  const done = (res: LoadedTest) => {
    close();
    changed(res);
  };
  const markReady = useMutation({
    mutationFn: () => saveTest(test.id, { status: "Ready", note: note.trim() }, etag),
    onSuccess: done,
    onError: failed,
  });
  const deprecate = useMutation({
    mutationFn: () => saveTest(test.id, { status: "Deprecated" }, etag),
    onSuccess: (res) => {
      close();
      changed(res);
    },
    onError: failed,
  });
  const revise = useMutation({ mutationFn: () => reviseTest(test.id, note.trim()), onSuccess: done, onError: failed });
  const remove = useMutation({
    mutationFn: () => deleteTest(test.id),
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: ["tests"] });
      // The test is gone: its unsaved changes have nowhere to go.
      navigate("/tests", { state: DISCARDED });
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
      navigate("/tests", { state: DISCARDED });
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
          onClick={start(() => open("ready"))}
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
        <button type="button" disabled={revise.isPending} onClick={start(() => open("revise"))}>
          New revision
        </button>
      )}
      {can.duplicate && (
        <button type="button" onClick={start(() => setDialog("duplicate"))}>
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

      {dialog === "ready" && (
        <Confirm
          title={`Mark ${test.name} Ready?`}
          confirmLabel="Mark Ready"
          busy={markReady.isPending}
          onConfirm={() => markReady.mutate()}
          onCancel={close}
        >
          <p>Version v{test.version} is frozen for regression runs: nobody can change it. Start a new revision to change the test later.</p>
          <NoteField value={note} onChange={setNote} hint="Optional: what was reviewed, or why it is ready." />
        </Confirm>
      )}
      {dialog === "revise" && (
        <Confirm
          title="Start a new revision?"
          confirmLabel="New revision"
          busy={revise.isPending}
          onConfirm={() => revise.mutate()}
          onCancel={close}
        >
          <p>
            Version v{test.version + 1} starts as a Draft copy of v{test.version}, which stays Ready as it is.
          </p>
          <NoteField value={note} onChange={setNote} hint="Optional: what this revision is for." />
        </Confirm>
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
      {dialog === "duplicate" && <DuplicateDialog test={test} dirty={dirty} onClose={close} />}
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

/** NoteField is a version's optional note, one line of at most 500 characters. */
function NoteField({ value, onChange, hint }: { value: string; onChange: (v: string) => void; hint: string }) {
  return (
    <div className="field">
      <label htmlFor="version-note">Note</label>
      <input
        id="version-note"
        value={value}
        maxLength={MAX_NOTE}
        placeholder="e.g. Reviewed with the shop team"
        aria-describedby="version-note-hint"
        onChange={(e) => onChange(e.target.value.replace(/[\u0000-\u001f\u007f]/g, " "))}
      />
      <span className="hint" id="version-note-hint">
        {hint}
      </span>
    </div>
  );
}
