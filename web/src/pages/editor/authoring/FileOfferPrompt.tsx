// A file the recorded page chose: the agent offers it to the hub, and the
// recording's upload step can only name it once it is one of the project's
// files. The person decides; until then the agent waits (up to 5 minutes)
// and the recording goes on.
import { useState } from "react";
import { answerFileOffer, type FileOfferedEvent } from "../../../api/authoringApi";
import { formatSize } from "../../../api/files";
import { problemText } from "./AuthoringContext";

export function FileOfferPrompt({ sessionId, offer }: { sessionId: string; offer: FileOfferedEvent }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const answer = async (accept: boolean) => {
    setBusy(true);
    setFailure(null);
    try {
      await answerFileOffer(sessionId, offer.offerId, accept);
      // The stream's file.settled takes the prompt away.
    } catch (e) {
      setFailure(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="notice file-offer" role="alertdialog" aria-label={`Upload ${offer.name}?`}>
      <p>
        The page chose <strong>{offer.name}</strong> ({formatSize(offer.size)}). Upload it to the project's files so the test can choose it
        when it runs?
      </p>
      {failure !== null && (
        <p className="error-box" role="alert">
          The answer was not taken: {problemText(failure)}
        </p>
      )}
      <div className="row">
        <button type="button" className="primary" disabled={busy} onClick={() => answer(true)}>
          Upload
        </button>
        <button type="button" disabled={busy} onClick={() => answer(false)}>
          Don't upload
        </button>
      </div>
    </div>
  );
}
