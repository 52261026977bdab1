// One labelled form field with its hint and its issues below, wired for
// screen readers: the label names the control by id (a checkbox sits inside
// its label), the hint and the issues are named by aria-describedby.
import { useId, type ReactNode } from "react";
import type { FieldIssue } from "./documentModel";
import { describedBy, FieldErrors } from "./Problems";

export interface ControlProps {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
}

export function Field({
  label,
  hint,
  issues,
  inline,
  className,
  children,
}: {
  label: string;
  hint?: string;
  issues?: FieldIssue[];
  /** A checkbox: the control sits before its label text. */
  inline?: boolean;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const hasIssues = !!issues && issues.length > 0;
  const control: ControlProps = {
    id: `${id}-control`,
    "aria-describedby": describedBy(hint && `${id}-hint`, hasIssues && `${id}-issues`),
    "aria-invalid": hasIssues || undefined,
  };
  return (
    <div className={["field", hasIssues && "has-error", className].filter(Boolean).join(" ")}>
      {inline ? (
        <label className="inline">
          {children(control)}
          {label}
        </label>
      ) : (
        // Not wrapped: a label around a textarea would take its text into the accessible name.
        <>
          <label htmlFor={control.id}>{label}</label>
          {children(control)}
        </>
      )}
      {hint && (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      <FieldErrors issues={issues} id={`${id}-issues`} />
    </div>
  );
}
