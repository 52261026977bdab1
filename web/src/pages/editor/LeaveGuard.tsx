// Every way out of an editor with unsaved changes asks first: links and
// navigation inside the app (useBlocker), and reload or closing the tab
// (beforeunload, in useEditorState).
import { useContext } from "react";
import { UNSAFE_DataRouterContext, useBlocker } from "react-router";
import { Modal } from "../../components/ui";

/**
 * LeaveState marks a navigation whose action already asked about the
 * unsaved changes (Delete, Duplicate): the guard lets it pass.
 */
export interface LeaveState {
  discarded?: boolean;
}

export const DISCARDED: LeaveState = { discarded: true };

/** what names what has the changes: "This test" (the editor), "This data set" ... */
export function LeaveGuard({ when, what = "This test" }: { when: boolean; what?: string }) {
  // useBlocker needs a data router; pages rendered in a plain router (unit tests) go without.
  const dataRouter = useContext(UNSAFE_DataRouterContext);
  return dataRouter ? <Blocker when={when} what={what} /> : null;
}

function Blocker({ when, what }: { when: boolean; what: string }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when && currentLocation.pathname !== nextLocation.pathname && !(nextLocation.state as LeaveState | null)?.discarded,
  );
  if (blocker.state !== "blocked") return null;
  return (
    <Modal title="Leave without saving?" onClose={() => blocker.reset()}>
      <div className="modal-body">
        <p>{what} has unsaved changes. If you leave now, they are lost.</p>
      </div>
      <div className="modal-actions">
        <button type="button" className="primary" onClick={() => blocker.reset()}>
          Stay on this page
        </button>
        <button type="button" className="danger" onClick={() => blocker.proceed()}>
          Leave without saving
        </button>
      </div>
    </Modal>
  );
}
