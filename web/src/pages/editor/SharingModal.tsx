// Sharing: the owner makes a test Shared or Private; the owner (or a Test
// Manager or Admin, for a shared test) hands it to another project member.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { keys, listProjectMembers, type Test, type Visibility } from "../../api";
import { setSharing, type LoadedTest } from "../../api/editorApi";
import { ErrorBox, Loading, Modal } from "../../components/ui";

export function SharingModal({ test, onClose, onDone }: { test: Test; onClose: () => void; onDone: (res: LoadedTest) => void }) {
  const [visibility, setVisibility] = useState<Visibility>(test.visibility);
  const [ownerId, setOwnerId] = useState(test.owner?.id ?? "");
  const members = useQuery({
    queryKey: keys.projectMembers(test.projectId),
    queryFn: () => listProjectMembers(test.projectId),
    enabled: test.can.transfer,
  });
  const change: { visibility?: Visibility; ownerId?: string } = {};
  if (test.can.share && visibility !== test.visibility) change.visibility = visibility;
  if (test.can.transfer && ownerId && ownerId !== test.owner?.id) change.ownerId = ownerId;
  const save = useMutation({ mutationFn: () => setSharing(test.id, change), onSuccess: onDone });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const nothing = change.visibility === undefined && change.ownerId === undefined;
  const privateAfter = (change.visibility ?? test.visibility) === "Private";

  return (
    <Modal title="Sharing" onClose={onClose}>
      <form className="form" onSubmit={submit}>
        {test.can.share && (
          <fieldset>
            <legend>Visibility</legend>
            <label className="inline">
              <input type="radio" name="visibility" checked={visibility === "Shared"} onChange={() => setVisibility("Shared")} />
              Shared
            </label>
            <span className="hint">Every member of the project sees it and its runs.</span>
            <label className="inline">
              <input type="radio" name="visibility" checked={visibility === "Private"} onChange={() => setVisibility("Private")} />
              Private
            </label>
            <span className="hint">Only its owner sees it, whatever anyone's role.</span>
          </fieldset>
        )}
        {test.can.transfer && (
          <div className="field">
            {members.isPending ? (
              <Loading label="Loading the project's members" />
            ) : members.isError ? (
              <ErrorBox error={members.error} title="Members" />
            ) : (
              <>
                <label htmlFor="sharing-owner">Owner</label>
                <select id="sharing-owner" value={ownerId} onChange={(e) => setOwnerId(e.target.value)}>
                  {!test.owner && <option value="">(no owner)</option>}
                  {test.owner && !members.data.some((m) => m.userId === test.owner?.id) && (
                    <option value={test.owner.id}>{test.owner.name}</option>
                  )}
                  {members.data.map((m) => (
                    <option key={m.userId} value={m.userId}>
                      {m.name} ({m.email}) · {m.role}
                    </option>
                  ))}
                </select>
              </>
            )}
            {change.ownerId && privateAfter && (
              <span className="hint">A private test handed to someone else becomes visible to them alone, and no longer to you.</span>
            )}
          </div>
        )}
        <ErrorBox error={save.error} />
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={nothing || save.isPending}>
            {save.isPending ? "Saving…" : "Save sharing"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
