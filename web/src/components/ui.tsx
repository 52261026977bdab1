// Small building blocks every screen uses: loading and error states, page
// headers, confirmations, badges and dates.
import { useEffect, useId, useRef, type ReactNode } from "react";
import { ApiError, describeError } from "../api";
import { useOptionalWorkspace } from "../session";

export function Loading({ label = "Loading" }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label}…
    </div>
  );
}

/** ErrorBox explains a failed call; a 403 names the caller's role, a 404 says the record is gone or hidden. */
export function ErrorBox({ error, title }: { error: unknown; title?: string }) {
  const ws = useOptionalWorkspace();
  if (!error) return null;
  return (
    <div className="error-box" role="alert">
      {title && <strong>{title}: </strong>}
      {describeError(error, ws?.role)}
    </div>
  );
}

/** Issues lists validation issues that name no field shown on the page. */
export function IssueList({ error }: { error: unknown }) {
  if (!(error instanceof ApiError) || error.issues.length === 0) return null;
  return (
    <ul className="issue-list">
      {error.issues.map((i, n) => (
        <li key={n}>
          {i.path && <code>{i.path}</code>} {i.message}
        </li>
      ))}
    </ul>
  );
}

export function PageHeader({ title, children, subtitle }: { title: ReactNode; subtitle?: ReactNode; children?: ReactNode }) {
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {subtitle && <p className="subtitle">{subtitle}</p>}
      </div>
      {children && <div className="page-actions">{children}</div>}
    </header>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status.toLowerCase().replace(/\s+/g, "-")}`}>{status}</span>;
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

const dateFmt = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateFmt.format(d);
}

/** "3 min ago", "yesterday": short relative times for lists; the title has the full date. */
export function relativeTime(iso: string, now = Date.now()): string {
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return iso;
  const s = Math.round((now - t) / 1000);
  if (s < 45) return "just now";
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.round(h / 24);
  if (d === 1) return "yesterday";
  if (d < 30) return `${d} days ago`;
  return formatDate(iso);
}

export function When({ at }: { at: string | null | undefined }) {
  if (!at) return <span className="muted">—</span>;
  return (
    <time dateTime={at} title={formatDate(at)}>
      {relativeTime(at)}
    </time>
  );
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "";
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/**
 * Modal is a native <dialog> opened modally: focus moves into it, Escape
 * closes it, the page behind is inert.
 */
export function Modal({ title, onClose, children, wide }: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) {
      if (typeof d.showModal === "function") d.showModal();
      else d.setAttribute("open", "");
    }
  }, []);
  return (
    <dialog
      ref={ref}
      className={wide ? "modal modal-wide" : "modal"}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <div className="modal-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
      {children}
    </dialog>
  );
}

/** Confirm asks before something that cannot be undone, naming what is lost. */
export function Confirm({
  title,
  children,
  confirmLabel,
  danger,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  error?: unknown;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal title={title} onClose={onCancel}>
      <div className="modal-body">{children}</div>
      <ErrorBox error={error} />
      <div className="modal-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className={danger ? "danger" : "primary"} disabled={busy} onClick={onConfirm}>
          {busy ? "Working…" : confirmLabel}
        </button>
      </div>
    </Modal>
  );
}

/** FormActions ends a dialog's form: Cancel, and the submit button that says when it is busy. */
export function FormActions({
  onCancel,
  label,
  busyLabel,
  busy,
}: {
  onCancel: () => void;
  label: string;
  busyLabel: string;
  busy: boolean;
}) {
  return (
    <div className="modal-actions">
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="primary" disabled={busy}>
        {busy ? busyLabel : label}
      </button>
    </div>
  );
}
