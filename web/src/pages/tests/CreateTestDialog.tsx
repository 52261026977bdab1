// The "New test" dialog: a name, an optional suite and Shared or Private.
// The hub saves it at once as version 1, a Draft with no steps, and the
// editor opens on it.
import { useId, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Visibility } from "../../api";
import { createTest, type Suite } from "../../api/testsApi";
import { Modal, FormActions } from "../../components/ui";
import { FieldError, fieldIssue, FormError } from "./forms";
import { useProjectId } from "../../session";

export function CreateTestDialog({ suites, onClose }: { suites: Suite[]; onClose: () => void }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const projectId = useProjectId();
  const id = useId();
  const [name, setName] = useState("");
  const [suite, setSuite] = useState("");
  const [visibility, setVisibility] = useState<Visibility>("Shared");
  const create = useMutation({
    mutationFn: () => createTest(projectId, { name, suite, visibility }),
    onSuccess: (test) => {
      void qc.invalidateQueries({ queryKey: ["tests"] });
      void qc.invalidateQueries({ queryKey: ["suites"] });
      navigate(`/tests/${encodeURIComponent(test.id)}`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  const nameError = fieldIssue(create.error, "name");
  const suiteError = fieldIssue(create.error, "suite");
  const visibilityError = fieldIssue(create.error, "visibility");
  return (
    <Modal title="New test" onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <div className={nameError ? "field has-error" : "field"}>
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            required
            autoFocus
            maxLength={200}
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${id}-name-error` : undefined}
          />
          <FieldError id={`${id}-name-error`} message={nameError} />
        </div>
        <div className={suiteError ? "field has-error" : "field"}>
          <label htmlFor={`${id}-suite`}>Suite</label>
          <input
            id={`${id}-suite`}
            list={`${id}-suites`}
            maxLength={100}
            value={suite}
            onChange={(e) => setSuite(e.target.value)}
            aria-invalid={suiteError ? true : undefined}
            aria-describedby={suiteError ? `${id}-suite-error` : `${id}-suite-hint`}
          />
          <datalist id={`${id}-suites`}>
            {suites.map((s) => (
              <option key={s.name} value={s.name} />
            ))}
          </datalist>
          <span className="hint" id={`${id}-suite-hint`}>
            Optional. Pick an existing suite or type a new name; leave it empty for Unsorted.
          </span>
          <FieldError id={`${id}-suite-error`} message={suiteError} />
        </div>
        <fieldset className="tl-visibility">
          <legend>Visibility</legend>
          <label className="inline">
            <input
              type="radio"
              name={`${id}-visibility`}
              value="Shared"
              checked={visibility === "Shared"}
              onChange={() => setVisibility("Shared")}
              aria-describedby={`${id}-shared-hint`}
            />
            Shared
          </label>
          <span className="hint" id={`${id}-shared-hint`}>
            Every member of the project sees it.
          </span>
          <label className="inline">
            <input
              type="radio"
              name={`${id}-visibility`}
              value="Private"
              checked={visibility === "Private"}
              onChange={() => setVisibility("Private")}
              aria-describedby={`${id}-private-hint`}
            />
            Private
          </label>
          <span className="hint" id={`${id}-private-hint`}>
            Only you see it, and its runs, whatever anyone's role.
          </span>
          <FieldError id={`${id}-visibility-error`} message={visibilityError} />
        </fieldset>
        <FormError error={create.error} shown={["name", "suite", "visibility"]} />
        <FormActions onCancel={onClose} label="Create test" busyLabel="Creating…" busy={create.isPending} />
      </form>
    </Modal>
  );
}
