// Renaming an organization or a project: one small form for both.
import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ErrorBox } from "../../components/ui";

export function RenameForm({
  title,
  label,
  current,
  rename,
}: {
  title: string;
  label: string;
  current: string;
  rename: (name: string) => Promise<{ name: string }>;
}) {
  const qc = useQueryClient();
  const [name, setName] = useState(current);
  const mutation = useMutation({
    mutationFn: () => rename(name.trim()),
    // The switcher and page titles read names from the context.
    onSuccess: () => qc.invalidateQueries({ queryKey: ["context"] }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    mutation.mutate();
  };
  return (
    <form className="admin-form" onSubmit={submit}>
      <h3>{title}</h3>
      <div className="admin-form-row">
        <label>
          {label}
          <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit" disabled={mutation.isPending || !name.trim() || name.trim() === current}>
          Rename
        </button>
      </div>
      <ErrorBox error={mutation.error} />
      {mutation.isSuccess && (
        <p className="ok-box" role="status">
          Renamed to {mutation.data.name}.
        </p>
      )}
    </form>
  );
}
