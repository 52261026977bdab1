// Duplicate asks for the copy's name, "<name> (copy)" to start with, and
// opens the copy. The hub checks the name as a test's name (422 beside the
// field); the dialog stays open on any refusal so the name can be fixed.
import { useId, useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import type { Test } from "../../api";
import { duplicateTest } from "../../api/editorApi";
import { FormActions, Modal } from "../../components/ui";
import { FieldError, fieldIssue, FormError } from "../tests/forms";
import { DISCARDED } from "./LeaveGuard";

/** The longest test name the hub keeps. */
const MAX_NAME = 200;

/** copyName is the name a copy starts with, within the length limit (as the hub's own). */
export function copyName(name: string): string {
  const suffix = " (copy)";
  return [...name].slice(0, MAX_NAME - suffix.length).join("") + suffix;
}

export function DuplicateDialog({ test, dirty, onClose }: { test: Test; dirty: boolean; onClose: () => void }) {
  const id = useId();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState(() => copyName(test.name));
  const duplicate = useMutation({
    mutationFn: () => duplicateTest(test.id, name.trim()),
    onSuccess: (res) => {
      qc.invalidateQueries({ queryKey: ["tests"] });
      navigate(`/tests/${res.test.id}`, { state: DISCARDED });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    duplicate.mutate();
  };
  const nameError = fieldIssue(duplicate.error, "name");
  return (
    <Modal title={`Duplicate ${test.name}`} onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <p>
          The copy is a new Draft owned by you, made from the saved version v{test.version}.
          {dirty && " Your unsaved changes are not copied, and they are lost when the copy opens."}
        </p>
        <div className={nameError ? "field has-error" : "field"}>
          <label htmlFor={`${id}-name`}>Name of the copy</label>
          <input
            id={`${id}-name`}
            required
            autoFocus
            maxLength={MAX_NAME}
            value={name}
            onChange={(e) => setName(e.target.value)}
            onFocus={(e) => e.currentTarget.select()}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${id}-name-error` : undefined}
          />
          <FieldError id={`${id}-name-error`} message={nameError} />
        </div>
        <FormError error={duplicate.error} shown={["name"]} />
        <FormActions onCancel={onClose} label="Duplicate" busyLabel="Duplicating…" busy={duplicate.isPending} />
      </form>
    </Modal>
  );
}
