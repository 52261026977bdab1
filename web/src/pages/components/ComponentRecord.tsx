// Record in the component editor, as in the test editor: the same panel
// records on the caller's agent, and the captured steps are appended to
// the component's steps as unsaved edits.
import { useRef, useState } from "react";
import type { Registry } from "../../api";
import type { JsonObject } from "../../api/editorApi";
import type { Authoring } from "../editor/authoring/AuthoringContext";
import { RecordPanel } from "../editor/authoring/RecordPanel";
import { firstNavigateUrl, insertRecorded } from "../editor/authoring/recordModel";
import { running, useRecording } from "../editor/authoring/useRecording";
import { useRunOptions } from "../runs/RunOptionsFields";

export function ComponentRecord({
  projectId,
  registry,
  steps,
  onSteps,
}: {
  projectId: string;
  registry: Registry;
  steps: JsonObject[];
  onSteps: (steps: JsonObject[]) => void;
}) {
  const options = useRunOptions(projectId);
  const recording = useRecording(projectId);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // The steps as they are when a recording stops, edits made meanwhile included.
  const latest = useRef(steps);
  latest.current = steps;
  const authoring: Authoring = {
    projectId,
    testId: "",
    options,
    recordingId: recording.rec && running(recording.rec) ? recording.rec.id : null,
    pageUrl: firstNavigateUrl(steps),
  };
  const onInsert = (recorded: JsonObject[]) => {
    const res = insertRecorded(latest.current, recorded, null);
    onSteps(res.steps);
    return res.ids.length;
  };
  const close = () => {
    setOpen(false);
    setTimeout(() => button.current?.focus());
  };
  return (
    <div className="cmp-record">
      <button ref={button} type="button" aria-expanded={open} disabled={open} onClick={() => setOpen(true)}>
        Record
      </button>
      {open && (
        <RecordPanel recording={recording} authoring={authoring} registry={registry} onInsert={onInsert} onClose={close} into="component" />
      )}
    </div>
  );
}
